import { defineConfig } from 'tsup';

export default defineConfig({
  // `testing` is the fast-check kit (a separate entry so the main bundle does not load fast-check).
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
