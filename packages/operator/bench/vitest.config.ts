// The operator's rollout benchmark as its own vitest run (it is not part of `pnpm test`): the
// workspace config, with this folder's rollout.integration.ts as the only file.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../../vitest.config';

export default mergeConfig(
  base,
  defineConfig({
    test: { include: ['packages/operator/bench/rollout.integration.ts'], reporters: ['default'] },
  }),
);
