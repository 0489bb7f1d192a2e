// vitest bench (`npx vitest bench --run packages/sidecarset`): injectSidecars over 10 000 pods
// with 5 matching SidecarSets (target: at least 50k pods/s), and reconcileSidecarSet at
// 10 000 pods next to the single-pass baseline (within 20x). bench/measure.ts prints the
// pods/s and the ratio from CPU time.
import { bench, describe } from 'vitest';
import { injectSidecars, reconcileSidecarSet } from '../src/index';
import { appPods, fiveSidecarSets, reconcileInput, singlePassBaseline } from './fixture';

describe('injectSidecars, 10 000 pods × 5 matching SidecarSets', () => {
  const pods = appPods(10_000);
  const sets = fiveSidecarSets();
  bench('injectSidecars (10k pods)', () => {
    for (const p of pods) injectSidecars(p, sets, { now: '2025-01-01T00:00:00Z' });
  });
});

describe('reconcileSidecarSet, 10 000 matched pods, image rollout (maxUnavailable 10%)', () => {
  const input = reconcileInput(10_000);
  bench('reconcileSidecarSet', () => {
    reconcileSidecarSet(input);
  });
  bench('single-pass baseline', () => {
    singlePassBaseline(input);
  });
});
