// Scatter update ordering: docs/reference/core.md §4.2 (R4.6–R4.8) and upstream scatter_sort_test.go
// cases from both folders (core/updatesort_scatter.json, cloneset/update_scatter.json).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  f32Ratio,
  getScatterTerms,
  roundHalfAwayFromZero,
  scatterGroups,
  scatterPodsByRule,
  sortUpdateIndexesByScatter,
} from '../src/rollout/ordering/scatter';
import { deepFreeze } from '../src/testing';

function loadCases(area: string, file: string) {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/${area}/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

/** One `[name, case]` row per upstream case, so `it.each` shows every case by name. */
function rows(list: any[], name: (c: any) => string): Array<[string, any]> {
  return list.map((c) => [name(c), c]);
}

/** core/ pods are `{labels}` or null; cloneset/ podLabels are label maps or null. */
const toPods = (labels: Array<Record<string, string> | null>): Array<Pod | null> =>
  deepFreeze(labels.map((l) => (l === null ? null : { metadata: { labels: l } })));

describe('upstream core/updatesort_scatter.json', () => {
  const file = loadCases('core', 'updatesort_scatter.json');
  it.each(rows(file.cases, (c) => c.id))('%s', (_id, c: any) => {
    const pods = toPods(c.input.pods.map((p: any) => (p === null ? null : p.labels)));
    const indexes = deepFreeze(c.input.indexes);
    switch (c.function) {
      case 'getScatterTerms':
        expect(getScatterTerms(deepFreeze(c.input.strategy), pods, indexes)).toEqual(c.expected.terms);
        break;
      case 'scatterPodsByRule':
        expect(scatterPodsByRule(deepFreeze(c.input.term), pods, indexes)).toEqual(c.expected.indexes);
        break;
      case 'scatterSort':
        expect(sortUpdateIndexesByScatter(pods, indexes, deepFreeze(c.input.strategy))).toEqual(
          c.expected.indexes,
        );
        break;
      default:
        throw new Error(`unknown function ${c.function}`);
    }
  });
});

describe('upstream cloneset/update_scatter.json', () => {
  const file = loadCases('cloneset', 'update_scatter.json');
  it.each(rows(file.cases, (c) => `${c.id} ${c.goCase}`))('%s', (_id, c: any) => {
    const pods = toPods(c.podLabels);
    const indexes = deepFreeze(c.waitIndexes);
    const strategy = deepFreeze(c.scatterStrategy);
    if (c.kind === 'scatterTermOrder') {
      expect(getScatterTerms(strategy, pods, indexes)).toEqual(c.expected.terms);
    } else {
      expect(sortUpdateIndexesByScatter(pods, indexes, strategy)).toEqual(c.expected.sortedIndexes);
    }
  });
});

describe('upstream sidecarset/updatesort_shared.json (scatter, shared helper)', () => {
  const file = loadCases('sidecarset', 'updatesort_shared.json');
  const cases = file.cases.filter((c: any) => c.function !== 'priorityCompare');
  it.each(rows(cases, (c) => c.id))('%s', (_id, c: any) => {
    const pods = toPods(c.input.podLabels);
    const indexes = deepFreeze(c.input.indexes);
    if (c.function === 'scatterGetTerms') {
      expect(getScatterTerms(deepFreeze(c.input.scatterStrategy), pods, indexes)).toEqual(c.expected.terms);
    } else if (c.function === 'scatterPodsByRule') {
      expect(scatterPodsByRule(deepFreeze(c.input.term), pods, indexes)).toEqual(c.expected.indexes);
    } else {
      expect(sortUpdateIndexesByScatter(pods, indexes, deepFreeze(c.input.scatterStrategy))).toEqual(
        c.expected.indexes,
      );
    }
  });
});

describe('R4.8 scatter one term', () => {
  it('R4.8 worked example: labels ["","","","","A","A"], indexes 0..5 → 4, 0,1,2,3, 5', () => {
    const pods = toPods([{}, {}, {}, {}, { labelA: 'A' }, { labelA: 'A' }]);
    expect(scatterPodsByRule({ key: 'labelA', value: 'A' }, pods, [0, 1, 2, 3, 4, 5])).toEqual([
      4, 0, 1, 2, 3, 5,
    ]);
  });
  it('R4.8 step 1: fewer than two matched or unmatched → unchanged', () => {
    const pods = toPods([{ k: 'v' }, {}, {}, {}]);
    expect(scatterPodsByRule({ key: 'k', value: 'v' }, pods, [3, 0, 2, 1])).toEqual([3, 0, 2, 1]);
    const pods2 = toPods([{ k: 'v' }, { k: 'v' }, {}]);
    expect(scatterPodsByRule({ key: 'k', value: 'v' }, pods2, [1, 2, 0])).toEqual([1, 2, 0]);
  });
  it('R4.8 step 1: a missing label matches the value ""', () => {
    // value "": pods 0, 1 (no label) match; pods 2, 3, 4 carry k=x and do not.
    const pods = toPods([{}, {}, { k: 'x' }, { k: 'x' }, { k: 'x' }]);
    // matched [0, 1] → tail 1; totals tm 1, tu 3; U = g(1, 3) = {1, 1, 3}; 3/1 ≥ 3/1 → 0, 2 3 4, 1.
    expect(scatterPodsByRule({ key: 'k', value: '' }, pods, [0, 1, 2, 3, 4])).toEqual([0, 2, 3, 4, 1]);
  });
  it('R4.8 steps 2 and 4: totals over all pods give a remainder (TestSort/continuous sort 1)', () => {
    // pods: 4 unlabelled, 3 labelled (4, 5, 6); candidates 0..5 (pod 6 is not a candidate).
    // matched [4, 5] → tail 5, matched [4]; totals tm 3-1 = 2, tu 4; candidates um 1, uu 4.
    // f32(4)/f32(2) = 2 < f32(4)/f32(1) = 4 → T = g(2, 4) = {2, 1, 2}; num = min(1/1, 4/2) = 1;
    // remainder = 4 - 1*2 = 2 → 0 1 | 4 | 2 3 | 5.
    const pods = toPods([{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }, { labelA: 'AAA' }]);
    expect(scatterPodsByRule({ key: 'labelA', value: 'AAA' }, pods, [0, 1, 2, 3, 4, 5])).toEqual([
      0, 1, 4, 2, 3, 5,
    ]);
  });
  it('R4.8 step 2: null pods are skipped in the totals', () => {
    // As "continuous sort 1" plus two null entries: if they counted as unmatched, tu would be 6,
    // T = g(2, 6) = {2, 1, 3}, remainder 1 and the output 0 | 4 | 1 2 3 | 5. Skipped, nothing changes.
    const pods = toPods([
      {},
      {},
      {},
      {},
      { labelA: 'AAA' },
      { labelA: 'AAA' },
      { labelA: 'AAA' },
      null,
      null,
    ]);
    expect(scatterPodsByRule({ key: 'labelA', value: 'AAA' }, pods, [0, 1, 2, 3, 4, 5])).toEqual([
      0, 1, 4, 2, 3, 5,
    ]);
  });
  it('R4.8 step 4: g(m, u) with round-half-away-from-zero: g(2, 5) = {2, 1, 3}, g(3, 5) = {3, 1, 2}', () => {
    expect(scatterGroups(2, 5)).toEqual({ num: 2, mSize: 1, uSize: 3 });
    expect(scatterGroups(3, 5)).toEqual({ num: 3, mSize: 1, uSize: 2 });
    expect(scatterGroups(4, 1)).toEqual({ num: 1, mSize: 4, uSize: 1 });
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
    expect(roundHalfAwayFromZero(1.4999)).toBe(1);
    expect(roundHalfAwayFromZero(0.49999999999999994)).toBe(0);
  });
  it('R4.8 step 4: the density comparison is in float32 (16777223/2796204 vs 6/1 compares equal)', () => {
    // In float64 16777223/2796204 = 5.99999964… < 6, but float32(16777223) = 16777224 and the
    // single-precision quotient rounds to exactly 6, so the "≥" test holds.
    expect(16777223 / 2796204 >= 6 / 1).toBe(false);
    expect(f32Ratio(16777223, 2796204) >= f32Ratio(6, 1)).toBe(true);
    expect(f32Ratio(1, 3)).toBe(Math.fround(1 / 3));
  });
  it('R4.8 step 5: groups take up to mSize matched then up to uSize unmatched', () => {
    // 3 matched + 6 unmatched candidates, all pods are candidates: tail = last matched;
    // tm 2, tu 6; um 2, uu 6 → 6/2 ≥ 6/2 → U = g(2, 6) = {2, 1, 3}: m u u u m u u u tail.
    const pods = toPods([{}, {}, {}, {}, {}, {}, { k: 'v' }, { k: 'v' }, { k: 'v' }]);
    expect(scatterPodsByRule({ key: 'k', value: 'v' }, pods, [0, 1, 2, 3, 4, 5, 6, 7, 8])).toEqual([
      6, 0, 1, 2, 7, 3, 4, 5, 8,
    ]);
  });
});

describe('R4.6 / R4.7 scatter sort and terms', () => {
  it('R4.6: an empty strategy or at most one index → unchanged (new array)', () => {
    const pods = toPods([{ k: 'v' }, {}, { k: 'v' }, {}]);
    const idx = deepFreeze([3, 2, 1, 0]);
    expect(sortUpdateIndexesByScatter(pods, idx, [])).toEqual([3, 2, 1, 0]);
    expect(sortUpdateIndexesByScatter(pods, idx, undefined)).toEqual([3, 2, 1, 0]);
    expect(sortUpdateIndexesByScatter(pods, [2], [{ key: 'k', value: 'v' }])).toEqual([2]);
    expect(sortUpdateIndexesByScatter(pods, idx, [])).not.toBe(idx);
  });
  it('R4.7: one strategy term is used as is, even if no pod matches', () => {
    const pods = toPods([{}, {}]);
    expect(getScatterTerms([{ key: 'z', value: 'q' }], pods, [0, 1])).toEqual([{ key: 'z', value: 'q' }]);
  });
  it('R4.7: several terms: drop zero counts, sort by count descending, ties in strategy order', () => {
    const pods = toPods([{ a: '1' }, { b: '1' }, { b: '1' }, { c: '1' }, {}]);
    const strategy = [
      { key: 'a', value: '1' },
      { key: 'x', value: '1' },
      { key: 'c', value: '1' },
      { key: 'b', value: '1' },
    ];
    expect(getScatterTerms(strategy, pods, [0, 1, 2, 3, 4])).toEqual([
      { key: 'b', value: '1' },
      { key: 'a', value: '1' },
      { key: 'c', value: '1' },
    ]);
  });
  it('R4.7: counts need the key present (value "" does not match a missing label here)', () => {
    const pods = toPods([{}, { k: '' }, { j: 'x' }, { j: 'x' }]);
    const terms = getScatterTerms(
      [
        { key: 'k', value: '' },
        { key: 'j', value: 'x' },
      ],
      pods,
      [0, 1, 2, 3],
    );
    expect(terms).toEqual([
      { key: 'j', value: 'x' },
      { key: 'k', value: '' },
    ]);
  });
  it('R4.7: duplicated terms are merged and counted twice', () => {
    const pods = toPods([{ a: '1' }, { b: '1' }, { b: '1' }, {}]);
    const strategy = [
      { key: 'a', value: '1' },
      { key: 'b', value: '1' },
      { key: 'a', value: '1' },
    ];
    // a: 1 + 1 = 2, b: 2 → tie, strategy order (a first).
    expect(getScatterTerms(strategy, pods, [0, 1, 2, 3])).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: '1' },
    ]);
    const strategy3 = [...strategy, { key: 'a', value: '1' }];
    expect(getScatterTerms(strategy3, pods, [0, 1, 2, 3])[0]).toEqual({ key: 'a', value: '1' });
  });
  it('R4.7: counts only the indexed pods', () => {
    const pods = toPods([{ a: '1' }, { a: '1' }, { a: '1' }, { b: '1' }, { b: '1' }]);
    const strategy = [
      { key: 'a', value: '1' },
      { key: 'b', value: '1' },
    ];
    expect(getScatterTerms(strategy, pods, [0, 3, 4])).toEqual([
      { key: 'b', value: '1' },
      { key: 'a', value: '1' },
    ]);
  });
});
