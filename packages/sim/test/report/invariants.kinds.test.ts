// The per-kind invariant checks, each shown failing on a state that breaks its rule and holding on
// the rule's own exceptions: budgets per kind, DaemonSet surge per node, StatefulSet OrderedReady
// ordering, SidecarSet maxUnavailable over matched pods, UnitedDeployment subset sums, ImagePullJob
// parallelism.
import type { KubeObject } from '@kruise-ts/api';
import type { Change, Store } from '@kruise-ts/cluster';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { workloadBudget } from '../../src/invariantBudgets';
import { ImagePullParallelism } from '../../src/invariantImagePull';
import { orderingViolation, reservedOrdinals } from '../../src/invariantOrdering';
import {
  SidecarSetBudget,
  sidecarSetMaxUnavailable,
  sidecarSetPartition,
} from '../../src/invariantSidecarSet';
import { daemonSurge } from '../../src/invariants';
import { checkSubsetSums, parseSubsetQuantity } from '../../src/invariantUnitedDeployment';

const obj = (kind: string, name: string, rest: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind,
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    ...rest,
  }) as KubeObject;
const ready = (name: string, extra: Record<string, unknown> = {}): Pod =>
  ({
    metadata: { name, labels: {}, ...extra },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  }) as Pod;
const notReady = (name: string, extra: Record<string, unknown> = {}): Pod =>
  ({
    metadata: { name, labels: {}, ...extra },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
  }) as Pod;

/** A store that lists the given objects by kind. */
function fakeStore(objects: KubeObject[]): Store {
  return {
    list: (_v: string, kind: string) => objects.filter((o) => o.kind === kind),
    listOwnedBy: (uid: string) =>
      objects.filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid)),
    getByKey: (key: string) =>
      objects.find((o) => `/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}` === key),
  } as unknown as Store;
}

describe('budgets per kind', () => {
  it('DaemonSet: percent of desired nodes rounded up, 0/0 becomes maxUnavailable 1 (daemonset.md §7.1)', () => {
    const ds = (ru: unknown, desired = 10) =>
      obj('DaemonSet', 'd', {
        spec: { updateStrategy: { rollingUpdate: ru } },
        status: { desiredNumberScheduled: desired },
      });
    expect(workloadBudget('DaemonSet', ds({ maxUnavailable: '25%' }))).toMatchObject({
      maxUnavailable: 3,
      maxSurge: 0,
      unavailableApplies: true,
    });
    expect(workloadBudget('DaemonSet', ds({ maxUnavailable: 0, maxSurge: 0 }))).toMatchObject({
      maxUnavailable: 1,
    });
    expect(workloadBudget('DaemonSet', ds({ maxUnavailable: 0, maxSurge: '10%' }))).toMatchObject({
      maxSurge: 1,
      unavailableApplies: false,
    });
  });

  it('StatefulSet: 1 without rollingUpdate, percent rounded down but at least 1 (statefulset.md §R8.3)', () => {
    const sts = (ru?: unknown) =>
      obj('StatefulSet', 's', { spec: { replicas: 5, updateStrategy: ru ? { rollingUpdate: ru } : {} } });
    expect(workloadBudget('StatefulSet', sts()).maxUnavailable).toBe(1);
    expect(workloadBudget('StatefulSet', sts({ maxUnavailable: '50%', partition: 2 }))).toMatchObject({
      maxUnavailable: 2,
      partition: 2,
    });
    expect(workloadBudget('StatefulSet', sts({ maxUnavailable: '10%' })).maxUnavailable).toBe(1);
  });
});

describe('DaemonSet surge per node (daemonset.md §7.4)', () => {
  const ds = obj('DaemonSet', 'agent', { status: { daemonSetHash: 'new' } });
  const on = (node: string, p: Pod, hash: string) =>
    ({
      ...p,
      metadata: { ...p.metadata, labels: { 'controller-revision-hash': hash } },
      spec: { nodeName: node },
    }) as unknown as Pod;
  it('at most maxSurge nodes run a new pod next to an available old one', () => {
    const pods = [
      on('n1', ready('a'), 'old'),
      on('n1', notReady('b'), 'new'),
      on('n2', ready('c'), 'old'),
      on('n2', notReady('d'), 'new'),
    ];
    expect(daemonSurge(ds as never, pods, 2, 0, 0)).toBeUndefined();
    expect(daemonSurge(ds as never, pods, 1, 0, 0)?.message).toBe(
      '2 nodes run a new pod next to an available old one, more than maxSurge 1',
    );
  });
  it('a node whose old pod is not available does not count (S3); three pods on a node always do', () => {
    expect(
      daemonSurge(ds as never, [on('n1', notReady('a'), 'old'), on('n1', notReady('b'), 'new')], 0, 0, 0),
    ).toBeUndefined();
    const three = [on('n1', ready('a'), 'old'), on('n1', ready('b'), 'new'), on('n1', ready('c'), 'new')];
    expect(daemonSurge(ds as never, three, 5, 0, 0)?.message).toBe(
      "node(s) n1 hold more than two of the DaemonSet's pods",
    );
  });
});

describe('StatefulSet OrderedReady ordering (statefulset.md §R6.2, §R6.6)', () => {
  const set = (spec: Record<string, unknown>) => obj('StatefulSet', 'web', { spec });
  const avail = (p: Pod) => p.status?.conditions?.[0]?.status === 'True';
  it('creating ordinal 2 while ordinal 1 is missing or not available breaks it', () => {
    expect(orderingViolation(set({}), ready('web-2'), [ready('web-0')], avail)).toBe(
      'the controller created ordinal 2 under OrderedReady while ordinal(s) 1 missing',
    );
    expect(orderingViolation(set({}), ready('web-2'), [ready('web-0'), notReady('web-1')], avail)).toBe(
      'the controller created ordinal 2 under OrderedReady while ordinal(s) 1 not available',
    );
    expect(
      orderingViolation(set({}), ready('web-2'), [ready('web-0'), ready('web-1')], avail),
    ).toBeUndefined();
  });
  it('reserved ordinals are skipped; Parallel sets are not ordered', () => {
    expect(
      orderingViolation(set({ reserveOrdinals: ['1-1'] }), ready('web-2'), [ready('web-0')], avail),
    ).toBeUndefined();
    expect(
      orderingViolation(set({ podManagementPolicy: 'Parallel' }), ready('web-4'), [], avail),
    ).toBeUndefined();
    expect([...reservedOrdinals([1, '3-5'])]).toEqual([1, 3, 4, 5]);
    expect([...reservedOrdinals([1, '5-3'])]).toEqual([]); // §R3.3 quirk: one bad element drops all
  });
});

describe('SidecarSet maxUnavailable over matched pods (sidecarset.md SS-5.6.4)', () => {
  it('M: nil 1, int, percent of matched rounded up, junk 0', () => {
    const ss = (v: unknown) => obj('SidecarSet', 's', { spec: { updateStrategy: { maxUnavailable: v } } });
    expect([
      sidecarSetMaxUnavailable(ss(undefined), 20),
      sidecarSetMaxUnavailable(ss(3), 20),
      sidecarSetMaxUnavailable(ss('12%'), 20),
      sidecarSetMaxUnavailable(ss('x'), 20),
    ]).toEqual([1, 3, 3, 0]);
  });

  it('counts the Ready pods the controller took down until they are Ready again', () => {
    const ss = obj('SidecarSet', 'log', {
      spec: { updateStrategy: { maxUnavailable: 1 } },
      status: { matchedPods: 3 },
    });
    const pod = (name: string, hash: string, image: string, isReady: boolean) =>
      ({
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {
          name,
          namespace: 'default',
          annotations: { 'kruise.io/sidecarset-hash': JSON.stringify({ log: { hash } }) },
        },
        spec: { containers: [{ name: 'log', image }] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: isReady ? 'True' : 'False' }] },
      }) as KubeObject;
    const now: KubeObject[] = [ss];
    const b = new SidecarSetBudget();
    for (const n of ['a', 'b']) {
      const after = pod(n, 'h2', 'log:2', false);
      now.push(after);
      b.onChange({
        type: 'modified',
        key: `/Pod/default/${n}`,
        object: after,
        old: pod(n, 'h1', 'log:1', true),
        source: 'controller:SidecarSet',
      } as Change);
    }
    const [v] = b.check(fakeStore(now));
    expect(v.message).toBe(
      'the SidecarSet controller has 2 of its 3 matched pods not ready after updating their sidecars, more than maxUnavailable 1',
    );
    // A pod that was not ready before its update is taken for free.
    const free = new SidecarSetBudget();
    free.onChange({
      type: 'modified',
      key: '/Pod/default/c',
      object: pod('c', 'h2', 'log:2', false),
      old: pod('c', 'h1', 'log:1', false),
      source: 'controller:SidecarSet',
    } as Change);
    expect(free.check(fakeStore([ss, pod('c', 'h2', 'log:2', false)]))[0].message).toBeUndefined();
  });
});

describe('SidecarSet partition (sidecarset.md SS-5.6.3)', () => {
  it('P: int clamped, percent rounded up, total − 1 when a percent other than 100% reaches total', () => {
    const ss = (v: unknown) => obj('SidecarSet', 's', { spec: { updateStrategy: { partition: v } } });
    expect([
      sidecarSetPartition(ss('99%'), 5),
      sidecarSetPartition(ss('1%'), 5),
      sidecarSetPartition(ss('18%'), 1000),
      sidecarSetPartition(ss(9), 5),
      sidecarSetPartition(ss('100%'), 5),
    ]).toEqual([4, 1, 180, 5, 5]);
  });

  it('fails when the controller upgraded more than total − P matched pods', () => {
    const ss = obj('SidecarSet', 'log', {
      metadata: { name: 'log', uid: 'uid-log', annotations: { 'kruise.io/sidecarset-hash': 'h2' } },
      spec: { updateStrategy: { partition: 2, maxUnavailable: 5 } },
      status: { matchedPods: 3 },
    });
    const pod = (name: string, hash: string) =>
      ({
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {
          name,
          namespace: 'default',
          annotations: { 'kruise.io/sidecarset-hash': JSON.stringify({ log: { hash } }) },
        },
        spec: { containers: [{ name: 'log', image: hash }] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      }) as KubeObject;
    const b = new SidecarSetBudget();
    const now: KubeObject[] = [ss, pod('c', 'h1')];
    for (const n of ['a', 'b']) {
      now.push(pod(n, 'h2'));
      b.onChange({
        type: 'modified',
        key: `/Pod/default/${n}`,
        object: pod(n, 'h2'),
        old: pod(n, 'h1'),
        source: 'controller:SidecarSet',
      } as Change);
    }
    const part = b.check(fakeStore(now)).find((v) => v.invariant === 'partition')!;
    expect(part.message).toBe(
      'the SidecarSet controller upgraded 2 of its 3 matched pods, more than 3 − partition 2',
    );
    // One upgrade is within total − P.
    const ok = new SidecarSetBudget();
    ok.onChange({
      type: 'modified',
      key: '/Pod/default/a',
      object: pod('a', 'h2'),
      old: pod('a', 'h1'),
      source: 'controller:SidecarSet',
    } as Change);
    expect(
      ok
        .check(fakeStore([ss, pod('a', 'h2'), pod('b', 'h1'), pod('c', 'h1')]))
        .find((v) => v.invariant === 'partition')!.message,
    ).toBeUndefined();
  });
});

describe('UnitedDeployment subset sums (uniteddeployment.md §3, §4.3)', () => {
  const ud = (subsets: unknown[], status: Record<string, unknown> = {}, strategy = 'Fixed') =>
    obj('UnitedDeployment', 'web', {
      metadata: { name: 'web', namespace: 'default', uid: 'ud', generation: 1 },
      spec: { replicas: 8, topology: { subsets, scheduleStrategy: { type: strategy } } },
      status: { observedGeneration: 1, ...status },
    });
  const subset = (name: string, replicas: number) =>
    obj('CloneSet', `web-${name}`, {
      metadata: {
        name: `web-${name}`,
        namespace: 'default',
        labels: { 'apps.kruise.io/subset-name': name },
        ownerReferences: [
          { uid: 'ud', kind: 'UnitedDeployment', name: 'web', apiVersion: 'apps.kruise.io/v1alpha1' },
        ],
      },
      spec: { replicas },
    });
  it('holds when the subsets add up within their bounds', () => {
    const u = ud([{ name: 'a', minReplicas: 3, maxReplicas: 4 }, { name: 'b' }]);
    expect(checkSubsetSums(fakeStore([u, subset('a', 4), subset('b', 4)]))[0].message).toBeUndefined();
  });
  it('fails above a maximum, below a minimum, and on a sum off the total', () => {
    const u = ud([{ name: 'a', minReplicas: 3, maxReplicas: 4 }, { name: 'b' }]);
    expect(checkSubsetSums(fakeStore([u, subset('a', 5), subset('b', 3)]))[0].message).toBe(
      'subset a has 5 replicas, more than its maxReplicas 4',
    );
    expect(checkSubsetSums(fakeStore([u, subset('a', 2), subset('b', 6)]))[0].message).toBe(
      'subset a has 2 replicas, fewer than its minReplicas 3',
    );
    expect(checkSubsetSums(fakeStore([u, subset('a', 4), subset('b', 5)]))[0].message).toBe(
      'the subsets hold 9 replicas, more than spec.replicas 8',
    );
    expect(checkSubsetSums(fakeStore([u, subset('a', 4), subset('b', 2)]))[0].message).toBe(
      'the subsets hold 6 replicas, fewer than spec.replicas 8, while a subset is below its maximum',
    );
  });
  it('an unschedulable subset under Adaptive may shrink below its minimum (E2 a)', () => {
    const u = ud(
      [{ name: 'a', minReplicas: 3, maxReplicas: 4 }, { name: 'b' }],
      { subsetStatuses: [{ name: 'a', conditions: [{ type: 'SubsetSchedulable', status: 'False' }] }] },
      'Adaptive',
    );
    expect(checkSubsetSums(fakeStore([u, subset('a', 2), subset('b', 6)]))[0].message).toBeUndefined();
    expect([
      parseSubsetQuantity(5, '50%'),
      parseSubsetQuantity(5, '9%'),
      parseSubsetQuantity(-1, '10%'),
    ]).toEqual([3, 0, undefined]);
  });
});

describe('ImagePullJob parallelism (daemon.md §3.5, §4.4)', () => {
  const job = obj('ImagePullJob', 'prewarm', { spec: { image: 'nginx:1.27', parallelism: 2 } });
  const ni = (node: string, phase?: string) =>
    ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'NodeImage',
      metadata: { name: node },
      spec: {
        images: { nginx: { tags: [{ tag: '1.27', version: 0, ownerReferences: [{ uid: 'uid-prewarm' }] }] } },
      },
      status: phase ? { imageStatuses: { nginx: { tags: [{ tag: '1.27', version: 0, phase }] } } } : {},
    }) as KubeObject;
  it('fails when the job adds a node while parallelism NodeImages are still pulling', () => {
    const c = new ImagePullParallelism();
    expect(c.check(fakeStore([job, ni('n1'), ni('n2')]))[0].message).toBeUndefined();
    expect(c.check(fakeStore([job, ni('n1'), ni('n2'), ni('n3')]))[0].message).toBe(
      '3 NodeImages are pulling for the job (n1, n2, n3), more than parallelism 2',
    );
  });
  it('finished pulls do not count; a node with no status entry for the tag is in no bucket (§4.3 quirk)', () => {
    const c = new ImagePullParallelism();
    expect(c.check(fakeStore([job, ni('n1', 'Succeeded'), ni('n2'), ni('n3')]))[0].message).toBeUndefined();
  });
});
