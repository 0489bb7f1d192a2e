// CloneSet scale-in order (docs/reference/core.md R7.3; docs/reference/cloneset.md §8.3): deletion-cost parsing,
// the comparator, the rankers and "take k from a group". Upstream: core/scale_in_order.json and
// cloneset/pod_sort.json (TestSortingActivePods, TestSpreadConstraintsRanker).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  compareForScaleIn,
  parseDeletionCost,
  parseDeletionCostValue,
  sortPodsForScaleIn,
} from '../src/rollout/ordering/deletion';
import {
  pickPodsForScaleIn,
  sameNodeRanks,
  scaleInRanks,
  spreadConstraintRanks,
} from '../src/rollout/ordering/rankers';
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

/** cloneset/README.md compact pod form → Pod. */
function compactPod(c: any): Pod {
  return deepFreeze({
    metadata: {
      name: c.name,
      uid: c.uid,
      creationTimestamp: c.creationTimestamp ?? undefined,
      annotations: c.annotations,
      labels: c.labels,
    },
    spec: { nodeName: c.nodeName || undefined, containers: [] },
    status: {
      phase: c.phase || undefined,
      conditions: c.ready
        ? [{ type: 'Ready', status: 'True', lastTransitionTime: c.readyTransitionTime ?? undefined }]
        : [],
      containerStatuses: c.ready ? [{ restartCount: c.restartCount ?? 0 } as any] : [],
    },
  });
}

const less = (a: Pod, b: Pod, opts?: Parameters<typeof compareForScaleIn>[2]) =>
  compareForScaleIn(a, b, opts) < 0;

describe('upstream core/scale_in_order.json (TestSortingActivePods)', () => {
  const file = loadCases('core', 'scale_in_order.json');
  it.each(rows(file.cases, (c) => c.id))('%s', (_id, c: any) => {
    expect(c.function).toBe('activePodsLess');
    const podI = deepFreeze(c.input.podI);
    const podJ = deepFreeze(c.input.podJ);
    expect({ lessIJ: less(podI, podJ), lessJI: less(podJ, podI) }).toEqual(c.expected);
  });
});

describe('upstream cloneset/pod_sort.json', () => {
  const file = loadCases('cloneset', 'pod_sort.json');
  for (const c of file.cases) {
    if (c.kind === 'deletionOrderComparator') {
      const pods = new Map<string, Pod>(c.pods.map((p: any) => [p.name, compactPod(p)]));
      const checks = c.checks.map((k: any, i: number) => ({ ...k, i }));
      it.each(rows(checks, (k) => `${c.id} check ${k.i} ${k.kind} ${k.goCase ?? k.pod}`))(
        '%s',
        (_id, k: any) => {
          if (k.kind === 'notLessThanItself') {
            const p = pods.get(k.pod)!;
            expect(less(p, p)).toBe(false);
          } else {
            const lesser = pods.get(k.lesser)!;
            const greater = pods.get(k.greater)!;
            expect(less(lesser, greater)).toBe(true);
            expect(less(greater, lesser)).toBe(false);
          }
        },
      );
    } else {
      it(`${c.id} ${c.goTest}/${c.goCase}`, () => {
        const nodes: Node[] = deepFreeze(
          c.nodes.map((n: any) => ({ metadata: { name: n.name, labels: n.labels } })),
        );
        const pods = c.pods.map((p: any) => compactPod(p));
        const ranks = spreadConstraintRanks(pods, deepFreeze(c.constraints), nodes);
        const positive = pods
          .filter((p: Pod) => ranks.get(p)! > 0)
          .sort((a: Pod, b: Pod) => ranks.get(b)! - ranks.get(a)!)
          .map((p: Pod) => p.metadata?.uid);
        expect(positive).toEqual(c.expected.podsWithPositiveRankSortedByRankDesc);
      });
    }
  }
});

describe('R7.3 deletion cost parsing', () => {
  it.each([
    ['10', 10],
    ['-5', -5],
    ['0', 0],
    ['+5', 0],
    ['05', 0],
    ['00', 0],
    ['1e3', 0],
    ['1.5', 0],
    [' 1', 0],
    ['abc', 0],
    ['-', 0],
    ['', 0],
    ['2147483647', 2147483647],
    ['-2147483648', -2147483648],
    ['2147483648', 0],
    ['-2147483649', 0],
    ['99999999999999999999999', 0],
  ])('R7.3: %j → %d', (value, cost) => {
    expect(parseDeletionCostValue(value)).toBe(cost);
  });
  it('R7.3: an absent annotation is 0; the pod annotation is read', () => {
    expect(parseDeletionCost({ metadata: {} })).toBe(0);
    expect(parseDeletionCostValue(undefined)).toBe(0);
    expect(
      parseDeletionCost({
        metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-7' } },
      }),
    ).toBe(-7);
  });
});

const base = { nodeName: 'n', phase: 'Running', ready: true, readyTransitionTime: '2024-02-01T00:00:00Z' };

describe('§8.3 deletion order rules', () => {
  it('rule 3: not available before available, only when a predicate is given (before Ready)', () => {
    const unavailableReady = compactPod({ ...base, name: 'u', labels: { avail: 'no' } });
    const availableNotReady = compactPod({ ...base, name: 'a', ready: false, labels: { avail: 'yes' } });
    const isAvailable = (p: Pod) => p.metadata?.labels?.avail === 'yes';
    expect(less(unavailableReady, availableNotReady, { isAvailable })).toBe(true);
    expect(less(availableNotReady, unavailableReady)).toBe(true);
  });
  it('rule 5 before rule 6: lower cost first even against a higher rank', () => {
    const cheap = compactPod({
      ...base,
      name: 'cheap',
      annotations: { 'controller.kubernetes.io/pod-deletion-cost': '1' },
    });
    const ranked = compactPod({
      ...base,
      name: 'ranked',
      annotations: { 'controller.kubernetes.io/pod-deletion-cost': '2' },
    });
    expect(less(cheap, ranked, { rank: new Map([[ranked, 5]]) })).toBe(true);
  });
  it('rule 6 before rule 7: higher rank first even if it became Ready earlier', () => {
    const older = compactPod({ ...base, name: 'older', readyTransitionTime: '2024-01-01T00:00:00Z' });
    const newer = compactPod({ ...base, name: 'newer' });
    expect(less(newer, older)).toBe(true);
    const rank = new Map([
      [older, 2],
      [newer, 1],
    ]);
    expect(less(older, newer, { rank })).toBe(true);
  });
  it('rule 4: Ready uses the Ready condition only (phase Running, no condition = not ready)', () => {
    expect(less(compactPod({ ...base, name: 'x', ready: false }), compactPod({ ...base, name: 'y' }))).toBe(
      true,
    );
  });
  it('rule 10: sortPodsForScaleIn is stable for exact ties and does not mutate its input', () => {
    const pods = deepFreeze([
      compactPod({ ...base, name: 'a' }),
      compactPod({ ...base, name: 'b', ready: false }),
      compactPod({ ...base, name: 'c' }),
      compactPod({ name: 'd', phase: 'Pending' }),
    ]);
    expect(sortPodsForScaleIn(pods).map((p) => p.metadata?.name)).toEqual(['d', 'b', 'a', 'c']);
  });
});

describe('§8.3 rankers', () => {
  const onNode = (name: string, node?: string, extra: object = {}) =>
    compactPod({ phase: 'Running', ...extra, name, uid: name, nodeName: node });
  it('same-node ranker: k pods on a node get k-1 … 1, the best (last in deletion order) 0', () => {
    const pods = [
      onNode('d-0', 'd'),
      onNode('d-1', 'd'),
      onNode('d-2', 'd'),
      onNode('b-0', 'b'),
      onNode('b-1', 'b'),
      onNode('solo', 'e'),
      onNode('unscheduled'),
      onNode('unscheduled-2'),
    ];
    const ranks = sameNodeRanks(pods);
    expect(pods.map((p) => ranks.get(p))).toEqual([2, 1, 0, 1, 0, 0, 0, 0]);
  });
  it('same-node ranker sorts by the deletion order: a not-ready pod is ranked highest', () => {
    const ready = onNode('ready', 'n', { ready: true, readyTransitionTime: '2024-01-01T00:00:00Z' });
    const notReady = onNode('not-ready', 'n');
    const ranks = sameNodeRanks([ready, notReady]);
    expect(ranks.get(notReady)).toBe(1);
    expect(ranks.get(ready)).toBe(0);
  });
  it('spread ranker: pods on missing nodes or without the label gain 0; one group gives (g-i)·ln 3', () => {
    const nodes: Node[] = [
      { metadata: { name: 'x', labels: { zone: 'z1' } } },
      { metadata: { name: 'y', labels: {} } },
    ];
    const pods = [
      onNode('x-0', 'x'),
      onNode('x-1', 'x'),
      onNode('y-0', 'y'),
      onNode('gone', 'nowhere'),
      onNode('u'),
    ];
    const ranks = spreadConstraintRanks(pods, [{ topologyKey: 'zone' }], nodes);
    expect(ranks.get(pods[0])).toBeCloseTo(2 * Math.log(3), 12);
    expect(ranks.get(pods[1])).toBeCloseTo(1 * Math.log(3), 12);
    expect(pods.slice(2).map((p) => ranks.get(p))).toEqual([0, 0, 0]);
  });
  it('spread ranker: limitedValues drop the other topology values', () => {
    const nodes: Node[] = [
      { metadata: { name: 'x', labels: { zone: 'z1' } } },
      { metadata: { name: 'w', labels: { zone: 'z2' } } },
    ];
    const pods = [onNode('x-0', 'x'), onNode('w-0', 'w')];
    const ranks = spreadConstraintRanks(pods, [{ topologyKey: 'zone' }], nodes, {
      limitedValues: { zone: ['z2'] },
    });
    expect(ranks.get(pods[0])).toBe(0);
    expect(ranks.get(pods[1])).toBeCloseTo(Math.log(3), 12);
  });
  it('scaleInRanks picks the spread ranker only when there are spread constraints', () => {
    const nodes: Node[] = [{ metadata: { name: 'x', labels: { zone: 'z1' } } }];
    const pods = [onNode('x-0', 'x'), onNode('x-1', 'x')];
    expect([...scaleInRanks(pods).values()]).toEqual([1, 0]);
    const spread = scaleInRanks(pods, { topologySpreadConstraints: [{ topologyKey: 'zone' }], nodes });
    expect(spread.get(pods[0])).toBeCloseTo(2 * Math.log(3), 12);
  });
  it('take k from a group: k < size sorts and takes the first k; k ≥ size takes all unsorted; k ≤ 0 none', () => {
    const p0 = onNode('p0', 'a', { ready: true });
    const p1 = onNode('p1', undefined, { phase: 'Pending' });
    const p2 = onNode('p2', 'b', { ready: true });
    const group = deepFreeze([p0, p1, p2]);
    expect(pickPodsForScaleIn(group, 1)).toEqual([p1]);
    expect(pickPodsForScaleIn(group, 3)).toEqual([p0, p1, p2]);
    expect(pickPodsForScaleIn(group, 5)).toEqual([p0, p1, p2]);
    expect(pickPodsForScaleIn(group, 0)).toEqual([]);
  });
  it('take k from a group: ranks come from the group (two pods sharing a node go before a lone pod)', () => {
    const lone = onNode('lone', 'a', { ready: true });
    const s1 = onNode('s1', 'b', { ready: true });
    const s2 = onNode('s2', 'b', { ready: true });
    expect(pickPodsForScaleIn([lone, s1, s2], 1)).toEqual([s1]);
  });
  it('take k from a group: the availability predicate is rule 3', () => {
    const a = onNode('a', 'a', { ready: true });
    const b = onNode('b', 'b', { ready: true });
    const c = onNode('c', 'c', { ready: true });
    expect(pickPodsForScaleIn([a, b, c], 1, { isAvailable: (p) => p !== c })).toEqual([c]);
  });
});
