import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

// The scenario `kruise-ts demo` runs. It lives once in the repository (examples/scenarios/) and is
// copied into dist/scenarios/ on every build, so the packed @kruise-ts/cli carries it
// (src/commands/demo.ts looks there first).
const demoScenario = fileURLToPath(
  new URL('../../examples/scenarios/cloneset-inplace.yaml', import.meta.url),
);
const demoTarget = fileURLToPath(new URL('./dist/scenarios/cloneset-inplace.yaml', import.meta.url));

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  target: 'node20',
  async onSuccess() {
    mkdirSync(fileURLToPath(new URL('./dist/scenarios/', import.meta.url)), { recursive: true });
    copyFileSync(demoScenario, demoTarget);
  },
});
