#!/usr/bin/env node
// Runs the `kruise-ts` command from the workspace's TypeScript sources without a full build
// and without transpiling on every run: `pnpm start` and `pnpm kruise-ts <args>` go through here.
//
// The first run (or the first after a source change) bundles packages/cli/src/bin.ts with
// esbuild into node_modules/.cache/kruise-ts/, resolving the workspace packages through their
// `@kruise-ts/source` export condition (so no `dist` is needed) and leaving every third-party
// package external under its absolute path (so the bundle loads them from where pnpm put them,
// wherever the bundle lives). Each command stays its own chunk, so `demo` loads no operator code.
// Later runs only compare modification times (about 700 files) and start the bundle: a second
// `pnpm start` takes a few hundred milliseconds instead of seconds of on-the-fly transpiling.
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'node_modules', '.cache', 'kruise-ts');
const entry = join(cacheDir, 'bin.js');
const stampFile = join(cacheDir, 'stamp.json');
// Files the commands read next to their module, as the published packages carry them: the demo
// scenario (./scenarios/ beside the cli's dist) and the daemon's CRI proto (./proto/ above it).
const demoScenario = join(root, 'examples', 'scenarios', 'cloneset-inplace.yaml');
const criProto = join(root, 'packages', 'daemon', 'proto');

/** The newest modification time (ms) of the files the bundle is built from. */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'))) {
    visit(join(root, 'packages', pkg, 'src'));
    visit(join(root, 'packages', pkg, 'package.json'));
  }
  visit(join(root, 'pnpm-lock.yaml'));
  visit(demoScenario);
  visit(criProto);
  visit(fileURLToPath(import.meta.url));
  return newest;
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Bundles the CLI from the sources into the cache folder. */
async function bundle(newest) {
  const { build } = await import('esbuild');
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const thirdPartyByPath = {
    name: 'third-party-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@kruise-ts/') || args.pluginData === 'resolving') return undefined;
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: 'resolving',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        return { path: found.path, external: true };
      });
    },
  };
  await build({
    entryPoints: [join(root, 'packages', 'cli', 'src', 'bin.ts')],
    outdir: cacheDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    conditions: ['@kruise-ts/source'],
    plugins: [thirdPartyByPath],
    logLevel: 'warning',
  });
  mkdirSync(join(cacheDir, 'scenarios'), { recursive: true });
  copyFileSync(demoScenario, join(cacheDir, 'scenarios', 'cloneset-inplace.yaml'));
  cpSync(criProto, join(cacheDir, 'proto'), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ newest }));
}

const newest = newestInput();
if (readStamp()?.newest !== newest) await bundle(newest);

// The bundle's bin.js reads process.argv.slice(2), which here holds the same arguments.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(entry).href);
