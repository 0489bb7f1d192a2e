// §9.3.1 / §9.3.4: the lazy update order (buckets of rules 1–3, each drained through a heap)
// must yield exactly the stable full sort with the PreparingUpdate pods moved to the front.
import { compareActivePods } from '@kruise-ts/core';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { computePodFacts } from '../src/facts';
import { lazyUpdateOrder, sortIndexesForUpdate } from '../src/order';

/** The fact table lazyUpdateOrder reads the buckets and keys from. */
const factsOf = (pods: readonly Pod[]) =>
  computePodFacts(pods, { updateRevision: '', podsToDelete: new Set(), minReadySeconds: 0, nowMs: 0 });

const time = fc.constantFrom(undefined, '2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', 'bad');
const pod: fc.Arbitrary<Pod> = fc
  .record({
    node: fc.constantFrom(undefined, 'n1'),
    phase: fc.constantFrom(undefined, 'Pending', 'Unknown', 'Running'),
    ready: fc.boolean(),
    readySince: time,
    restarts: fc.integer({ min: 0, max: 2 }),
    created: time,
  })
  .map(
    (o): Pod => ({
      metadata: { creationTimestamp: o.created },
      spec: { nodeName: o.node, containers: [] },
      status: {
        phase: o.phase,
        conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: o.readySince }],
        containerStatuses: [{ name: 'c', restartCount: o.restarts } as never],
      },
    }),
  );

describe('§9.3 lazy update order', () => {
  it('equals the stable pairwise sort with the "first" pods moved to the front', () => {
    fc.assert(
      fc.property(fc.array(pod, { maxLength: 60 }), fc.func(fc.boolean()), (pods, firstFn) => {
        const indexes = pods.map((_, i) => i);
        const first = (i: number) => firstFn(i);
        const sorted = [...indexes].sort((i, j) => compareActivePods(pods[i]!, pods[j]!));
        const expected = [...sorted.filter(first), ...sorted.filter((i) => !first(i))];
        expect([...lazyUpdateOrder(pods, factsOf(pods), indexes, first)]).toEqual(expected);
        expect(sortIndexesForUpdate(pods, indexes)).toEqual(sorted);
      }),
    );
  });

  it('a consumer that stops early gets the prefix of the full order', () => {
    fc.assert(
      fc.property(fc.array(pod, { minLength: 1, maxLength: 60 }), fc.nat(), (pods, k) => {
        const indexes = pods.map((_, i) => i);
        const facts = factsOf(pods);
        const full = [...lazyUpdateOrder(pods, facts, indexes, () => false)];
        const taken: number[] = [];
        const stop = k % pods.length;
        for (const i of lazyUpdateOrder(pods, facts, indexes, () => false)) {
          if (taken.length === stop) break;
          taken.push(i);
        }
        expect(taken).toEqual(full.slice(0, stop));
      }),
    );
  });
});
