// Properties of the scatter sort (docs/reference/core.md R4.6–R4.8): always a permutation of the indexes,
// and a strategy of one term that no candidate matches leaves the order alone.

import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { scatterPodsByRule, sortUpdateIndexesByScatter } from '../src/rollout/ordering/scatter';

const term = fc.record({ key: fc.constantFrom('a', 'b', 'c'), value: fc.constantFrom('', '1', '2') });
const pod = fc.option(
  fc
    .dictionary(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('', '1', '2'), { maxKeys: 3 })
    .map((l): Pod => ({ metadata: { labels: l } })),
  { freq: 8, nil: null },
);
const input = fc.array(pod, { maxLength: 40 }).chain((ps) => {
  const present = ps.flatMap((p, i) => (p ? [i] : []));
  return fc.tuple(
    fc.constant(ps),
    fc
      .shuffledSubarray(present)
      .chain((idx) => fc.shuffledSubarray(idx, { minLength: idx.length, maxLength: idx.length })),
    fc.array(term, { maxLength: 4 }),
  );
});
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('scatter sort properties', () => {
  it('R4.6: returns a permutation of indexes', () => {
    fc.assert(
      fc.property(input, ([ps, idx, s]) => {
        expect(sorted(sortUpdateIndexesByScatter(ps, idx, s))).toEqual(sorted(idx));
      }),
    );
  });
  it('R4.8: one term returns a permutation ending with the last matched candidate when it reorders', () => {
    fc.assert(
      fc.property(input, term, ([ps, idx], t) => {
        const out = scatterPodsByRule(t, ps, idx);
        expect(sorted(out)).toEqual(sorted(idx));
        const matches = (i: number) => (ps[i]?.metadata?.labels?.[t.key] ?? '') === t.value;
        const matched = idx.filter(matches);
        if (matched.length > 1 && idx.length - matched.length > 1) {
          expect(out[out.length - 1]).toBe(matched[matched.length - 1]);
          // both groups keep their relative order
          expect(out.filter(matches)).toEqual(matched);
          expect(out.filter((i) => !matches(i))).toEqual(idx.filter((i) => !matches(i)));
        } else {
          expect(out).toEqual(idx);
        }
      }),
    );
  });
});
