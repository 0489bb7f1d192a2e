// The reconcile cache (src/cache.ts) changes no answer: through rollouts with a kubelet that
// starts and crashes pods and a hook owner that moves lifecycle states, every reconcile with a
// cache kept across the whole run returns exactly what a reconcile without one returns. Pods the
// kubelet left unchanged keep their object identity, as a store or an informer hands them out,
// so the cache's listings are really reused.
import { type KubeObject, setDefaultsCloneSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { createCloneSetCache } from '../src/cache';
import { reconcileCloneSet } from '../src/reconcile';
import { HOOKS, sampleCloneSet, World, withImage } from './world';

/** Keeps the previous object of every pod whose content did not change. */
function keepUnchanged(before: readonly KubeObject[], after: readonly KubeObject[]): KubeObject[] {
  const previous = new Map(before.map((o) => [`${o.kind}/${o.metadata.uid}`, o]));
  return after.map((o) => {
    const p = previous.get(`${o.kind}/${o.metadata.uid}`);
    return p !== undefined && JSON.stringify(p) === JSON.stringify(o) ? p : o;
  });
}

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
      const world = new World(cs, {}, seed, {
        startProbability: 0.7,
        crashProbability: 0.05,
        recoverProbability: 0.5,
        hookOwner: true,
      });
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
        const before = world.objects;
        world.apply(cached.actions);
        world.kubelet();
        world.objects = keepUnchanged(before, world.objects);
        world.advance(3);
      }
      expect(cache.listings.size).toBe(1);
      expect(reused).toBeGreaterThan(10);
    },
  );
});
