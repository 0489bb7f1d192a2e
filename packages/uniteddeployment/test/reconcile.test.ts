// reconcileUnitedDeployment (docs/reference/uniteddeployment.md §2, §5.4, §7, §8, §10, §11).
import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_SUBSET_PATCH,
  LABEL_SUBSET_NAME,
  LABEL_UD_REVISION,
  manageRevisions,
  type ReconcileUnitedDeploymentInput,
  reconcileUnitedDeployment,
  type UnitedDeploymentObject,
} from '../src/index';
import { APP, at, makePod, makeUD, makeWorkload, NOW } from './fixtures';
import { type Cluster, inputOf, settle } from './harness';

function run(input: Partial<ReconcileUnitedDeploymentInput> & { unitedDeployment: UnitedDeploymentObject }) {
  return reconcileUnitedDeployment(deepFreeze({ subsets: [], pods: [], revisions: [], now: NOW, ...input }));
}
const verbs = (actions: Action[]) => actions.map((a) => `${a.verb}:${a.reason}`);
const creates = (actions: Action[]) =>
  actions.filter((a) => a.verb === 'create').map((a) => (a as any).object);

/** The revision name the UD's current template gets. */
function revisionOf(ud: UnitedDeploymentObject): { name: string; rev: ControllerRevision } {
  const out = manageRevisions(ud, 'StatefulSet', []);
  return { name: out.updatedRevision.metadata!.name!, rev: out.updatedRevision };
}

describe('§2 pipeline', () => {
  it('step 1: a UD with a deletionTimestamp → nothing', () => {
    const ud = {
      ...makeUD({ replicas: 2 }),
      metadata: { name: 'web', deletionTimestamp: NOW },
    } as UnitedDeploymentObject;
    expect(run({ unitedDeployment: ud }).actions).toEqual([]);
  });
  it('§1.4: an invalid UD → field errors, a Warning event, nothing else', () => {
    const ud = makeUD({ replicas: 2, subsets: [{ name: 'a', replicas: 3 }, { name: 'b' }] });
    const r = run({ unitedDeployment: ud });
    expect(r.errors.map((e) => e.field)).toEqual(['spec.topology.subsets']);
    expect(verbs(r.actions)).toEqual(['event:InvalidSpec']);
  });
  it('a new UD (replicas 10, subsets a, b) → revision, two StatefulSets of 5, status with SubsetProvisioned', () => {
    const ud = makeUD({ replicas: 10 });
    const r = run({ unitedDeployment: ud });
    expect(verbs(r.actions)).toEqual([
      'create:CreateRevision',
      'create:CreateSubset',
      'create:CreateSubset',
      'updateStatus:UpdateStatus',
    ]);
    const [rev, a, b] = creates(r.actions);
    expect([a.spec.replicas, b.spec.replicas]).toEqual([5, 5]);
    expect(a.metadata.labels[LABEL_UD_REVISION]).toBe(rev.metadata.name);
    expect(a.metadata.generateName).toBe('web-a-');
    expect(r.status).toMatchObject({
      observedGeneration: 1,
      replicas: 0,
      subsetReplicas: { a: 5, b: 5 },
      currentRevision: rev.metadata.name,
      updateStatus: { updatedRevision: rev.metadata.name, currentPartitions: { a: 0, b: 0 } },
      labelSelector: 'app=web',
      subsetStatuses: [{ name: 'a' }, { name: 'b' }],
    });
    expect(r.status.conditions).toEqual([
      { type: 'SubsetProvisioned', status: 'True', lastTransitionTime: NOW },
    ]);
    expect(r.requeueAfterSeconds).toBeUndefined();
  });
  it('idempotent: once settled, another reconcile returns no action', () => {
    const cluster: Cluster = { ud: makeUD({ replicas: 7 }), objects: [], counter: 0, log: [] };
    settle(cluster, NOW);
    const again = reconcileUnitedDeployment(deepFreeze(inputOf(cluster, NOW)));
    expect(again.actions).toEqual([]);
    expect(again.status).toEqual(cluster.ud.status);
  });
});

describe('§7.1 discovery', () => {
  const ud = makeUD({ replicas: 4 });
  const { name: rev, rev: revision } = revisionOf(ud);
  it('a claimed workload without the subset-name label fails the reconcile: no workload change, no status', () => {
    const w = makeWorkload('StatefulSet', 'a', 2, { labels: { ...APP } });
    const r = run({ unitedDeployment: ud, subsets: [w], revisions: [revision] });
    expect(verbs(r.actions)).toEqual(['event:DiscoverSubsetsFailed']);
  });
  it('an orphan matching workload is adopted (owner reference patch) and used', () => {
    const w = makeWorkload('StatefulSet', 'a', 2, { owner: 'none', revision: rev });
    const r = run({ unitedDeployment: ud, subsets: [w], revisions: [revision] });
    expect(r.actions[0]).toMatchObject({ verb: 'patch', reason: 'AdoptSubset', target: { name: 'web-a-x' } });
    expect((r.actions[0] as any).patch.metadata.ownerReferences[0]).toMatchObject({
      kind: 'UnitedDeployment',
      uid: 'ud-uid',
    });
    expect(creates(r.actions).map((o) => o.metadata.labels[LABEL_SUBSET_NAME])).toEqual(['b']);
  });
  it('a workload controlled by someone else is ignored', () => {
    const w = makeWorkload('StatefulSet', 'a', 2, { owner: 'other', revision: rev });
    const r = run({ unitedDeployment: ud, subsets: [w], revisions: [revision] });
    expect(creates(r.actions).map((o) => o.metadata.labels[LABEL_SUBSET_NAME])).toEqual(['a', 'b']);
  });
  it('duplicates: the first in list order is kept, the others deleted', () => {
    const a1 = makeWorkload('StatefulSet', 'a', 2, { revision: rev, name: 'a1', uid: 'a1' });
    const a2 = makeWorkload('StatefulSet', 'a', 2, { revision: rev, name: 'a2', uid: 'a2' });
    const b = makeWorkload('StatefulSet', 'b', 2, { revision: rev });
    const r = run({ unitedDeployment: ud, subsets: [a1, a2, b], revisions: [revision] });
    expect(r.actions.filter((a) => a.verb === 'delete').map((a) => (a as any).target.name)).toEqual(['a2']);
  });
});

describe('§7.2 provisioning and Q11', () => {
  it('a subset removed from the topology is deleted, and its replicas still count in status (Q11)', () => {
    const ud = makeUD({ replicas: 4, subsets: [{ name: 'a' }] });
    const { name: rev, rev: revision } = revisionOf(ud);
    const a = makeWorkload('StatefulSet', 'a', 4, { revision: rev });
    const gone = makeWorkload('StatefulSet', 'gone', 3, { revision: rev });
    const r = run({ unitedDeployment: ud, subsets: [a, gone], revisions: [revision] });
    expect(verbs(r.actions)).toEqual(['delete:DeleteSubset', 'updateStatus:UpdateStatus']);
    expect(r.status.replicas).toBe(7);
    expect(r.status.subsetReplicas).toEqual({ a: 4 });
  });
  it('template kind switch: workloads of the other kinds are deleted, the new kind created', () => {
    const ud = makeUD({ replicas: 1, subsets: [{ name: 'a' }] }, { kind: 'CloneSet' });
    const old = makeWorkload('StatefulSet', 'a', 1);
    const r = run({ unitedDeployment: ud, subsets: [old] });
    expect(verbs(r.actions)).toEqual([
      'create:CreateRevision',
      'create:CreateSubset',
      'delete:DeleteSubsetOfOtherKind',
      'updateStatus:UpdateStatus',
    ]);
    expect(creates(r.actions)[1]).toMatchObject({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' });
  });
  it('creates run in ascending name order', () => {
    const ud = makeUD({ replicas: 3, subsets: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] });
    const names = creates(run({ unitedDeployment: ud }).actions)
      .slice(1)
      .map((o) => o.metadata.labels[LABEL_SUBSET_NAME]);
    expect(names).toEqual(['a', 'b', 'c']);
  });
  it('Q5: a subset whose patch does not apply fails provisioning; the status is not written', () => {
    const ud = makeUD({ replicas: 2, subsets: [{ name: 'a', patch: '{broken' }, { name: 'b' }] });
    const r = run({ unitedDeployment: ud });
    expect(verbs(r.actions)).toEqual(['create:CreateRevision', 'event:ProvisionSubsetsFailed']);
  });
});

describe('§7.3 updates and §7.9', () => {
  const ud = makeUD({
    replicas: 4,
    subsets: [{ name: 'a', patch: { metadata: { labels: { zone: 'a' } } } }, { name: 'b' }],
  });
  const { name: rev, rev: revision } = revisionOf(ud);
  it('a workload whose subset-patch annotation differs is re-rendered; an up-to-date one is not', () => {
    const a = makeWorkload('StatefulSet', 'a', 2, { revision: rev });
    const b = makeWorkload('StatefulSet', 'b', 2, { revision: rev });
    const r = run({ unitedDeployment: ud, subsets: [a, b], revisions: [revision] });
    const updates = r.actions.filter((x) => x.verb === 'update').map((x) => (x as any).object);
    expect(updates.map((o) => o.metadata.name)).toEqual(['web-a-x']);
    expect(updates[0].metadata.annotations[ANNOTATION_SUBSET_PATCH]).toBe(
      '{"metadata":{"labels":{"zone":"a"}}}',
    );
    expect(updates[0].spec.template.metadata.labels.zone).toBe('a');
    expect(r.status.conditions?.map((c) => c.type)).toEqual(['SubsetUpdated']);
  });
  it('a template change → new revision, every subset updated, stuck StatefulSet pods deleted (§7.9)', () => {
    const v2 = makeUD({ replicas: 4 }, { image: 'nginx:2' });
    const old = revisionOf(makeUD({ replicas: 4 })).name;
    const a = makeWorkload('StatefulSet', 'a', 2, {
      revision: old,
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } },
    });
    const pods = [
      makePod(a, 'web-a-x-0', { revision: old, ready: true }),
      makePod(a, 'web-a-x-1', { revision: old, ready: false }),
    ];
    const r = run({ unitedDeployment: v2, subsets: [a], pods });
    expect(verbs(r.actions)).toEqual([
      'create:CreateRevision',
      'create:CreateSubset',
      'update:UpdateSubset',
      'delete:DeleteStuckPod',
      'updateStatus:UpdateStatus',
    ]);
    expect((r.actions[3] as any).target.name).toBe('web-a-x-1');
  });
  it('Advanced StatefulSets get no stuck-pod deletion (§7.9 is StatefulSet only)', () => {
    const v2 = makeUD(
      { replicas: 2, subsets: [{ name: 'a' }] },
      { image: 'nginx:2', kind: 'AdvancedStatefulSet' },
    );
    const a = makeWorkload('AdvancedStatefulSet', 'a', 2, { revision: 'old' });
    const r = run({
      unitedDeployment: v2,
      subsets: [a],
      pods: [makePod(a, 'web-a-x-1', { revision: 'old', ready: false })],
    });
    expect(r.actions.some((x) => x.reason === 'DeleteStuckPod')).toBe(false);
  });
});

describe('§8 and §10 status from observed subsets', () => {
  it('Deployment pods are found through its ReplicaSets; counts sum over subsets', () => {
    const ud = makeUD({ replicas: 4 }, { kind: 'Deployment' });
    const rev = revisionOf(ud);
    const revision = manageRevisions(ud, 'Deployment', []).updatedRevision;
    const a = makeWorkload('Deployment', 'a', 2, {
      revision: revision.metadata!.name!,
      status: { replicas: 2, readyReplicas: 1 },
    });
    const b = makeWorkload('Deployment', 'b', 2, {
      revision: revision.metadata!.name!,
      status: { replicas: 2, readyReplicas: 2 },
    });
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'rs-a',
        namespace: 'ns',
        uid: 'rs-a',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: a.metadata.name!,
            uid: a.metadata.uid!,
            controller: true,
          },
        ],
      },
    };
    const n = revision.metadata!.name!;
    const pods = [
      makePod(rs, 'p1', { revision: n }),
      makePod(rs, 'p2', { revision: n, ready: false }),
      makePod(rs, 'p3', { revision: 'old' }),
    ];
    const r = run({ unitedDeployment: ud, subsets: [a, b, rs], pods, revisions: [revision] });
    expect(rev.name).toBeTruthy();
    expect(r.status).toMatchObject({
      replicas: 4,
      readyReplicas: 3,
      updatedReplicas: 2,
      updatedReadyReplicas: 1,
    });
  });
  it('currentRevision moves to the updated revision once every pod is updated and ready', () => {
    const ud = makeUD({ replicas: 2, subsets: [{ name: 'a' }] }, { status: { currentRevision: 'web-old' } });
    const { name: rev, rev: revision } = revisionOf(ud);
    const a = makeWorkload('StatefulSet', 'a', 2, { revision: rev });
    const pods = [
      makePod(a, 'web-a-x-0', { revision: rev }),
      makePod(a, 'web-a-x-1', { revision: rev, ready: false }),
    ];
    const r1 = run({ unitedDeployment: ud, subsets: [a], pods, revisions: [revision] });
    expect(r1.status.currentRevision).toBe('web-old');
    const ready = [pods[0], makePod(a, 'web-a-x-1', { revision: rev })];
    expect(
      run({ unitedDeployment: ud, subsets: [a], pods: ready, revisions: [revision] }).status.currentRevision,
    ).toBe(rev);
  });
  it('Q6: subsetStatuses entries of removed subsets are kept', () => {
    const ud = makeUD(
      { replicas: 1, subsets: [{ name: 'a' }] },
      { status: { subsetStatuses: [{ name: 'old' }] } },
    );
    expect(run({ unitedDeployment: ud }).status.subsetStatuses).toEqual([{ name: 'old' }, { name: 'a' }]);
  });
});

describe('§5 Adaptive through the reconcile, §11 requeue, controllerState', () => {
  const adaptive = { type: 'Adaptive' };
  it('§5.4 item 2: creating subsets under Adaptive asks for a requeue after RC (30 s)', () => {
    const ud = makeUD({ replicas: 2 }, { scheduleStrategy: adaptive });
    expect(run({ unitedDeployment: ud }).requeueAfterSeconds).toBe(30);
  });
  it("§4.4 step 2: 3 of a's 4 pods pending > 30 s → a:1, b:9, Schedulable=False recorded, requeue 300 s", () => {
    const subsets = [
      { name: 'a', minReplicas: 2, maxReplicas: 4 },
      { name: 'b', minReplicas: 0 },
    ];
    const ud = makeUD({ replicas: 10, subsets }, { scheduleStrategy: adaptive });
    const { name: rev, rev: revision } = revisionOf(ud);
    const a = makeWorkload('StatefulSet', 'a', 4, {
      revision: rev,
      status: { replicas: 4, readyReplicas: 1 },
    });
    const b = makeWorkload('StatefulSet', 'b', 6, {
      revision: rev,
      status: { replicas: 6, readyReplicas: 6 },
    });
    const pods = [
      makePod(a, 'web-a-x-0', { revision: rev }),
      ...[1, 2, 3].map((i) => makePod(a, `web-a-x-${i}`, { revision: rev, pending: true, created: at(-60) })),
    ];
    const r = run({ unitedDeployment: ud, subsets: [a, b], pods, revisions: [revision] });
    expect(r.status.subsetReplicas).toEqual({ a: 1, b: 9 });
    expect(r.status.subsetStatuses?.find((s) => s.name === 'a')?.conditions).toEqual([
      {
        type: 'Schedulable',
        status: 'False',
        reason: 'reschedule',
        message: 'timeout pending pods found',
        lastTransitionTime: NOW,
      },
    ]);
    expect(r.requeueAfterSeconds).toBe(300);
    expect(r.controllerState).toEqual({
      unschedulable: {
        a: { unschedulable: true, pendingPods: 3 },
        b: { unschedulable: false, pendingPods: 0 },
      },
    });
  });
  it('Q1: Adaptive without min/max records the condition but allocates with the specific allocator', () => {
    const ud = makeUD({ replicas: 4 }, { scheduleStrategy: adaptive });
    const { name: rev, rev: revision } = revisionOf(ud);
    const a = makeWorkload('StatefulSet', 'a', 2, {
      revision: rev,
      status: { replicas: 2, readyReplicas: 0 },
    });
    const b = makeWorkload('StatefulSet', 'b', 2, { revision: rev });
    const pods = [0, 1].map((i) =>
      makePod(a, `web-a-x-${i}`, { revision: rev, pending: true, created: at(-60) }),
    );
    const r = run({ unitedDeployment: ud, subsets: [a, b], pods, revisions: [revision] });
    expect(r.status.subsetReplicas).toEqual({ a: 2, b: 2 });
    expect(r.status.subsetStatuses?.[0].conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'reschedule',
    });
  });
  it('a failed reconcile keeps its requested delays in controllerState; the next one honours them', () => {
    const ud = makeUD(
      { replicas: 2, subsets: [{ name: 'a' }, { name: 'b', patch: '{broken' }] },
      { scheduleStrategy: adaptive },
    );
    const { name: rev, rev: revision } = revisionOf(ud);
    const a = makeWorkload('StatefulSet', 'a', 1, {
      revision: rev,
      status: { replicas: 1, readyReplicas: 0 },
    });
    const pods = [makePod(a, 'web-a-x-0', { revision: rev, pending: true, created: at(-15) })];
    const r1 = run({ unitedDeployment: ud, subsets: [a], pods, revisions: [revision] });
    expect(verbs(r1.actions)).toEqual(['event:ProvisionSubsetsFailed']);
    expect(r1.requeueAfterSeconds).toBe(15);
    expect(r1.controllerState).toMatchObject({ requeueAt: '2024-01-01T00:00:15.000Z' });
    const fixed = makeUD({ replicas: 2 }, { scheduleStrategy: adaptive });
    const r2 = run({
      unitedDeployment: fixed,
      subsets: [a],
      pods: [],
      revisions: [revisionOf(fixed).rev],
      now: at(5),
      controllerState: r1.controllerState,
    });
    // the new subset b asks for RC = 30 s; the stored timer is 10 s away
    expect(r2.requeueAfterSeconds).toBe(10);
    expect(r2.controllerState).not.toHaveProperty('requeueAt');
  });
});

describe('quirks Q4, Q9 and difference D3', () => {
  it('Q4: a Deployment subset with a non-zero UD partition is re-rendered every reconcile, a no-op that is not emitted', () => {
    const ud = makeUD(
      {
        replicas: 2,
        subsets: [{ name: 'a' }],
        updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 1 } } },
      },
      { kind: 'Deployment' },
    );
    const revision = manageRevisions(ud, 'Deployment', []).updatedRevision;
    const cluster: Cluster = { ud, objects: [revision as unknown as KubeObject], counter: 0, log: [] };
    settle(cluster, NOW);
    const again = reconcileUnitedDeployment(deepFreeze(inputOf(cluster, NOW)));
    expect(again.actions).toEqual([]);
    expect(cluster.ud.status?.updateStatus?.currentPartitions).toEqual({ a: 1 });
    expect(cluster.ud.status?.conditions?.map((c) => c.type)).toContain('SubsetUpdated');
  });
  it('Q9: a selector with only matchExpressions works (kruise-ts adds matchLabels for the subset name)', () => {
    const selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] };
    const ud = makeUD({ replicas: 2, subsets: [{ name: 'a' }], selector });
    const r = run({ unitedDeployment: ud });
    expect(r.errors).toEqual([]);
    expect(creates(r.actions)[1].spec.selector).toEqual({
      ...selector,
      matchLabels: { [LABEL_SUBSET_NAME]: 'a' },
    });
  });
  it('D3: under Adaptive, running counts the active pods, not a lagging workload status.replicas', () => {
    const subsets = [
      { name: 'a', minReplicas: 3, maxReplicas: 4 },
      { name: 'b', minReplicas: 0 },
    ];
    const ud = makeUD(
      { replicas: 6, subsets },
      {
        scheduleStrategy: { type: 'Adaptive' },
        status: {
          subsetStatuses: [
            {
              name: 'a',
              conditions: [
                { type: 'Schedulable', status: 'False', reason: 'reschedule', lastTransitionTime: at(-10) },
              ],
            },
            { name: 'b' },
          ],
        },
      },
    );
    const { name: rev, rev: revision } = revisionOf(ud);
    // the workload still reports 4 replicas, but its two pending pods are already gone
    const a = makeWorkload('StatefulSet', 'a', 2, {
      revision: rev,
      status: { replicas: 4, readyReplicas: 2 },
    });
    const b = makeWorkload('StatefulSet', 'b', 4, { revision: rev });
    const pods = [makePod(a, 'web-a-x-0', { revision: rev }), makePod(a, 'web-a-x-1', { revision: rev })];
    const r = run({ unitedDeployment: ud, subsets: [a, b], pods, revisions: [revision] });
    expect(r.status.subsetReplicas).toEqual({ a: 2, b: 4 });
  });
});
