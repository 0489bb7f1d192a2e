// The reconcile cache (src/cache.ts) changes no answer: through rollouts on a simulated cluster
// (world.ts: a kubelet that starts pods on jittered timings and crashes or fails them, a hook
// owner that moves lifecycle states), every reconcile with a cache kept across the whole run
// returns exactly what a reconcile without one returns. The cluster's store hands out the same
// object for a pod nobody wrote to, as an informer does, so the cache's listings are really reused.
import { setDefaultsCloneSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { createCloneSetCache } from '../src/cache';
import { reconcileCloneSet } from '../src/reconcile';
import { HOOKS, sampleCloneSet, World, withImage } from './world';

describe('createCloneSetCache', () => {
  it.each([1, 2, 3, 4, 5])(
    'seed %i: a kept cache gives the same result as none, reconcile after reconcile',
    (seed) => {
      const cs = setDefaultsCloneSet(
        sampleCloneSet({
          replicas: 12,
          updateStrategy: {
            type: 'InPlaceIfPossible',
            maxUnavailable: '25%',
            inPlaceUpdateStrategy: { gracePeriodSeconds: seed % 2 ? 0 : 5 },
          },
          lifecycle: {
            preDelete: { finalizersHandler: [HOOKS.preDeleteFinalizer], markPodNotReady: true },
            inPlaceUpdate: {
              labelsHandler: { [HOOKS.servingLabel]: 'true' },
              markPodNotReady: seed % 2 === 0,
            },
            preNormal: { labelsHandler: { [HOOKS.warmLabel]: 'true' } },
          },
        }),
      );
      const world = new World(cs, { seed, jitter: 0.8, failureProbability: 0.05, hookOwner: true });
      const cache = createCloneSetCache();
      let reused = 0;
      for (let step = 0; step < 60; step++) {
        if (step === 15) world.updateSpec((c) => withImage(c, 'nginx:2'));
        if (step === 35) world.updateSpec((c) => withImage(c, 'nginx:3'));
        if (step === 45) world.updateSpec((c) => ({ ...c, spec: { ...c.spec, replicas: 7 } }));
        const input = deepFreeze(world.input());
        const listed = cache.listings.values().next().value;
        if (listed?.pods.some((p) => input.pods.includes(p))) reused++;
        const cached = reconcileCloneSet(input, { seed: step, cache });
        expect(cached).toEqual(reconcileCloneSet(input, { seed: step }));
        world.apply(cached.actions);
        world.tick(3_000);
      }
      expect(cache.listings.size).toBe(1);
      expect(reused).toBeGreaterThan(10);
    },
  );
});
