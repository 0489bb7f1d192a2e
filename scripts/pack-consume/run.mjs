#!/usr/bin/env node
// Pack-and-consume test: do the @kruise-ts packages work for a user who installs them?
//
// Needs the packages built (`pnpm build`); builds nothing itself. Then:
//   1. `pnpm pack`s every package under packages/ into a temporary directory and checks each
//      tarball: no `workspace:` ranges left, every file the package.json points at (exports
//      except the workspace-only `@kruise-ts/source` condition, main, types, bin) is inside,
//      every package a shipped .js/.d.ts imports is a declared dependency, and the CLI carries
//      its demo scenario;
//   2. creates a consumer project in os.tmpdir() (outside the workspace, so nothing resolves
//      through it) depending on all tarballs by `file:` path, also as npm `overrides` so the
//      packages' dependencies on each other resolve to the tarballs and not to the registry,
//      plus typescript 5.9 and @types/node 20, and installs it with npm. The workspace's own
//      pnpm overrides (pnpm-workspace.yaml) become npm overrides too, because a user needs the
//      same ones: undici ^7, since @kubernetes/client-node 2 (operator, daemon) depends on undici 8,
//      which needs Node >= 22.19 and fails at import on Node 20;
//   3. type-checks consumer.mts (uses every package on small objects) with `strict` and without
//      `skipLibCheck` under module/moduleResolution NodeNext/NodeNext, Node16/Node16 and
//      ESNext/Bundler, so our .d.ts and those of our dependencies must be valid for all three;
//   4. runs the compiled consumer (ESM `import`), then consumer.cjs, which `require()`s every
//      entry point (require(esm), Node 20.19+);
//   5. runs the installed binary: `npx kruise-ts --help` and `npx kruise-ts demo` (must PASS).
// Prints a summary and exits 1 if anything failed.
//
// Usage: node scripts/pack-consume/run.mjs [--keep]
//   --keep  leave the temporary directory (tarballs and consumer project) for debugging.
// The pnpm used for packing is the one running this script (`pnpm run test:pack`), else
// `npx -y pnpm@<version of the root packageManager field>`.

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  consumerEnv,
  consumerManifest,
  exec,
  expectSuccess,
  exportTargets,
  packAll,
  pnpmCommand,
  tail,
  unbuiltFiles,
  unbuiltMessage,
  workspaceOverrides,
  workspacePackages,
} from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const keep = args.includes('--keep');
for (const a of args) {
  if (a !== '--keep') {
    console.error(`unknown argument ${a}\nusage: node scripts/pack-consume/run.mjs [--keep]`);
    process.exit(2);
  }
}

/** The three module/moduleResolution pairs a consumer may use. */
const MODES = [
  ['NodeNext', 'NodeNext'],
  ['Node16', 'Node16'],
  ['ESNext', 'Bundler'],
];
const started = performance.now();

// ---------------------------------------------------------------- helpers

const results = [];

/**
 * Runs one check, recording pass/fail, its time and its details. `fn` returns a detail string, or
 * `{ detail, ms }` when the work ran earlier (in parallel) and took `ms`.
 */
async function check(name, fn) {
  const t0 = performance.now();
  process.stdout.write(`- ${name} ... `);
  try {
    const out = await fn();
    const detail = typeof out === 'object' && out !== null ? out.detail : out;
    const ms = typeof out === 'object' && out !== null ? out.ms : performance.now() - t0;
    results.push({ name, ok: true, ms, detail });
    console.log(`ok (${seconds(ms)})${detail ? `: ${detail}` : ''}`);
    return true;
  } catch (e) {
    const ms = e?.ms ?? performance.now() - t0;
    const detail = e instanceof Error ? e.message : String(e);
    results.push({ name, ok: false, ms, detail });
    console.log(`FAILED (${seconds(ms)})\n${indent(detail)}`);
    return false;
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const indent = (text) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/** The package name of a bare import specifier (`@scope/name/sub` -> `@scope/name`), or undefined. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

/** Every module specifier a .js or .d.ts file imports, re-exports, requires or references. */
function specifiersIn(text) {
  const out = new Set();
  // A module specifier holds no whitespace: that keeps a string such as `'--import'` in code (a
  // flag name, not an import) from being read as a side-effect import of what follows it.
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"\s]+)['"]/g,
    /\bimport\s*['"]([^'"\s]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"\s]+)['"]\s*\)/g,
    /\/\/\/\s*<reference\s+types\s*=\s*['"]([^'"\s]+)['"]/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.add(m[1]);
  return out;
}

/** Every file under dir, relative to it, with forward slashes. */
function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}

/** The import specifiers of a package's entry points: `name` and `name/<subpath>`. */
function entrySpecifiers(pkg) {
  if (!pkg.exports || typeof pkg.exports === 'string') return [pkg.name];
  return Object.keys(pkg.exports)
    .filter((k) => k === '.' || (k.startsWith('./') && !k.includes('*') && !k.endsWith('.json')))
    .map((k) => (k === '.' ? pkg.name : `${pkg.name}/${k.slice(2)}`));
}

function finish() {
  const failed = results.filter((r) => !r.ok);
  console.log(`\nSummary (${seconds(performance.now() - started)} in all):`);
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results)
    console.log(`  ${r.ok ? 'ok    ' : 'FAILED'}  ${r.name.padEnd(width)}  ${seconds(r.ms)}`);
  if (keep) console.log(`\nkept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  if (failed.length > 0) {
    console.log(
      `\n${failed.length} check(s) failed${keep ? '' : ' (run with --keep to inspect the consumer project)'}`,
    );
    process.exit(1);
  }
  console.log('\nall packages install, type-check and run from their tarballs');
  process.exit(0);
}

// ---------------------------------------------------------------- the workspace's packages

const packages = workspacePackages();
const versions = new Map(packages.map(({ pkg }) => [pkg.name, pkg.version]));

// Built? Every file the package.json points at must exist in the workspace before packing.
const unbuilt = unbuiltFiles(packages);
if (unbuilt.length > 0) {
  console.error(unbuiltMessage('pack-consume', unbuilt));
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'kruise-ts-pack-consume-'));
const tarDir = join(work, 'tarballs');
const unpackDir = join(work, 'unpacked');
const consumerDir = join(work, 'consumer');
for (const d of [tarDir, unpackDir, consumerDir]) mkdirSync(d);
console.log(`pack-consume: ${packages.length} packages, working in ${work}\n`);

// ---------------------------------------------------------------- 1. pack and inspect

const tarballs = new Map(); // package name -> tarball path
const packed = await check(`pnpm pack (${packages.length} packages)`, async () => {
  for (const [name, path] of await packAll(packages, tarDir, pnpmCommand())) tarballs.set(name, path);
  const files = readdirSync(tarDir);
  return `${files.length} tarballs`;
});
if (!packed) finish();

for (const { pkg } of packages) {
  await check(`tarball contents of ${pkg.name}`, async () => {
    const dest = join(unpackDir, pkg.name.replace('/', '+'));
    mkdirSync(dest, { recursive: true });
    expectSuccess('tar', await exec('tar', ['-xzf', tarballs.get(pkg.name), '-C', dest]));
    const pkgRoot = join(dest, 'package');
    const files = listFiles(pkgRoot);
    const packedPkg = JSON.parse(readFileSync(join(pkgRoot, 'package.json'), 'utf8'));
    const problems = [];

    // pnpm rewrites workspace: ranges; nothing may be left, and siblings get their exact version.
    const declared = new Set();
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      for (const [name, range] of Object.entries(packedPkg[field] ?? {})) {
        if (field !== 'devDependencies') declared.add(name);
        if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is still ${range}`);
        else if (versions.has(name) && field !== 'devDependencies' && range !== versions.get(name))
          problems.push(`${field}.${name} is ${range}, expected ${versions.get(name)}`);
      }
    }

    // Every file the package.json points at is packed.
    const targets = [
      ...exportTargets(packedPkg.exports ?? {}),
      packedPkg.main,
      packedPkg.types,
      ...Object.values(packedPkg.bin ?? {}),
    ];
    for (const t of targets) {
      if (t && !files.includes(t.replace(/^\.\//, '')))
        problems.push(`${t} is referenced by package.json but not packed`);
    }

    // Every package a shipped module or declaration imports is a declared dependency.
    for (const f of files.filter((f) => /\.(?:m|c)?js$|\.d\.(?:m|c)?ts$/.test(f))) {
      for (const s of specifiersIn(readFileSync(join(pkgRoot, f), 'utf8'))) {
        const name = packageOf(s);
        if (name && name !== packedPkg.name && !declared.has(name))
          problems.push(`${f} imports ${s}, but ${name} is not a dependency`);
        // kubernetes-types has no exports map: under NodeNext/Node16 an ESM subpath import needs
        // the file extension ('kubernetes-types/core/v1.js' resolves to core/v1.d.ts).
        if (name === 'kubernetes-types' && s !== name && !s.endsWith('.js'))
          problems.push(
            `${f} imports '${s}'; write '${s}.js' in the source (NodeNext cannot resolve it otherwise)`,
          );
      }
    }

    if (packedPkg.name === '@kruise-ts/cli' && !files.includes('dist/scenarios/cloneset-inplace.yaml'))
      problems.push('dist/scenarios/cloneset-inplace.yaml (the demo scenario) is not packed');

    if (problems.length > 0) throw new Error([...new Set(problems)].join('\n'));
    const size = statSync(tarballs.get(pkg.name)).size;
    return `${files.length} files, ${(size / 1024).toFixed(0)} KiB`;
  });
}

// ---------------------------------------------------------------- 2. the consumer project

const inherited = workspaceOverrides();
if (Object.keys(inherited).length > 0)
  console.log(
    `note: the consumer applies the workspace's overrides, as a user must: ${Object.entries(inherited)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
writeFileSync(
  join(consumerDir, 'package.json'),
  `${JSON.stringify(
    consumerManifest('kruise-ts-pack-consumer', tarballs, {
      '@types/node': '^20',
      typescript: '~5.9.0',
      'fast-check': '^4.11.0',
    }),
    null,
    2,
  )}\n`,
);
copyFileSync(join(here, 'consumer.mts'), join(consumerDir, 'consumer.mts'));
copyFileSync(join(here, 'consumer.cjs'), join(consumerDir, 'consumer.cjs'));
for (const [module, moduleResolution] of MODES) {
  const emit = module === 'NodeNext';
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    module,
    moduleResolution,
    target: 'ES2022',
    types: ['node'],
    forceConsistentCasingInFileNames: true,
    ...(emit ? { outDir: 'out' } : { noEmit: true }),
  };
  writeFileSync(
    join(consumerDir, `tsconfig.${module.toLowerCase()}.json`),
    `${JSON.stringify({ compilerOptions, files: ['consumer.mts'] }, null, 2)}\n`,
  );
}

const env = consumerEnv();
const installed = await check('npm install (tarballs, typescript 5.9, @types/node 20)', async () => {
  const r = await exec(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    {
      cwd: consumerDir,
      env,
    },
  );
  expectSuccess('npm install', r);
  const problems = [];
  for (const name of tarballs.keys()) {
    // Exactly one copy of each of our packages, the tarball's (an override that did not apply
    // would leave a registry copy nested somewhere).
    const copies = listInstalled(join(consumerDir, 'node_modules'), name);
    if (copies.length !== 1)
      problems.push(`${name} is installed ${copies.length} times: ${copies.join(', ')}`);
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const tsVersion = JSON.parse(
    readFileSync(join(consumerDir, 'node_modules/typescript/package.json'), 'utf8'),
  ).version;
  return `typescript ${tsVersion}`;
});

/** Paths (relative to node_modules) where package `name` is installed, at any depth. */
function listInstalled(nodeModules, name) {
  const out = [];
  const walk = (nm, depth) => {
    if (depth > 6 || !existsSync(nm)) return;
    if (existsSync(join(nm, name, 'package.json')))
      out.push(relative(join(consumerDir, 'node_modules'), join(nm, name)) || name);
    for (const e of readdirSync(nm, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const dirs = e.name.startsWith('@')
        ? readdirSync(join(nm, e.name)).map((s) => join(nm, e.name, s))
        : [join(nm, e.name)];
      for (const d of dirs) walk(join(d, 'node_modules'), depth + 1);
    }
  };
  walk(nodeModules, 0);
  return out;
}

if (!installed) finish();

// ---------------------------------------------------------------- 3. type-check

const tsc = join(consumerDir, 'node_modules', 'typescript', 'bin', 'tsc');
const typecheck = await Promise.all(
  MODES.map(async ([module, moduleResolution]) => ({
    module,
    moduleResolution,
    r: await exec(
      process.execPath,
      [tsc, '-p', `tsconfig.${module.toLowerCase()}.json`, '--pretty', 'false'],
      { cwd: consumerDir, env },
    ),
  })),
);
for (const { module, moduleResolution, r } of typecheck) {
  await check(`tsc strict, no skipLibCheck, ${module}/${moduleResolution}`, async () => {
    try {
      expectSuccess('tsc', r);
    } catch (e) {
      e.ms = r.ms;
      throw e;
    }
    return { detail: '', ms: r.ms };
  });
}

// ---------------------------------------------------------------- 4. run (ESM, then CJS)

await check('node out/consumer.mjs (ESM import)', async () => {
  if (!existsSync(join(consumerDir, 'out', 'consumer.mjs')))
    throw new Error('not compiled (the NodeNext type-check failed)');
  const r = await exec(process.execPath, ['out/consumer.mjs'], { cwd: consumerDir, env });
  expectSuccess('node out/consumer.mjs', r);
  const missing = [...tarballs.keys()].filter((n) => !r.stdout.includes(`ok ${n}:`));
  if (missing.length > 0) throw new Error(`no "ok" line for ${missing.join(', ')}\n${tail(r.stdout)}`);
  return `${tarballs.size} packages`;
});

const specifiers = packages.flatMap(({ pkg }) => entrySpecifiers(pkg));
await check(`node consumer.cjs (require() of ${specifiers.length} entry points)`, async () => {
  if (!process.features.require_module)
    throw new Error(`this Node (${process.version}) cannot require() ES modules; use Node >= 20.19`);
  const r = await exec(process.execPath, ['consumer.cjs', ...specifiers], { cwd: consumerDir, env });
  expectSuccess('node consumer.cjs', r);
  return '';
});

// ---------------------------------------------------------------- 5. the installed CLI

await check('npx kruise-ts --help', async () => {
  const r = await exec('npx', ['--no', '--', 'kruise-ts', '--help'], { cwd: consumerDir, env });
  expectSuccess('npx kruise-ts --help', r);
  if (!/Usage: kruise-ts/.test(r.stdout)) throw new Error(`unexpected help text:\n${tail(r.stdout)}`);
  return '';
});
await check('npx kruise-ts demo', async () => {
  const r = await exec('npx', ['--no', '--', 'kruise-ts', 'demo', '--quiet'], { cwd: consumerDir, env });
  expectSuccess('npx kruise-ts demo', r);
  const summary = /Summary of (\S+): (\w+)/.exec(r.stdout);
  if (summary?.[2] !== 'PASSED') throw new Error(`the demo did not pass:\n${tail(r.stdout)}`);
  return `${summary[1]}: ${summary[2]}`;
});

finish();
