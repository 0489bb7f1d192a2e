// docs/reference/daemonset.md §7.1 budgets, §7.2 eligible nodes, §5.4 partition-limited creation,
// §5.6 burst and `allowSurge` (§5).
import type { IntOrString } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  allowSurge,
  burstReplicas,
  filterDaemonPodsNodeToUpdate,
  getNodesNeedingPods,
  updatedDesiredNodeCounts,
} from '../src';
import { makeDaemonSet, makeNode } from './helpers';

function budget(desired: number, ru: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }) {
  const ds = deepFreeze(makeDaemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru } }));
  const nodes = Array.from({ length: desired }, (_, i) => `n${i}`);
  const r = updatedDesiredNodeCounts(ds, nodes, new Map());
  if ('error' in r) throw new Error(r.error);
  return { maxUnavailable: r.maxUnavailable, maxSurge: r.maxSurge };
}

describe('§7.1 budgets', () => {
  it('desired 2, maxUnavailable 50% → 1', () =>
    expect(budget(2, { maxUnavailable: '50%' }).maxUnavailable).toBe(1));
  it('desired 3, maxUnavailable 50% → 2 (rounded up)', () =>
    expect(budget(3, { maxUnavailable: '50%' }).maxUnavailable).toBe(2));
  it('desired 2, maxSurge 100% → 2', () =>
    expect(budget(2, { maxSurge: '100%', maxUnavailable: 0 }).maxSurge).toBe(2));
  it('no nodes → 0/0', () =>
    expect(budget(0, { maxUnavailable: 0 })).toEqual({ maxUnavailable: 0, maxSurge: 0 }));
  it('step 3: desired > 0 and both 0 → maxUnavailable 1; unset counts as 0', () => {
    expect(budget(4, { maxUnavailable: 0, maxSurge: 0 })).toEqual({ maxUnavailable: 1, maxSurge: 0 });
    expect(budget(4, {})).toEqual({ maxUnavailable: 1, maxSurge: 0 });
  });
  it('step 4: a non-percent string aborts with an error', () => {
    const ds = makeDaemonSet({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '3' } },
    });
    expect(updatedDesiredNodeCounts(ds, ['a'], new Map())).toHaveProperty('error');
  });
  it('step 1: desired nodes without an entry get an empty one (the input map is not changed)', () => {
    const ds = makeDaemonSet();
    const input = new Map<string, Pod[]>([['a', [{ metadata: { name: 'p' } }]]]);
    const r = updatedDesiredNodeCounts(ds, ['a', 'b'], input);
    if ('error' in r) throw new Error(r.error);
    expect([...r.nodeToPods.keys()]).toEqual(['a', 'b']);
    expect(input.size).toBe(1);
  });
});

/** `name:hash` pairs (`x` suffix = deleting) → node → pods map. */
function mapOf(spec: string): Map<string, Pod[]> {
  return new Map(
    spec.split(' ').map((e) => {
      const [node, hash] = e.split(':');
      const deleting = hash.endsWith('x');
      return [
        node,
        [
          {
            metadata: {
              name: `${node}-pod`,
              labels: { 'controller-revision-hash': hash.replace(/x$/, '') },
              ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
            },
          },
        ],
      ];
    }),
  );
}

function filter(spec: string, partition: number, canary?: string[]) {
  const map = mapOf(spec);
  const nodes = new Map(
    [...map.keys()].map((n) => [n, makeNode(n, canary?.includes(n) ? { 'node-type': 'canary' } : {})]),
  );
  const ds = deepFreeze(
    makeDaemonSet({
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          maxUnavailable: 1,
          partition,
          ...(canary ? { selector: { matchLabels: { 'node-type': 'canary' } } } : {}),
        },
      },
    }),
  );
  return filterDaemonPodsNodeToUpdate(ds, 'v2', undefined, map, nodes);
}

describe('§7.2 eligible nodes (table, H = v2)', () => {
  it('n1:v1 n2:v2 n3:v1, partition 0 → n2, n3, n1', () =>
    expect(filter('n1:v1 n2:v2 n3:v1', 0)).toEqual(['n2', 'n3', 'n1']));
  it('n1:v2 n2:v1 n3:v1, partition 1 → n1, n3', () =>
    expect(filter('n1:v2 n2:v1 n3:v1', 1)).toEqual(['n1', 'n3']));
  it('n1:v1 n2:v2 n3:v1 n4:v1, canary {n3}, partition 1 → n2, n3', () =>
    expect(filter('n1:v1 n2:v2 n3:v1 n4:v1', 1, ['n3'])).toEqual(['n2', 'n3']));
  it('same, canary {n1,n3,n4}, partition 2 → n2, n4', () =>
    expect(filter('n1:v1 n2:v2 n3:v1 n4:v1', 2, ['n1', 'n3', 'n4'])).toEqual(['n2', 'n4']));
  it("n3's pod deleting, canary {n1,n3}, partition 0 → n2, n3, n1", () =>
    expect(filter('n1:v1 n2:v2 n3:v1x n4:v1', 0, ['n1', 'n3'])).toEqual(['n2', 'n3', 'n1']));
  it('maxUpdate = N − partition ≤ 0 → no node is eligible', () =>
    expect(filter('n1:v1 n2:v2', 2)).toEqual([]));
  it('entries whose node is not in the node list are dropped', () => {
    const map = mapOf('n1:v1 gone:v1');
    const nodes = new Map([['n1', makeNode('n1')]]);
    expect(filterDaemonPodsNodeToUpdate(makeDaemonSet(), 'v2', undefined, map, nodes)).toEqual(['n1']);
  });
});

describe('§5.4 partition-limited creation', () => {
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => `node-${a + i}`);
  it('byte-wise sort: node-10 < node-11 < node-5', () =>
    expect(getNodesNeedingPods(0, 0, 0, false, ['node-5', 'node-11', 'node-10'])).toEqual([
      'node-10',
      'node-11',
      'node-5',
    ]));
  it('desire 10, newPods 1, partition 5, needing node-1..node-9 → node-1..node-4', () =>
    expect(getNodesNeedingPods(1, 10, 5, true, range(1, 9))).toEqual(range(1, 4)));
  it('desire 12, newPods 5, partition 5, needing node-5..node-11 → node-10, node-11', () =>
    expect(getNodesNeedingPods(5, 12, 5, true, range(5, 11))).toEqual(['node-10', 'node-11']));
  it('not progressive → all nodes, sorted', () =>
    expect(getNodesNeedingPods(1, 10, 5, false, range(1, 9))).toEqual(range(1, 9)));
  it('partition larger than desire is clamped (maxCreate 0 → none)', () =>
    expect(getNodesNeedingPods(0, 3, 100, true, range(0, 2))).toEqual([]));
});

describe('§5.6 burst', () => {
  it('default 250 whatever the stored status', () => expect(burstReplicas(makeDaemonSet())).toBe(250));
  it('a percentage is scaled against the stored status.desiredNumberScheduled, rounding down', () => {
    const ds = makeDaemonSet({
      burstReplicas: '50%',
      status: {
        desiredNumberScheduled: 7,
        currentNumberScheduled: 0,
        numberMisscheduled: 0,
        numberReady: 0,
        daemonSetHash: '',
      },
    });
    expect(burstReplicas(ds)).toBe(3);
  });
  it('Q4: a percentage with a brand-new DaemonSet (stored 0) → 0', () =>
    expect(burstReplicas(makeDaemonSet({ burstReplicas: '50%' }))).toBe(0));
});

describe('§5 allowSurge', () => {
  const ds = (maxSurge: IntOrString | undefined, type: 'RollingUpdate' | 'OnDelete' = 'RollingUpdate') =>
    makeDaemonSet({ updateStrategy: { type, rollingUpdate: { maxSurge, maxUnavailable: 0 } } });
  it('any positive int or percent (scaled against 1, rounded up)', () => {
    expect(allowSurge(ds(1))).toBe(true);
    expect(allowSurge(ds('1%'))).toBe(true);
    expect(allowSurge(ds(0))).toBe(false);
    expect(allowSurge(ds('0%'))).toBe(false);
    expect(allowSurge(ds(undefined))).toBe(false);
  });
  it('only for RollingUpdate', () => expect(allowSurge(ds(1, 'OnDelete'))).toBe(false));
});
