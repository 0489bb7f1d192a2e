// The built packages the benchmarks measure: every import goes to a package's `dist` (what a
// user installs), never through a test runner's module transform. `pnpm build` makes them.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Imports `packages/<name>/dist/index.js`; exits with a hint when it has not been built. */
export async function dist(name) {
  const file = join(root, 'packages', name, 'dist', 'index.js');
  if (!existsSync(file)) {
    console.error(`packages/${name}/dist/index.js is missing: run \`pnpm build\` first`);
    process.exit(2);
  }
  return import(pathToFileURL(file).href);
}
