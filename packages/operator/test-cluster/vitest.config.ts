// The end-to-end suite against a real kube-apiserver (`pnpm test:cluster`): one control plane for
// the whole run (globalSetup.ts), test files one after another because each starts its own
// operator, which registers the cluster-wide webhook configurations.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@kruise-ts/source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['@kruise-ts/source', 'import', 'module', 'default'] } },
  test: {
    root: new URL('../../..', import.meta.url).pathname,
    include: ['packages/operator/test-cluster/**/*.test.ts'],
    globalSetup: ['packages/operator/test-cluster/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
