// The availability memo (availabilityMemo.ts) changes no answer: with or without it,
// `cloneSetPodAvailable` says the same of every pod in any order of asking; and what one memo
// remembers never answers for another (a simulation owns its memo).
import { LABEL_LIFECYCLE_STATE } from '@kruise-ts/api';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { AvailabilityMemo } from '../src/availabilityMemo';
import { cloneSetPodAvailable } from '../src/invariants';

const NOW = Date.parse('2026-01-01T00:10:00Z');

const arbPod: fc.Arbitrary<Pod> = fc
  .record({
    phase: fc.constantFrom('Running', 'Pending', 'Succeeded'),
    ready: fc.constantFrom('True', 'False', undefined),
    inPlace: fc.constantFrom('True', 'False', undefined),
    lifecycle: fc.constantFrom(undefined, 'Normal', 'PreparingUpdate', 'PreparingDelete'),
    readySince: fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01T00:09:59Z'),
  })
  .map(
    (p): Pod => ({
      metadata: {
        name: 'p',
        labels: p.lifecycle === undefined ? {} : { [LABEL_LIFECYCLE_STATE]: p.lifecycle },
      },
      status: {
        phase: p.phase,
        conditions: [
          ...(p.ready === undefined
            ? []
            : [{ type: 'Ready', status: p.ready, lastTransitionTime: p.readySince }]),
          ...(p.inPlace === undefined ? [] : [{ type: 'InPlaceUpdateReady', status: p.inPlace }]),
        ],
      },
    }),
  );

describe('availability memo', () => {
  it('answers as computing each time does, in any order of asking', () => {
    fc.assert(
      fc.property(
        fc.array(arbPod, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 5, 30)), { maxLength: 40 }),
        (pods, asks) => {
          const memo = new AvailabilityMemo();
          for (const [i, minReady] of asks) {
            const pod = pods[i % pods.length];
            expect(cloneSetPodAvailable(pod, minReady, NOW, memo)).toBe(
              cloneSetPodAvailable(pod, minReady, NOW),
            );
          }
        },
      ),
    );
  });

  it('keeps the last two pods asked about, and one memo never answers for another', () => {
    const [a, b, c] = fc.sample(arbPod, { numRuns: 3, seed: 1 });
    const memo = new AvailabilityMemo();
    memo.remember(a, true);
    memo.remember(b, false);
    expect([memo.get(a), memo.get(b)]).toEqual([true, false]);
    memo.remember(c, true);
    expect([memo.get(a), memo.get(b), memo.get(c)]).toEqual([undefined, false, true]);
    expect(new AvailabilityMemo().get(c)).toBeUndefined();
  });
});
