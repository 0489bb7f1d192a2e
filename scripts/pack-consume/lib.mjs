// What scripts/pack-consume/run.mjs and scripts/doctest/run.mjs share: the workspace's public
// packages, the check that they are built, `pnpm pack` of all of them, the workspace's overrides
// as npm overrides, and the environment and runner for tools in a project outside the workspace.
// Plain Node ESM, no dependencies.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The workspace-only export condition (points at ./src, which is not packed). */
export const SOURCE_CONDITION = '@kruise-ts/source';

const isWindows = process.platform === 'win32';

/**
 * Runs a command; resolves with its exit code and output (never rejects).
 * `opts`: `cwd` (default the repository root), `env` (default this process's).
 */
export function exec(cmd, cmdArgs, opts = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, cmdArgs, {
      cwd: opts.cwd ?? root,
      env: opts.env ?? process.env,
      shell: isWindows, // npx/npm are .cmd files there
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', (e) =>
      resolve({ code: -1, stdout, stderr: `${stderr}${e.message}`, ms: performance.now() - t0 }),
    );
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - t0 }));
  });
}

/** The environment for tools run in a consumer project: without what `pnpm run` exports about this workspace. */
export function consumerEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^npm_(package_|lifecycle_|config_user_agent$|execpath$|node_execpath$|command$)/i.test(k))
      delete env[k];
    if (k === 'INIT_CWD' || k.startsWith('PNPM_')) delete env[k];
  }
  env.NODE_OPTIONS = ''; // no --conditions=@kruise-ts/source or loaders from the caller
  return env;
}

/** The file targets of an exports map (any nesting), without the workspace-only condition. */
export function exportTargets(exportsField) {
  const out = [];
  const walk = (v) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, sub] of Object.entries(v)) if (k !== SOURCE_CONDITION) walk(sub);
    }
  };
  walk(exportsField);
  return out;
}

/** The root package.json. */
export function rootPackage() {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
}

/** The public packages under packages/, sorted by name: `{ dir, pkg }` with the parsed package.json. */
export function workspacePackages() {
  return readdirSync(join(root, 'packages'))
    .map((d) => join(root, 'packages', d))
    .filter((d) => existsSync(join(d, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => !pkg.private)
    .sort((a, b) => a.pkg.name.localeCompare(b.pkg.name));
}

/** `name: path` of every file a package.json points at (exports, main, types, bin) that is not built. */
export function unbuiltFiles(packages) {
  const unbuilt = [];
  for (const { dir, pkg } of packages) {
    const targets = [
      ...exportTargets(pkg.exports ?? {}),
      pkg.main,
      pkg.types,
      ...Object.values(pkg.bin ?? {}),
    ];
    for (const t of targets) if (t && !existsSync(join(dir, t))) unbuilt.push(`${pkg.name}: ${t}`);
  }
  return unbuilt;
}

/** The message for `unbuiltFiles`, naming the first few and the fix. */
export function unbuiltMessage(script, unbuilt) {
  return `${script}: the packages are not built (missing ${unbuilt.slice(0, 5).join(', ')}${unbuilt.length > 5 ? ', ...' : ''}).\nRun \`pnpm build\` first.`;
}

/**
 * The pnpm to pack with, as `[command, args]`: the one running this script (`pnpm run ...`),
 * else `npx -y pnpm@<version of the root packageManager field>`.
 */
export function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/i.test(basename(execPath))) {
    // A script (pnpm.cjs) runs under this Node; pnpm 12 may also be a native executable.
    return /\.[cm]?js$/.test(execPath) ? [process.execPath, [execPath]] : [execPath, []];
  }
  const version = /^pnpm@(.+)$/.exec(rootPackage().packageManager ?? '')?.[1] ?? 'latest';
  return ['npx', ['-y', `pnpm@${version}`]];
}

/** The tarball file name `pnpm pack` gives a package: `@kruise-ts/api` 0.1.0 → `kruise-ts-api-0.1.0.tgz`. */
export function tarballName(pkg) {
  return `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
}

/**
 * `pnpm pack`s every package into `tarDir`, in parallel. Returns a map from package name to
 * tarball path; throws with pnpm's output when a pack fails or a tarball is missing.
 */
export async function packAll(packages, tarDir, pnpm = pnpmCommand()) {
  const runs = await Promise.all(
    packages.map(async ({ dir, pkg }) => ({
      pkg,
      r: await exec(pnpm[0], [...pnpm[1], 'pack', '--pack-destination', tarDir], { cwd: dir }),
    })),
  );
  for (const { pkg, r } of runs) expectSuccess(`pnpm pack of ${pkg.name}`, r);
  const files = readdirSync(tarDir);
  const tarballs = new Map();
  for (const { pkg } of packages) {
    const expected = tarballName(pkg);
    if (!files.includes(expected)) throw new Error(`no ${expected} in ${tarDir} (found ${files.join(', ')})`);
    tarballs.set(pkg.name, join(tarDir, expected));
  }
  return tarballs;
}

/** The last `lines` lines of a text. */
export const tail = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** Throws with the command's output when it did not exit 0. */
export function expectSuccess(what, r) {
  if (r.code !== 0) throw new Error(`${what} exited with ${r.code}\n${tail(`${r.stdout}\n${r.stderr}`)}`);
}

/**
 * The `overrides:` map of pnpm-workspace.yaml (flat `name: range` lines; no YAML parser needed).
 * A consumer needs the same ones: undici ^7, since @kubernetes/client-node 2 (operator, daemon)
 * depends on undici 8, which needs Node >= 22.19 and fails at import on Node 20.
 */
export function workspaceOverrides() {
  const out = {};
  const lines = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^overrides:\s*$/.test(l));
  if (start < 0) return out;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const m = /^\s+(['"]?)([^'":]+)\1:\s*(['"]?)([^'"#]+?)\3\s*(?:#.*)?$/.exec(line);
    if (m) out[m[2]] = m[4];
  }
  return out;
}

/**
 * The package.json of a consumer project: every tarball as a `file:` dependency, and also as an
 * npm override, so the packages' dependencies on each other (e.g. "@kruise-ts/api": "0.1.0")
 * resolve to the tarballs instead of the registry; plus the workspace's overrides.
 */
export function consumerManifest(name, tarballs, devDependencies) {
  const fileSpecs = Object.fromEntries([...tarballs].map(([pkg, path]) => [pkg, `file:${path}`]));
  return {
    name,
    version: '0.0.0',
    private: true,
    type: 'module',
    dependencies: fileSpecs,
    devDependencies,
    overrides: { ...workspaceOverrides(), ...fileSpecs },
  };
}
