// docs/reference/statefulset.md §12 (claims and retention), §13 (status) and §2.3 (v1alpha1) — one `it`
// per rule / worked example, including the §13.3 worked rollout.
import type { StatefulSet } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { desiredClaimRefs } from '../src/pvc';
import { completeRollingUpdate, computeReplicaCounts, statusNeedsWrite } from '../src/status';
import { NOW_MS, pod } from './fixtures';
import { podActions, run, scene } from './scene';
import { makeSet } from './world';

describe('§12 claims and the retention policy', () => {
  it.each([
    ['Retain', 'Retain', true, false, false],
    ['Retain', 'Retain', false, false, false],
    ['Retain', 'Delete', true, true, false],
    ['Retain', 'Delete', false, true, false],
    ['Delete', 'Retain', true, false, false],
    ['Delete', 'Retain', false, false, true],
    ['Delete', 'Delete', true, true, false],
    ['Delete', 'Delete', false, false, true],
  ] as const)(
    'R12.2 whenScaled %s, whenDeleted %s, in range %s → set ref %s, pod ref %s',
    (whenScaled, whenDeleted, inRange, setRef, podRef) => {
      const set = makeSet({ persistentVolumeClaimRetentionPolicy: { whenScaled, whenDeleted } });
      expect(desiredClaimRefs(set, inRange)).toEqual({ setRef, podRef });
    },
  );
  it('R12.2 nil or unknown policy values mean Retain/Retain', () => {
    expect(desiredClaimRefs(makeSet({}), false)).toEqual({ setRef: false, podRef: false });
    const odd = makeSet({
      persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Sometimes' as any },
    });
    expect(desiredClaimRefs(odd, false)).toEqual({ setRef: false, podRef: false });
  });
  const vct = [{ metadata: { name: 'data' } }];
  it('R12.2 a new claim carries the set ownerReference when whenDeleted is Delete', () => {
    const r = run(
      scene(
        {
          replicas: 1,
          volumeClaimTemplates: vct,
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
        },
        [],
        { currentIsNew: true },
      ),
    );
    const claim = r.actions.find(
      (a) => a.verb === 'create' && a.object.kind === 'PersistentVolumeClaim',
    ) as any;
    expect(claim.object.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'foo', uid: 'set-uid' },
    ]);
  });
  it('R12.2 / §5 step 7 the claims of a condemned pod get its pod ownerReference before it is deleted', () => {
    const s = scene(
      {
        replicas: 1,
        volumeClaimTemplates: vct,
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' },
      },
      [{ ordinal: 0 }, { ordinal: 1 }],
      { currentIsNew: true },
    );
    s.pods = s.pods.map((p) => ({
      ...p,
      spec: {
        ...p.spec!,
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${p.metadata!.name}` } }],
      },
    }));
    s.pvcs = ['data-foo-0', 'data-foo-1'].map((name) => ({ metadata: { name, namespace: 'default' } }));
    const r = run(s);
    expect(
      r.actions
        .filter((a) => a.verb !== 'event' && a.verb !== 'updateStatus')
        .map((a: any) => [a.verb, a.reason, a.target?.name]),
    ).toEqual([
      ['patch', 'UpdateClaimOwnerRefs', 'data-foo-1'],
      ['delete', 'ScaleDown', 'foo-1'],
    ]);
    const patch = (r.actions[0] as any).patch;
    expect(patch.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Pod', name: 'foo-1', uid: 'uid-1' },
    ]);
  });
});

describe('§13 status', () => {
  const pods = [
    pod({ name: 'foo-0', revision: 'c', ready: true, readyForSeconds: 100 }),
    pod({ name: 'foo-1', revision: 'u', ready: true, readyForSeconds: 5 }),
    pod({ name: 'foo-2', revision: 'u', ready: true, readyForSeconds: 100, terminating: true }),
    pod({ name: 'foo-3', revision: 'u', phase: '' }),
    pod({
      name: 'foo-4',
      revision: 'u',
      ready: true,
      readyForSeconds: 100,
      lifecycleState: 'PreparingNormal',
    }),
  ];
  it('§13.1 counting: replicas = created; ready/available include terminating; current/updated exclude terminating', () => {
    expect(computeReplicaCounts(pods, 'c', 'u', 10, NOW_MS)).toEqual({
      replicas: 4,
      readyReplicas: 4,
      availableReplicas: 2,
      currentReplicas: 1,
      updatedReplicas: 2,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 1,
    });
  });
  it('§13.1 when C == U a pod counts in both currentReplicas and updatedReplicas', () => {
    const c = computeReplicaCounts([pod({ name: 'foo-0', revision: 'r' })], 'r', 'r', 0, NOW_MS);
    expect([c.currentReplicas, c.updatedReplicas]).toEqual([1, 1]);
  });
  it('R13.2 complete when updated == replicas == ready (RollingUpdate only)', () => {
    const st = {
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 0,
      updatedReplicas: 3,
      currentRevision: 'c',
      updateRevision: 'u',
    };
    expect(completeRollingUpdate(makeSet(), st)).toMatchObject({ currentReplicas: 3, currentRevision: 'u' });
    expect(completeRollingUpdate(makeSet({ updateStrategy: { type: 'OnDelete' } }), st)).toBe(st);
    expect(completeRollingUpdate(makeSet(), { ...st, readyReplicas: 2 }).currentRevision).toBe('c');
  });
  it('R13.3 quirk: updatedReadyReplicas, updatedAvailableReplicas, collisionCount and conditions alone never trigger a write', () => {
    const st = {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      observedGeneration: 2,
    };
    expect(
      statusNeedsWrite(st, {
        ...st,
        updatedReadyReplicas: 5,
        updatedAvailableReplicas: 5,
        collisionCount: 3,
        conditions: [{ type: 'X', status: 'True' }],
      }),
    ).toBe(false);
    expect(statusNeedsWrite(st, { ...st, readyReplicas: 0 })).toBe(true);
    expect(statusNeedsWrite(st, { ...st, observedGeneration: 3 })).toBe(true);
    expect(
      statusNeedsWrite(st, {
        ...st,
        volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 0, compatibleReadyReplicas: 0 }],
      }),
    ).toBe(true);
  });
  it('§13.2 labelSelector is the canonical selector string; observedGeneration the set generation', () => {
    const s = scene(
      {
        replicas: 0,
        selector: {
          matchLabels: { b: '2', app: 'foo' },
          matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }],
        } as any,
      },
      [],
      { currentIsNew: true },
    );
    s.set = {
      ...s.set,
      metadata: { ...s.set.metadata, generation: 7 },
      spec: {
        ...s.set.spec,
        template: { ...s.set.spec.template, metadata: { labels: { app: 'foo', b: '2', c: 'x' } } },
      },
    };
    const r = run(s);
    expect(r.status.labelSelector).toBe('app=foo,b=2,c in (x,y)');
    expect(r.status.observedGeneration).toBe(7);
  });
  it('§13.2 volumeClaims: compatible when the claim requests at least the template; ready when its capacity does too', () => {
    const vct = [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '2Gi' } } } }];
    const s = scene(
      { replicas: 3, volumeClaimTemplates: vct as any },
      [{ ordinal: 0 }, { ordinal: 1 }, { ordinal: 2 }],
      { currentIsNew: true },
    );
    s.pods = s.pods.map((p) => ({
      ...p,
      spec: {
        ...p.spec!,
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${p.metadata!.name}` } }],
      },
    }));
    s.pvcs = [
      {
        metadata: { name: 'data-foo-0', namespace: 'default' },
        spec: { resources: { requests: { storage: '2Gi' } } },
        status: { capacity: { storage: '2Gi' } },
      },
      {
        metadata: { name: 'data-foo-1', namespace: 'default' },
        spec: { resources: { requests: { storage: '2048Mi' } } },
        status: { capacity: { storage: '1Gi' } },
      },
      {
        metadata: { name: 'data-foo-2', namespace: 'default' },
        spec: { resources: { requests: { storage: '1Gi' } } },
      },
    ];
    expect(run(s).status.volumeClaims).toEqual([
      { volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 1 },
    ]);
  });
  it('§13.2 conditions are built fresh each round: none after a clean round', () => {
    const s = scene({ replicas: 1 }, [{ ordinal: 0 }], { currentIsNew: true });
    s.set = {
      ...s.set,
      status: { ...s.set.status!, conditions: [{ type: 'FailedCreatePod', status: 'True' }] },
    };
    expect(run(s).status.conditions).toBeUndefined();
  });
  describe('§13.3 worked example: 3 pods at r0, template now r1, ReCreate, OrderedReady', () => {
    const spec = {
      replicas: 3,
      updateStrategy: { type: 'RollingUpdate' as const, rollingUpdate: { partition: 0, maxUnavailable: 1 } },
    };
    it('round 1: pod 2 deleted; replicas 3, ready 3, current 2, updated 0', () => {
      const r = run(
        scene(
          spec,
          [0, 1, 2].map((o) => ({ ordinal: o, rev: 'old' })),
        ),
      );
      expect(podActions(r.actions)).toEqual([['delete', 'RecreateUpdate', 'foo-2']]);
      expect(r.status).toMatchObject({
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 2,
        updatedReplicas: 0,
      });
    });
    it('round 2: pod 2 terminating → replica phase exits; replicas 3, ready 3, current 2, updated 0', () => {
      const r = run(
        scene(spec, [
          { ordinal: 0, rev: 'old' },
          { ordinal: 1, rev: 'old' },
          { ordinal: 2, rev: 'old', terminating: true },
        ]),
      );
      expect(podActions(r.actions)).toEqual([]);
      expect(r.status).toMatchObject({
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 2,
        updatedReplicas: 0,
      });
    });
    it('round 3: pod 2 gone → created at r1; replicas 2', () => {
      const s = scene(spec, [
        { ordinal: 0, rev: 'old' },
        { ordinal: 1, rev: 'old' },
      ]);
      const r = run(s);
      const create = r.actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any;
      expect(create.object.metadata.name).toBe('foo-2');
      expect(create.object.metadata.labels['controller-revision-hash']).toBe(s.newRev.metadata!.name);
      expect(r.status.replicas).toBe(2);
    });
    it('when pod 2 is ready, pod 1 is deleted', () => {
      const r = run(scene(spec, [{ ordinal: 0, rev: 'old' }, { ordinal: 1, rev: 'old' }, { ordinal: 2 }]));
      expect(podActions(r.actions)).toEqual([['delete', 'RecreateUpdate', 'foo-1']]);
    });
    it('all three at r1 and ready → currentRevision := r1, currentReplicas := 3', () => {
      const s = scene(spec, [{ ordinal: 0 }, { ordinal: 1 }, { ordinal: 2 }]);
      const r = run(s);
      expect(r.status).toMatchObject({
        currentRevision: s.newRev.metadata!.name,
        currentReplicas: 3,
        updatedReplicas: 3,
      });
      expect(r.actions.some((a) => a.verb === 'updateStatus')).toBe(true);
    });
  });
});

describe('§2.3 v1alpha1', () => {
  it('v1beta1-only fields are dropped and the status has the v1alpha1 shape', () => {
    const s = scene({ replicas: 2, reserveOrdinals: [0] }, [], { currentIsNew: true });
    const alpha: StatefulSet = { ...s.set, apiVersion: 'apps.kruise.io/v1alpha1' };
    const r = run({ ...s, set: alpha });
    // reserveOrdinals ignored: pod 0 is created
    expect(podActions(r.actions)).toEqual([['create', 'ScaleUp', 'foo-0']]);
    expect(r.status.updatedReadyReplicas).toBeUndefined();
    expect(r.status.volumeClaims).toBeUndefined();
    const write = r.actions.find((a) => a.verb === 'updateStatus') as any;
    expect(write.target.apiVersion).toBe('apps.kruise.io/v1alpha1');
    const create = r.actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any;
    expect(create.object.metadata.ownerReferences[0].apiVersion).toBe('apps.kruise.io/v1beta1');
  });
});

describe('§5 step 4 and R4.1', () => {
  it('a set being deleted gets only its status', () => {
    const s = scene({ replicas: 3 }, [{ ordinal: 0 }], { currentIsNew: true });
    s.set = { ...s.set, metadata: { ...s.set.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } };
    expect(podActions(run(s).actions)).toEqual([]);
  });
  it('R4.1 an orphan member matching the selector is adopted; a pod of another name is ignored', () => {
    const s = scene({ replicas: 1 }, [{ ordinal: 0 }], { currentIsNew: true });
    s.pods = [
      { ...s.pods[0], metadata: { ...s.pods[0].metadata, ownerReferences: [] } },
      { ...s.pods[0], metadata: { ...s.pods[0].metadata, name: 'bar-0', ownerReferences: [] } },
    ];
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'Adopt', 'foo-0']]);
    expect(r.status.replicas).toBe(1);
  });
  it('R4.1 an owned pod whose labels left the selector is released and not counted', () => {
    const s = scene({ replicas: 1 }, [{ ordinal: 0, labels: { app: 'other' } }], { currentIsNew: true });
    const r = run(s);
    expect(podActions(r.actions)[0]).toEqual(['patch', 'Release', 'foo-0']);
    expect(r.status.replicas).toBe(0);
  });
});
