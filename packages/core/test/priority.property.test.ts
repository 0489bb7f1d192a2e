// Properties of the priority sort (docs/reference/core.md R4.5): a permutation of the indexes, a stable
// total order (re-sorting its own output changes nothing) independent of the input order.
import type { UpdatePriorityStrategy } from '@kruise-ts/api';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { sortUpdateIndexesByPriority } from '../src/rollout/ordering/priority';

const labelKey = fc.constantFrom('a', 'b', 'c');
const labelValue = fc.constantFrom('', '1', 'x-2', 'o-10', 'v3', '9223372036854775808');
const labels = fc.dictionary(labelKey, labelValue, { maxKeys: 3 });
const pods = fc.array(
  labels.map((l): Pod => ({ metadata: { labels: l } })),
  { minLength: 1, maxLength: 12 },
);
const operator = fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'Bogus');
const weightTerm = fc.record({
  weight: fc.integer({ min: 0, max: 100 }),
  matchSelector: fc.record(
    {
      matchLabels: fc.dictionary(labelKey, labelValue, { maxKeys: 2 }),
      matchExpressions: fc.array(
        fc.record({ key: labelKey, operator, values: fc.array(labelValue, { maxLength: 2 }) }),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  ),
});
const strategy: fc.Arbitrary<UpdatePriorityStrategy> = fc.oneof(
  fc.record({ weightPriority: fc.array(weightTerm, { maxLength: 3 }) }),
  fc.record({ orderPriority: fc.array(fc.record({ orderedKey: labelKey }), { maxLength: 3 }) }),
);
/** Pods plus a subset of their indexes in some order. */
const input = pods.chain((ps) =>
  fc.tuple(
    fc.constant(ps),
    fc
      .shuffledSubarray(
        ps.map((_, i) => i),
        { minLength: 0 },
      )
      .chain((idx) => fc.shuffledSubarray(idx, { minLength: idx.length, maxLength: idx.length })),
    strategy,
  ),
);

describe('priority sort properties', () => {
  it('R4.5: returns a permutation of indexes', () => {
    fc.assert(
      fc.property(input, ([ps, idx, s]) => {
        const out = sortUpdateIndexesByPriority(ps, idx, s);
        expect([...out].sort((a, b) => a - b)).toEqual([...idx].sort((a, b) => a - b));
      }),
    );
  });
  it('R4.5: re-applying the sort to its own output gives the same order', () => {
    fc.assert(
      fc.property(input, ([ps, idx, s]) => {
        const once = sortUpdateIndexesByPriority(ps, idx, s);
        expect(sortUpdateIndexesByPriority(ps, once, s)).toEqual(once);
      }),
    );
  });
  it('R4.5: with at least one term the order does not depend on the input order', () => {
    fc.assert(
      fc.property(input, ([ps, idx, s]) => {
        const hasTerms = (s.weightPriority?.length ?? 0) + (s.orderPriority?.length ?? 0) > 0;
        fc.pre(hasTerms);
        const reversed = [...idx].reverse();
        expect(sortUpdateIndexesByPriority(ps, reversed, s)).toEqual(sortUpdateIndexesByPriority(ps, idx, s));
      }),
    );
  });
});
