// reconcileStatefulSet at 1k, 10k and 100k pods next to the single-pass baseline of
// fixture.ts (per-pod reads every reconcile needs). Run: `npx vitest bench --run packages/statefulset`.
// Expect the reconcile within 20x of the baseline at every size and near-linear growth
// (today's figures: packages/statefulset/README.md, Performance).
import { bench, describe } from 'vitest';
import { reconcileStatefulSet } from '../src/reconcile';
import { midRollout, plainPass } from './fixture';

for (const n of [1_000, 10_000, 100_000]) {
  describe(`${n} pods, mid-rollout (Parallel, InPlaceIfPossible, maxUnavailable 10%)`, () => {
    const f = midRollout(n);
    const options = n >= 100_000 ? { iterations: 3, warmupIterations: 1, time: 0 } : { time: 1000 };
    bench(
      'reconcileStatefulSet',
      () => {
        reconcileStatefulSet(f);
      },
      options,
    );
    bench(
      'baseline: one plain pass',
      () => {
        plainPass(f);
      },
      options,
    );
  });
}
