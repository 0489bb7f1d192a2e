// docs/reference/statefulset.md §6–§7: the replica phase (creation, failed pods, pending, terminating,
// availability gate, repair, the revision of new pods) and the condemned phase with the scale
// budget — one `it` per rule / worked example, on single reconciles.
import { describe, expect, it } from 'vitest';
import { scaleMaxUnavailable } from '../src/replicaPhase';
import { isCurrentRevisionNeeded } from '../src/revisionChoice';
import { pod } from './fixtures';
import { podActions, run, scene } from './scene';
import { makeSet } from './world';

const ready = (ordinal: number, extra: object = {}) => ({ ordinal, ...extra });

describe('§6 replica phase', () => {
  it('R6.1 a failed pod is deleted and the round exits (OrderedReady)', () => {
    const s = scene({ replicas: 3 }, [ready(0), ready(1, { phase: 'Failed' })], { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([['delete', 'RecreateFailedPod', 'foo-1']]);
  });
  it('R6.1 a succeeded pod is deleted and the round exits in Parallel mode too (v1.8.2)', () => {
    const s = scene(
      { replicas: 3, podManagementPolicy: 'Parallel' },
      [ready(0), ready(1, { phase: 'Succeeded' })],
      { currentIsNew: true },
    );
    expect(podActions(run(s).actions)).toEqual([['delete', 'RecreateFailedPod', 'foo-1']]);
  });
  it('R6.1 a failed pod that is already terminating is not deleted again; the round still exits', () => {
    const s = scene(
      { replicas: 3, podManagementPolicy: 'Parallel' },
      [ready(0), ready(1, { phase: 'Failed', terminating: true })],
      {
        currentIsNew: true,
      },
    );
    expect(podActions(run(s).actions)).toEqual([]);
  });
  it('R6.1 a preDelete hook intercepts the failed-pod deletion (PreparingDelete)', () => {
    const s = scene(
      { replicas: 2, lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } } },
      [ready(0), ready(1, { phase: 'Failed', labels: { hold: 'true' }, lifecycle: 'Normal' })],
      { currentIsNew: true },
    );
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'PreparingDelete', 'foo-1']]);
  });
  it('R6.2 OrderedReady creates one pod per round, lowest missing ordinal first', () => {
    const s = scene({ replicas: 3 }, [ready(0)], { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([['create', 'ScaleUp', 'foo-1']]);
  });
  it('R6.2 Parallel without a scale budget creates every missing pod in one round', () => {
    const s = scene({ replicas: 4, podManagementPolicy: 'Parallel' }, [ready(1)], { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([
      ['create', 'ScaleUp', 'foo-0'],
      ['create', 'ScaleUp', 'foo-2'],
      ['create', 'ScaleUp', 'foo-3'],
    ]);
  });
  it('R6.2 claims are created before their pod; a new pod gets lifecycle Normal (PreparingNormal with an unmet preNormal)', () => {
    const spec = {
      replicas: 1,
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } },
      ],
    };
    const r = run(scene(spec as any, [], { currentIsNew: true }));
    const creates = r.actions.filter(
      (a) => a.verb === 'create' && a.object.kind !== 'ControllerRevision',
    ) as any[];
    expect(creates.map((a) => `${a.object.kind}/${a.object.metadata.name}`)).toEqual([
      'PersistentVolumeClaim/data-foo-0',
      'Pod/foo-0',
    ]);
    expect(creates[1].object.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Normal');
    const hooked = run(
      scene({ replicas: 1, lifecycle: { preNormal: { finalizersHandler: ['x/warm'] } } }, [], {
        currentIsNew: true,
      }),
    );
    const podCreate = hooked.actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any;
    expect(podCreate.object.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('PreparingNormal');
  });
  it('R6.2 / R12.3 a stale claim (ownerRef to an older pod of the same name) blocks creation when whenScaled is Delete', () => {
    const spec = {
      replicas: 1,
      persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' },
      volumeClaimTemplates: [{ metadata: { name: 'data' } }],
    };
    const s = scene(spec as any, [], { currentIsNew: true });
    s.pvcs = [
      {
        metadata: {
          name: 'data-foo-0',
          namespace: 'default',
          ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'foo-0', uid: 'old' }],
        },
      },
    ];
    expect(podActions(run(s).actions)).toEqual([]);
  });
  it('R6.2 / R12.1 a claim being deleted makes creation fail with FailedCreatePod', () => {
    const spec = { replicas: 1, volumeClaimTemplates: [{ metadata: { name: 'data' } }] };
    const s = scene(spec as any, [], { currentIsNew: true });
    s.pvcs = [
      {
        metadata: {
          name: 'data-foo-0',
          namespace: 'default',
          deletionTimestamp: '2024-01-01T00:00:00Z',
          finalizers: ['kubernetes.io/pvc-protection'],
        },
      },
    ];
    const r = run(s);
    expect(podActions(r.actions)).toEqual([]);
    expect(r.status.conditions).toEqual([
      expect.objectContaining({
        type: 'FailedCreatePod',
        status: 'True',
        message: 'pvc data-foo-0 is being deleted',
      }),
    ]);
  });
  it('R6.2 (kruise-ts) an observed pod without phase is not created again, and still blocks OrderedReady', () => {
    const s = scene({ replicas: 3 }, [ready(0), ready(1, { phase: '' })], { currentIsNew: true });
    expect(podActions(run(s).actions).filter(([verb]) => verb === 'create')).toEqual([]);
  });
  it('R6.3 a Pending pod gets its missing claims', () => {
    const spec = { replicas: 1, volumeClaimTemplates: [{ metadata: { name: 'data' } }] };
    const r = run(scene(spec as any, [ready(0, { phase: 'Pending' })], { currentIsNew: true }));
    expect(r.actions.filter((a) => a.verb === 'create').map((a: any) => a.object.metadata.name)).toEqual([
      'data-foo-0',
    ]);
  });
  it('R6.4 a terminating replica blocks everything in OrderedReady mode', () => {
    const s = scene({ replicas: 3 }, [ready(0), ready(1, { terminating: true })], { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([]);
  });
  it('R6.4 Parallel ignores a terminating replica when there is no scale budget', () => {
    const s = scene(
      { replicas: 3, podManagementPolicy: 'Parallel' },
      [ready(0, { terminating: true }), ready(1)],
      { currentIsNew: true },
    );
    expect(podActions(run(s).actions)).toEqual([['create', 'ScaleUp', 'foo-2']]);
  });
  it('R6.5 refresh runs in the replica phase: PreparingNormal without hook → Normal even when the round exits', () => {
    const s = scene({ replicas: 2 }, [ready(0, { lifecycle: 'PreparingNormal', ready: false })], {
      currentIsNew: true,
    });
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'LifecycleTransition', 'foo-0']]);
    const patch = (r.actions.find((a) => a.verb === 'patch') as any).patch;
    expect(patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });
  it('R6.6 OrderedReady waits for minReadySeconds before creating the next pod, and asks to be requeued', () => {
    const spec = {
      replicas: 2,
      updateStrategy: { type: 'RollingUpdate' as const, rollingUpdate: { minReadySeconds: 60 } },
    };
    const r = run(scene(spec, [ready(0, { readyFor: 20 })], { currentIsNew: true }));
    expect(podActions(r.actions)).toEqual([]);
    expect(r.requeueAfterSeconds).toBe(40);
  });
  it('R6.6 Parallel without a scale budget does not check availability', () => {
    const spec = { replicas: 2, podManagementPolicy: 'Parallel' as const };
    const r = run(scene(spec, [ready(0, { ready: false })], { currentIsNew: true }));
    expect(podActions(r.actions)).toEqual([['create', 'ScaleUp', 'foo-1']]);
  });
  it('R6.7 a pod with a wrong identity label is repaired (RepairPod)', () => {
    const s = scene(
      { replicas: 1 },
      [ready(0, { labels: { 'statefulset.kubernetes.io/pod-name': 'wrong' } })],
      { currentIsNew: true },
    );
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'RepairPod', 'foo-0']]);
    expect((r.actions.find((a) => a.verb === 'patch') as any).patch.metadata.labels).toEqual({
      'statefulset.kubernetes.io/pod-name': 'foo-0',
    });
  });
  it('R6.8 a not-available pod in slot i blocks OrderedReady creation above i', () => {
    const s = scene({ replicas: 3 }, [ready(0), ready(1, { ready: false })], { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([]);
  });
});

describe('R6.9 which revision a new pod gets', () => {
  const slots = [pod({ name: 'foo-0', revision: 'c' }), null, pod({ name: 'foo-2', revision: 'c' })];
  const ctx = { ordinal: 1, start: 0, statusCurrentReplicas: 2, updateRevision: 'u' };
  it('rule 1: OnDelete → update revision', () => {
    expect(isCurrentRevisionNeeded(makeSet({ updateStrategy: { type: 'OnDelete' } }), slots, ctx)).toBe(
      false,
    );
  });
  it('rule 2: no rollingUpdate → current iff ordinal < start + status.currentReplicas', () => {
    const set = makeSet({ updateStrategy: { type: 'RollingUpdate' } });
    expect(isCurrentRevisionNeeded(set, slots, ctx)).toBe(true);
    expect(isCurrentRevisionNeeded(set, slots, { ...ctx, statusCurrentReplicas: 1 })).toBe(false);
  });
  it('rule 3: ordered → the first `partition` non-reserved ordinals are created at the current revision', () => {
    const set = (partition: number) =>
      makeSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition } } });
    expect(isCurrentRevisionNeeded(set(2), slots, ctx)).toBe(true); // before = 1, 2 ≤ 2
    expect(isCurrentRevisionNeeded(set(1), slots, ctx)).toBe(false); // 2 ≤ 1 is false
  });
  it('rule 4: unordered → current iff the other not-updated pods are fewer than partition', () => {
    const set = (partition: number) =>
      makeSet({
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition, unorderedUpdate: {} } },
      });
    expect(isCurrentRevisionNeeded(set(3), slots, ctx)).toBe(true); // notUpdated = 2 < 3
    expect(isCurrentRevisionNeeded(set(2), slots, ctx)).toBe(false);
  });
  it('§15 OnDelete creates new pods at the update revision (end to end)', () => {
    const s = scene({ replicas: 2, updateStrategy: { type: 'OnDelete' } }, [ready(0, { rev: 'old' })]);
    const create = run(s).actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any;
    expect(create.object.metadata.labels['controller-revision-hash']).toBe(s.newRev.metadata!.name);
    expect(create.object.spec.containers[0].image).toBe('nginx:new');
  });
  it('§15 with a partition, a recreated low ordinal is stamped from the current revision', () => {
    const s = scene(
      { replicas: 2, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } },
      [ready(1, { rev: 'new' })],
    );
    const create = run(s).actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any;
    expect(create.object.metadata.name).toBe('foo-0');
    expect(create.object.metadata.labels['controller-revision-hash']).toBe(s.oldRev.metadata!.name);
    expect(create.object.spec.containers[0].image).toBe('nginx:old');
  });
});

describe('§7 condemned phase and the scale budget', () => {
  it('R7.1 OrderedReady deletes one condemned pod per round, highest first', () => {
    const s = scene({ replicas: 1 }, [ready(0), ready(1), ready(2)], { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([['delete', 'ScaleDown', 'foo-2']]);
  });
  it('R7.1 OrderedReady waits for a terminating condemned pod', () => {
    const s = scene({ replicas: 1 }, [ready(0), ready(1), ready(2, { terminating: true })], {
      currentIsNew: true,
    });
    expect(podActions(run(s).actions)).toEqual([]);
  });
  it('R7.1 an unhealthy condemned pod blocks unless it is the firstUnhealthyPod', () => {
    const blocked = scene(
      { replicas: 1 },
      [ready(0), ready(1, { ready: false }), ready(2, { ready: false })],
      { currentIsNew: true },
    );
    // first unhealthy is foo-1; foo-2 (visited first) is not it → exit
    expect(podActions(run(blocked).actions)).toEqual([]);
    const lowest = scene({ replicas: 1 }, [ready(0), ready(1), ready(2, { ready: false })], {
      currentIsNew: true,
    });
    expect(podActions(run(lowest).actions)).toEqual([['delete', 'ScaleDown', 'foo-2']]);
  });
  it('R7.1 a hooked pod already in PreparingDelete changes nothing, so the next lower pod is visited', () => {
    const spec = { replicas: 1, lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } } };
    const s = scene(
      spec,
      [
        ready(0),
        ready(1),
        ready(2, { labels: { hold: 'true' }, lifecycle: 'PreparingDelete', ready: false }),
      ],
      {
        currentIsNew: true,
      },
    );
    expect(podActions(run(s).actions)).toEqual([['delete', 'ScaleDown', 'foo-1']]);
  });
  it('R7.2 Parallel deletes every non-terminating condemned pod at once, without readiness checks', () => {
    const s = scene(
      { replicas: 1, podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 1 } },
      [ready(0), ready(1, { ready: false }), ready(2), ready(3, { terminating: true })],
      { currentIsNew: true },
    );
    expect(podActions(run(s).actions)).toEqual([
      ['delete', 'ScaleDown', 'foo-2'],
      ['delete', 'ScaleDown', 'foo-1'],
    ]);
  });
  it('R7.3 scale-down happens before updates in the same round (Parallel)', () => {
    const s = scene(
      {
        replicas: 2,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      },
      [ready(0, { rev: 'old' }), ready(1, { rev: 'old' }), ready(2, { rev: 'old' })],
    );
    expect(podActions(run(s).actions)).toEqual([
      ['delete', 'ScaleDown', 'foo-2'],
      ['delete', 'RecreateUpdate', 'foo-1'],
    ]);
  });
  it.each([
    [2, 5, 2],
    ['50%', 5, 2],
    ['50', 5, 2],
    ['5', 100, 5],
    ['10%', 5, 1],
  ])('R7.4 scale budget of %j over %d replicas → %d', (value, replicas, want) => {
    expect(scaleMaxUnavailable(value, replicas)).toEqual({ budget: want });
  });
  it('R7.4 an unparsable scale maxUnavailable is an error', () => {
    expect(scaleMaxUnavailable('1.5%', 5).error).toBeDefined();
  });
  it('R7.5 TestScaleUpWithMaxUnavailable: Parallel, 5 replicas, budget 2 → pods 0 and 1, then break', () => {
    const s = scene(
      { replicas: 5, podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 2 } },
      [],
      { currentIsNew: true },
    );
    expect(podActions(run(s).actions)).toEqual([
      ['create', 'ScaleUp', 'foo-0'],
      ['create', 'ScaleUp', 'foo-1'],
    ]);
  });
  it('R7.5 pending pods consume the budget; once pod 1 is ready (pod 0 pending) pod 2 is created', () => {
    const spec = {
      replicas: 5,
      podManagementPolicy: 'Parallel' as const,
      scaleStrategy: { maxUnavailable: 2 },
    };
    const waiting = scene(spec, [ready(0, { phase: 'Pending' }), ready(1, { phase: 'Pending' })], {
      currentIsNew: true,
    });
    // (the refresh still sets InPlaceUpdateReady on the gated pending pods; nothing is created)
    expect(podActions(run(waiting).actions).filter(([verb]) => verb === 'create')).toEqual([]);
    const oneReady = scene(spec, [ready(0, { phase: 'Pending' }), ready(1)], { currentIsNew: true });
    expect(podActions(run(oneReady).actions).filter(([verb]) => verb === 'create')).toEqual([
      ['create', 'ScaleUp', 'foo-2'],
    ]);
  });
});
