// Update priority ordering: docs/reference/core.md §4.1 (R4.2–R4.5), upstream TestCompare from both
// case folders (core/updatesort_priority.json and cloneset/update_priority.json).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { UpdatePriorityStrategy } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  comparePriority,
  getPodPriorityOrder,
  getPodPriorityWeight,
  parsePriorityOrderValue,
  priorityTermSelectorMatches,
  sortUpdateIndexesByPriority,
} from '../src/rollout/ordering/priority';
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

const podWith = (labels?: Record<string, string>): Pod => ({ metadata: { labels } });

/** Go's `compare(labelsI, labelsJ, defaultVal)`: the tie returns defaultVal. */
function goLess(
  strategy: UpdatePriorityStrategy,
  i: Record<string, string>,
  j: Record<string, string>,
  dflt: boolean,
) {
  const c = comparePriority(strategy, i, j);
  return c === 0 ? dflt : c < 0;
}

describe('upstream core/updatesort_priority.json (TestCompare)', () => {
  const file = loadCases('core', 'updatesort_priority.json');
  it.each(rows(file.cases, (c) => c.id))('%s', (_id, c: any) => {
    const { strategy, labelsI, labelsJ, defaultValue } = deepFreeze(c.input);
    expect(goLess(strategy, labelsI, labelsJ, defaultValue)).toBe(c.expected.less);
  });
});

describe('upstream cloneset/update_priority.json (TestCompare, tie = true)', () => {
  const file = loadCases('cloneset', 'update_priority.json');
  it.each(rows(file.cases, (c) => `${c.id} ${c.goCase}`))('%s', (_id, c: any) => {
    const cmp = comparePriority(deepFreeze(c.priorityStrategy), c.podILabels, c.podJLabels);
    expect(cmp <= 0).toBe(c.expected.iBeforeJOrTie);
    const relation = cmp < 0 ? 'I_first' : cmp > 0 ? 'J_first' : 'tie';
    expect(relation).toBe(c.derivedNotAsserted.relation);
  });
});

describe('upstream sidecarset/updatesort_shared.json (priorityCompare, shared helper)', () => {
  const file = loadCases('sidecarset', 'updatesort_shared.json');
  const cases = file.cases.filter((c: any) => c.function === 'priorityCompare');
  it.each(rows(cases, (c) => c.id))('%s', (_id, c: any) => {
    const { priorityStrategy, podILabels, podJLabels, defaultValue } = deepFreeze(c.input);
    expect(goLess(priorityStrategy, podILabels, podJLabels, defaultValue)).toBe(c.expected.result);
  });
});

describe('R4.2 weight', () => {
  const strategy = deepFreeze<UpdatePriorityStrategy>({
    weightPriority: [
      { weight: 20, matchSelector: { matchLabels: { key1: 'foo' } } },
      { weight: 10, matchSelector: { matchLabels: { key2: 'bar' } } },
      { weight: 5, matchSelector: { matchLabels: { key3: 'baz' } } },
    ],
  });
  it('R4.2: weight is the sum over matching terms (10 + 5 = 15; 20)', () => {
    expect(getPodPriorityWeight(strategy, { key2: 'bar', key3: 'baz' })).toBe(15);
    expect(getPodPriorityWeight(strategy, { key1: 'foo' })).toBe(20);
    expect(getPodPriorityWeight(strategy, {})).toBe(0);
    expect(getPodPriorityWeight(strategy, undefined)).toBe(0);
  });
  it('R4.2: an empty selector matches everything', () => {
    expect(priorityTermSelectorMatches({}, {})).toBe(true);
    expect(getPodPriorityWeight({ weightPriority: [{ weight: 7, matchSelector: {} }] }, { a: 'b' })).toBe(7);
  });
  it('R4.2: matchExpressions In / NotIn (true when key absent) / Exists / DoesNotExist', () => {
    const sel = (operator: string, values?: string[]) => ({
      matchExpressions: [{ key: 'zone', operator, values }],
    });
    expect(priorityTermSelectorMatches(sel('In', ['a', 'b']), { zone: 'b' })).toBe(true);
    expect(priorityTermSelectorMatches(sel('In', ['a', 'b']), { zone: 'c' })).toBe(false);
    expect(priorityTermSelectorMatches(sel('In', ['a']), {})).toBe(false);
    expect(priorityTermSelectorMatches(sel('NotIn', ['a']), {})).toBe(true);
    expect(priorityTermSelectorMatches(sel('NotIn', ['a']), { zone: 'b' })).toBe(true);
    expect(priorityTermSelectorMatches(sel('NotIn', ['a']), { zone: 'a' })).toBe(false);
    expect(priorityTermSelectorMatches(sel('Exists'), { zone: '' })).toBe(true);
    expect(priorityTermSelectorMatches(sel('Exists'), {})).toBe(false);
    expect(priorityTermSelectorMatches(sel('DoesNotExist'), {})).toBe(true);
    expect(priorityTermSelectorMatches(sel('DoesNotExist'), { zone: 'a' })).toBe(false);
  });
  it('R4.2: matchLabels needs the key present with the equal value (a missing key is not "")', () => {
    expect(priorityTermSelectorMatches({ matchLabels: { k: '' } }, {})).toBe(false);
    expect(priorityTermSelectorMatches({ matchLabels: { k: '' } }, { k: '' })).toBe(true);
  });
  it('R4.2: an unknown operator skips the term (contributes 0)', () => {
    const s: UpdatePriorityStrategy = {
      weightPriority: [
        { weight: 50, matchSelector: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] } },
        { weight: 3, matchSelector: { matchLabels: { a: '2' } } },
      ],
    };
    expect(getPodPriorityWeight(s, { a: '2' })).toBe(3);
  });
});

describe('R4.3 order', () => {
  it('R4.3: trailing digits: "sts-10" → 10, "5" → 5, "v1.2-a" → 0, overflow → 0', () => {
    expect(parsePriorityOrderValue('sts-10')).toBe(10n);
    expect(parsePriorityOrderValue('5')).toBe(5n);
    expect(parsePriorityOrderValue('v1.2-a')).toBe(0n);
    expect(parsePriorityOrderValue('')).toBe(0n);
    expect(parsePriorityOrderValue('o-007')).toBe(7n);
    expect(parsePriorityOrderValue('x9223372036854775807')).toBe(9223372036854775807n);
    expect(parsePriorityOrderValue('x9223372036854775808')).toBe(0n);
  });
  it('R4.3: the first term whose key is present gives the level; none → level -1, order 0', () => {
    const s = { orderPriority: [{ orderedKey: 'key1' }, { orderedKey: 'key2' }] };
    expect(getPodPriorityOrder(s, { key2: 'o-20', key1: 'x' })).toEqual({ level: 0, order: 0n });
    expect(getPodPriorityOrder(s, { key2: 'o-20' })).toEqual({ level: 1, order: 20n });
    expect(getPodPriorityOrder(s, { app: 'web' })).toEqual({ level: -1, order: 0n });
  });
  it('R4.3: orders beyond 2^53 compare exactly', () => {
    const s = { orderPriority: [{ orderedKey: 'k' }] };
    expect(comparePriority(s, { k: '9007199254740993' }, { k: '9007199254740992' })).toBeLessThan(0);
  });
});

describe('R4.4 comparator', () => {
  const order = { orderPriority: [{ orderedKey: 'key1' }, { orderedKey: 'key2' }] };
  it('R4.4 (TestCompare/#11): a pod matched by the second key loses to a pod matched by the first key', () => {
    expect(comparePriority(order, { key2: 'o-20' }, { key1: 'o-1' })).toBeGreaterThan(0);
  });
  it('R4.4 quirk: pods with none of the keys (level -1) sort before keyed pods', () => {
    expect(comparePriority(order, {}, { key1: 'o-100' })).toBeLessThan(0);
  });
  it('R4.4: weightPriority takes precedence when both lists are set', () => {
    const both: UpdatePriorityStrategy = {
      weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: '1' } } }],
      orderPriority: [{ orderedKey: 'k' }],
    };
    expect(comparePriority(both, { k: '5' }, { a: '1' })).toBeGreaterThan(0);
  });
  it('R4.4: with no terms every pair ties', () => {
    expect(comparePriority({}, { a: '1' }, {})).toBe(0);
    expect(comparePriority(undefined, { a: '1' }, {})).toBe(0);
  });
});

describe('R4.5 sort (v1.8.2 ties)', () => {
  it('R4.5: ties go to the larger pod index; weights 0,10,0,10 → [3, 1, 2, 0]', () => {
    const pods = deepFreeze([
      podWith({ app: 'b' }),
      podWith({ app: 'a' }),
      podWith({ app: 'b' }),
      podWith({ app: 'a' }),
    ]);
    const s = deepFreeze({ weightPriority: [{ weight: 10, matchSelector: { matchLabels: { app: 'a' } } }] });
    const indexes = deepFreeze([0, 1, 2, 3]);
    expect(sortUpdateIndexesByPriority(pods, indexes, s)).toEqual([3, 1, 2, 0]);
  });
  it('R4.5: the result does not depend on the input order of indexes', () => {
    const pods = deepFreeze([
      podWith({ k: 'o-1' }),
      podWith({}),
      podWith({ k: 'o-1' }),
      podWith({ k: 'o-3' }),
    ]);
    const s = { orderPriority: [{ orderedKey: 'k' }] };
    // level -1 (pod 1) first, then order 3 (pod 3), then the two order-1 pods by index descending.
    expect(sortUpdateIndexesByPriority(pods, [0, 1, 2, 3], s)).toEqual([1, 3, 2, 0]);
    expect(sortUpdateIndexesByPriority(pods, [3, 2, 1, 0], s)).toEqual([1, 3, 2, 0]);
  });
  it('R4.5: only the listed indexes are sorted; totals are irrelevant', () => {
    const pods = [podWith({ k: '1' }), podWith({ k: '2' }), podWith({ k: '3' })];
    expect(sortUpdateIndexesByPriority(pods, [0, 2], { orderPriority: [{ orderedKey: 'k' }] })).toEqual([
      2, 0,
    ]);
  });
  it('R4.5: an empty strategy returns the input unchanged (a new array)', () => {
    const indexes = deepFreeze([2, 0, 1]);
    const pods = [podWith(), podWith(), podWith()];
    const out = sortUpdateIndexesByPriority(pods, indexes, {});
    expect(out).toEqual([2, 0, 1]);
    expect(out).not.toBe(indexes);
    expect(sortUpdateIndexesByPriority(pods, indexes, { weightPriority: [], orderPriority: [] })).toEqual([
      2, 0, 1,
    ]);
  });
  it('docs/reference/statefulset.md R9.3: descending slots with no priority labels keep their order', () => {
    const pods = Array.from({ length: 10 }, () => podWith({}));
    const s = { orderPriority: [{ orderedKey: 'k' }] };
    expect(sortUpdateIndexesByPriority(pods, [9, 8, 7, 6], s)).toEqual([9, 8, 7, 6]);
  });
});
