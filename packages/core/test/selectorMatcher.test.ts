// labelSelectorMatcher: a selector converted once answers every label set as matchesLabelSelector
// (default validation) does — nil matches nothing, empty everything, invalid nothing.
import { type Labels, labelSelectorMatcher, matchesLabelSelector } from '@kruise-ts/core';
import fc from 'fast-check';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { describe, expect, it } from 'vitest';

const SEED = 2112;

describe('labelSelectorMatcher', () => {
  it('a nil selector matches nothing, not even an empty label set', () => {
    for (const nil of [undefined, null]) {
      const selects = labelSelectorMatcher(nil);
      expect(selects({})).toBe(false);
      expect(selects(undefined)).toBe(false);
      expect(selects({ app: 'web' })).toBe(false);
    }
  });

  it('an empty selector matches every label set, absent labels included', () => {
    for (const empty of [{}, { matchLabels: {}, matchExpressions: [] }] as LabelSelector[]) {
      const selects = labelSelectorMatcher(empty);
      expect(selects({})).toBe(true);
      expect(selects(null)).toBe(true);
      expect(selects({ app: 'web' })).toBe(true);
    }
  });

  it('matchLabels and every operator of matchExpressions must all hold', () => {
    const selects = labelSelectorMatcher({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'zone', operator: 'In', values: ['a', 'b'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'pool', operator: 'Exists' },
      ],
    });
    expect(selects({ app: 'web', zone: 'a', pool: 'x' })).toBe(true);
    expect(selects({ app: 'web', zone: 'b', pool: 'x', tier: 'fe' })).toBe(true);
    expect(selects({ app: 'web', zone: 'a', pool: 'x', tier: 'db' })).toBe(false);
    expect(selects({ app: 'web', zone: 'c', pool: 'x' })).toBe(false);
    expect(selects({ app: 'web', zone: 'a', pool: 'x', canary: '' })).toBe(false);
    expect(selects({ app: 'web', zone: 'a' })).toBe(false);
    expect(selects({ app: 'api', zone: 'a', pool: 'x' })).toBe(false);
  });

  it('an invalid selector matches nothing and never throws', () => {
    const invalid = [
      { matchExpressions: [{ key: 'a', operator: 'Foo' }] },
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      { matchLabels: { 'bad key!': 'x' } },
      { matchLabels: { a: 'not valid!' } },
    ] as LabelSelector[];
    for (const s of invalid) {
      const selects = labelSelectorMatcher(s);
      expect(selects({}), JSON.stringify(s)).toBe(false);
      expect(selects({ a: 'x', 'bad key!': 'x' }), JSON.stringify(s)).toBe(false);
    }
  });

  it('the predicate keeps nothing between calls and does not read the selector again', () => {
    const selector: LabelSelector = { matchLabels: { app: 'web' } };
    const selects = labelSelectorMatcher(selector);
    selector.matchLabels = { app: 'db' };
    expect(selects({ app: 'web' })).toBe(true);
    expect(selects({ app: 'db' })).toBe(false);
    expect(selects({ app: 'web' })).toBe(true);
  });

  const keyArb = fc.constantFrom('app', 'tier', 'bad key!', 'example.com/role');
  const valueArb = fc.constantFrom('web', 'db', '', 'not valid!');
  const selectorArb: fc.Arbitrary<LabelSelector | null | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.record(
      {
        matchLabels: fc.dictionary(keyArb, valueArb, { maxKeys: 2 }),
        matchExpressions: fc.array(
          fc.record(
            {
              key: keyArb,
              operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'Foo'),
              values: fc.array(valueArb, { maxLength: 2 }),
            },
            { requiredKeys: ['key', 'operator'] },
          ),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    ),
  );
  const labelsArb: fc.Arbitrary<Labels> = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.dictionary(keyArb, valueArb, { maxKeys: 3 }),
  );

  it('answers every label set as matchesLabelSelector does', () => {
    fc.assert(
      fc.property(selectorArb, fc.array(labelsArb, { maxLength: 6 }), (selector, labelSets) => {
        const selects = labelSelectorMatcher(selector);
        for (const labels of labelSets) expect(selects(labels)).toBe(matchesLabelSelector(selector, labels));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
