// labelSelectorMatcher and matchesLabelSelector, one rule (matchesLabelSelector asks the matcher):
// nil matches nothing, empty everything, invalid nothing; checked against a reference model built
// from the exported conversion and requirement checks, with and without validation.
import {
  type LabelRequirement,
  type Labels,
  labelSelectorAsRequirements,
  labelSelectorMatcher,
  matchesLabelSelector,
  requirementMatches,
} from '@kruise-ts/core';
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

  /** The rule spelled out: requirements (checked, or as written), every one must hold; errors select nothing. */
  function reference(selector: LabelSelector | null | undefined, labels: Labels, validate: boolean): boolean {
    if (selector === null || selector === undefined) return false;
    const ops: Record<string, string> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };
    let reqs: LabelRequirement[];
    if (validate) {
      try {
        reqs = labelSelectorAsRequirements(selector) ?? [];
      } catch {
        return false;
      }
    } else {
      reqs = Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({
        key,
        operator: '=',
        values: [v],
      }));
      for (const e of selector.matchExpressions ?? []) {
        if (!Object.hasOwn(ops, e.operator)) return false;
        reqs.push({ key: e.key, operator: ops[e.operator], values: e.values ?? [] } as LabelRequirement);
      }
    }
    return reqs.every((r) => requirementMatches(r, labels));
  }

  it('the matcher and matchesLabelSelector answer every label set as the reference does, validated or not', () => {
    fc.assert(
      fc.property(
        selectorArb,
        fc.array(labelsArb, { maxLength: 6 }),
        fc.boolean(),
        (selector, labelSets, validate) => {
          const selects = labelSelectorMatcher(selector, { validate });
          for (const labels of labelSets) {
            const want = reference(selector, labels, validate);
            expect(selects(labels)).toBe(want);
            expect(matchesLabelSelector(selector, labels, { validate })).toBe(want);
          }
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('validate: false leaves keys and values unchecked; an unknown operator still matches nothing', () => {
    const badKey: LabelSelector = { matchLabels: { 'bad key!': 'not valid!' } };
    expect(labelSelectorMatcher(badKey)({ 'bad key!': 'not valid!' })).toBe(false);
    expect(labelSelectorMatcher(badKey, { validate: false })({ 'bad key!': 'not valid!' })).toBe(true);
    const unknownOp: LabelSelector = { matchExpressions: [{ key: 'a', operator: 'Foo' }] };
    expect(labelSelectorMatcher(unknownOp, { validate: false })({ a: 'x' })).toBe(false);
  });
});
