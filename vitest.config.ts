// One vitest config for the whole monorepo: every package's tests and benchmarks.
// Workspace packages resolve to their TypeScript sources through the "@kruise-ts/source"
// export condition, so tests never need a prior build.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@kruise-ts/source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['@kruise-ts/source', 'import', 'module', 'default'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    // A property test's time grows with its run count: FC_NUM_RUNS=1000 (ten times CI's 100)
    // allows ten times the minute a test gets in CI.
    testTimeout: 60_000 * Math.max(1, Number(process.env.FC_NUM_RUNS ?? 100) / 100),
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
    benchmark: { include: ['packages/*/bench/**/*.bench.ts'] },
  },
});
