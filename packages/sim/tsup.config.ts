import { defineConfig } from 'tsup';

export default defineConfig({
  // `testing` is the fast-check kit (a separate entry so the main bundle does not load fast-check);
  // `browser` is the simulator without the API server's Node modules.
  entry: ['src/index.ts', 'src/testing.ts', 'src/browser.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
