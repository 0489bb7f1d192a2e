// The pure packages and the simulator's core run in a browser: api, core, every controller package
// and `@kruise-ts/sim/browser` (simulation, scenario reader, reports) are bundled with esbuild for
// the browser platform, and the test fails on any import of a Node built-in (`node:crypto`, `fs`,
// ...), naming the file that imports it. The API server, operator, daemon and CLI stay Node-only and
// are not bundled here. The playground (packages/playground) is built from the same entry.
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The browser-clean entries: package name → source entry. */
const ENTRIES: Record<string, string> = {
  api: 'packages/api/src/index.ts',
  core: 'packages/core/src/index.ts',
  cloneset: 'packages/cloneset/src/index.ts',
  statefulset: 'packages/statefulset/src/index.ts',
  daemonset: 'packages/daemonset/src/index.ts',
  sidecarset: 'packages/sidecarset/src/index.ts',
  uniteddeployment: 'packages/uniteddeployment/src/index.ts',
  nodeops: 'packages/nodeops/src/index.ts',
  'sim/browser': 'packages/sim/src/browser.ts',
};

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** `fs`, `node:fs`, `fs/promises`, `node:test` (only spelled with the prefix): a Node built-in. */
function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);
}

/** Bundles `entryPoints` for the browser; answers the Node built-in imports met, as `importer -> specifier`. */
async function nodeImports(entryPoints: Record<string, string>): Promise<string[]> {
  const found: string[] = [];
  const catchBuiltins: Plugin = {
    name: 'node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!isNodeBuiltin(args.path)) return undefined;
        found.push(`${args.importer.replace(root, '')} -> ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    absWorkingDir: root,
    entryPoints,
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@kruise-ts/source'],
    logLevel: 'silent',
    plugins: [catchBuiltins],
  });
  return [...new Set(found)].sort();
}

describe('browser-clean packages', () => {
  it('bundle for the browser without any Node built-in', async () => {
    expect(await nodeImports(ENTRIES)).toEqual([]);
  });

  it('would name a Node built-in import (the check can fail)', async () => {
    // The API server's entry is Node-only on purpose: it must be caught.
    const found = await nodeImports({ apiserver: 'packages/sim/src/apiserver/index.ts' });
    expect(found).toContain('packages/sim/src/apiserver/index.ts -> node:http');
    expect(found.some((f) => f.endsWith('-> node:crypto'))).toBe(true);
  });

  it('recognises the spellings of built-ins', () => {
    expect(['fs', 'node:fs', 'fs/promises', 'node:test', 'crypto', 'path'].every(isNodeBuiltin)).toBe(true);
    expect(['yaml', '@kruise-ts/core', 'immer', './fs'].some(isNodeBuiltin)).toBe(false);
  });

  it("@kruise-ts/sim/browser has the main entry's names, less the API server's Node-only ones", async () => {
    const main = await import('../packages/sim/src/index');
    const browser = await import('../packages/sim/src/browser');
    const apiserver = await import('../packages/sim/src/apiserver/index');
    // A name added to src/index.ts belongs in src/browser.ts too, unless the API server owns it.
    const missing = Object.keys(main).filter((k) => !(k in browser) && !(k in apiserver));
    expect(missing, 'exported by src/index.ts but not by src/browser.ts').toEqual([]);
    expect(Object.keys(browser).filter((k) => !(k in main))).toEqual([]);
    // What the browser entry leaves out is exactly what needs Node.
    expect(
      Object.keys(main)
        .filter((k) => !(k in browser))
        .sort(),
    ).toEqual([
      'ConversionRunner',
      'IN_PROCESS_CONVERTERS',
      'PUBLIC_PATHS',
      'SERVER_VERSION',
      'evalJsonPath',
      'isLoopbackAddress',
      'isLoopbackHostHeader',
      'kubeconfigFor',
      'rewriteApiVersion',
      'startApiServer',
    ]);
  });
});
