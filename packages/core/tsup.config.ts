import { defineConfig } from 'tsup';

export default defineConfig({
  // `apply` (the in-memory API server), `expectations` and `testing` are entry points of their own
  // for the shells and tests that use them (package.json "exports").
  entry: {
    index: 'src/index.ts',
    apply: 'src/apply/index.ts',
    expectations: 'src/expectations.ts',
    testing: 'src/testing.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
