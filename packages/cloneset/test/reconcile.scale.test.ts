// reconcileCloneSet, scale up (docs/reference/cloneset.md §7).
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import {
  actionsOf,
  makeCloneSet,
  makePod,
  makePods,
  makePvc,
  NOW,
  revisionOf,
  summary,
  UID,
  withImage,
} from './builders';

const run = (
  input: Parameters<typeof reconcileCloneSet>[0],
  options?: Parameters<typeof reconcileCloneSet>[1],
) => reconcileCloneSet(deepFreeze(input), options);
const createdPods = (r: ReturnType<typeof reconcileCloneSet>) =>
  actionsOf(r.actions, 'create', 'Pod').map((a) => (a as { object: Pod }).object);

describe('§7 scale up', () => {
  it('§7.2 a new pod: name <cloneset>-<id>, ownerRef, revision labels, instance id, readiness gate, PreparingNormal', () => {
    const cs = makeCloneSet({
      replicas: 3,
      template: {
        metadata: {
          labels: { app: 'sample', tier: 'web' },
          annotations: { note: 'x' },
          finalizers: ['example.com/f'],
        },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    });
    const r = run({ cloneSet: cs, pods: [], now: NOW }, { seed: 7 });
    const rev = actionsOf(r.actions, 'create', 'ControllerRevision')[0] as any;
    const revName: string = rev.object.metadata.name;
    const pods = createdPods(r);
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      const id = pod.metadata!.labels!['apps.kruise.io/cloneset-instance-id'];
      expect(id).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(pod.metadata!.name).toBe(`sample-${id}`);
      expect(pod.metadata!.generateName).toBe('sample-');
      expect(pod.metadata!.namespace).toBe('default');
      expect(pod.metadata!.ownerReferences).toEqual([
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'sample',
          uid: UID,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(pod.metadata!.labels).toMatchObject({
        app: 'sample',
        tier: 'web',
        'controller-revision-hash': revName,
        'pod-template-hash': revName.slice(revName.lastIndexOf('-') + 1),
        'lifecycle.apps.kruise.io/state': 'PreparingNormal',
      });
      expect(pod.metadata!.annotations).toEqual({ note: 'x', 'lifecycle.apps.kruise.io/timestamp': NOW });
      expect(pod.metadata!.finalizers).toEqual(['example.com/f']);
      expect(pod.spec!.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
    }
    const ids = pods.map((p) => p.metadata!.labels!['apps.kruise.io/cloneset-instance-id']);
    expect([...ids].sort()).toEqual(ids); // §7.1 ids are handed out in sorted order
    expect(actionsOf(r.actions, 'event').filter((e: any) => e.reason === 'SuccessfulCreate')).toHaveLength(3);
  });

  it('deterministic: the same input and seed give the same actions; another seed other names', () => {
    const input = { cloneSet: makeCloneSet(), pods: [], now: NOW };
    const a = run(input, { seed: 3 });
    const b = run(input, { seed: 3 });
    const c = run(input, { seed: 4 });
    expect(a.actions).toEqual(b.actions);
    expect(createdPods(a).map((p) => p.metadata!.name)).not.toEqual(
      createdPods(c).map((p) => p.metadata!.name),
    );
  });

  it('§7.2 PVCs: one per claim template, created before the pod, labelled and owned; the volume replaces a same-named one', () => {
    const cs = makeCloneSet({
      replicas: 1,
      volumeClaimTemplates: [
        { metadata: { name: 'data', labels: { vol: 'x' } }, spec: { accessModes: ['ReadWriteOnce'] } },
      ],
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx:1.25' }],
          volumes: [
            { name: 'data', emptyDir: {} },
            { name: 'cache', emptyDir: {} },
          ],
        },
      },
    });
    const r = run({ cloneSet: cs, pods: [], now: NOW });
    const kinds = actionsOf(r.actions, 'create').map((a: any) => a.object.kind);
    expect(kinds).toEqual(['ControllerRevision', 'PersistentVolumeClaim', 'Pod']);
    const pod = createdPods(r)[0];
    const id = pod.metadata!.labels!['apps.kruise.io/cloneset-instance-id'];
    const pvc = (actionsOf(r.actions, 'create', 'PersistentVolumeClaim')[0] as any).object;
    expect(pvc.metadata.name).toBe(`data-sample-${id}`);
    expect(pvc.metadata.labels).toEqual({
      vol: 'x',
      app: 'sample',
      'apps.kruise.io/cloneset-instance-id': id,
    });
    expect(pvc.metadata.ownerReferences[0]).toMatchObject({ kind: 'CloneSet', uid: UID, controller: true });
    expect(pvc.spec).toMatchObject({ accessModes: ['ReadWriteOnce'] });
    expect(pod.spec!.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: `data-sample-${id}` } },
      { name: 'cache', emptyDir: {} },
    ]);
  });

  it('§7.3 a PVC left by a vanished pod is reused: the new pod takes its instance id', () => {
    const cs = makeCloneSet({
      replicas: 1,
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }],
    });
    const r = run({ cloneSet: cs, pods: [], pvcs: [makePvc('data-sample-zzzzz', 'zzzzz')], now: NOW });
    expect(createdPods(r).map((p) => p.metadata!.name)).toEqual(['sample-zzzzz']);
    expect(actionsOf(r.actions, 'create', 'PersistentVolumeClaim')).toHaveLength(0);
  });

  it('§7.3 an id whose pod name is still taken (a terminating pod) is not reused', () => {
    const cs = makeCloneSet({ replicas: 1 });
    const rev = revisionOf(cs);
    const dying = makePod('sample-zzzzz', { revision: rev.metadata!.name!, deletionTimestamp: NOW });
    const r = run({
      cloneSet: cs,
      pods: [dying],
      revisions: [rev],
      pvcs: [makePvc('data-sample-zzzzz', 'zzzzz')],
      now: NOW,
    });
    const names = createdPods(r).map((p) => p.metadata!.name);
    expect(names).toHaveLength(1);
    expect(names[0]).not.toBe('sample-zzzzz');
  });

  it('§7.4 disablePVCReuse: a PVC of no pod is deleted, one of a terminating pod moves to that pod', () => {
    const cs = makeCloneSet({ replicas: 2, scaleStrategy: { disablePVCReuse: true } });
    const rev = revisionOf(cs).metadata!.name!;
    const live = makePod('sample-aaaaa', { revision: rev });
    const dying = makePod('sample-bbbbb', { revision: rev, deletionTimestamp: NOW });
    const pvcs = [makePvc('d-aaaaa', 'aaaaa'), makePvc('d-bbbbb', 'bbbbb'), makePvc('d-ccccc', 'ccccc')];
    const r = run({ cloneSet: cs, pods: [live, dying], revisions: [revisionOf(cs)], pvcs, now: NOW });
    expect(summary(r.actions).slice(0, 2)).toEqual([
      'patch:CleanupPVC:PersistentVolumeClaim/d-bbbbb',
      'delete:CleanupPVC:PersistentVolumeClaim/d-ccccc',
    ]);
    const patch = (r.actions[0] as any).patch;
    expect(patch.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'sample-bbbbb',
        uid: 'uid-sample-bbbbb',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    // the deleted PVC's id is not reused: the replacement pod gets a fresh id
    expect(createdPods(r).map((p) => p.metadata!.name)).not.toContain('sample-ccccc');
  });

  it('§7.1 under a partition the first scaleUpNumOldRevision new pods use the current revision', () => {
    // R=5, partition 3, 2 old + 1 new pods: scaleUp 2, scaleUpNumOldRevision = max(3 - 2, 0) = 1
    const oldCs = makeCloneSet();
    const cs = {
      ...withImage(oldCs, 'nginx:1.27'),
      spec: { ...withImage(oldCs, 'nginx:1.27').spec, updateStrategy: { partition: 3 } },
    };
    const oldRev = revisionOf(oldCs, 1);
    const newRev = revisionOf(cs, 2);
    const status = {
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 1,
      updatedReadyReplicas: 1,
      currentRevision: oldRev.metadata!.name,
      updateRevision: newRev.metadata!.name,
    };
    const pods = [
      ...makePods(2, oldRev.metadata!.name!),
      makePod('sample-n0', { revision: newRev.metadata!.name!, image: 'nginx:1.27' }),
    ];
    const r = run({ cloneSet: { ...cs, status }, pods, revisions: [oldRev, newRev], now: NOW });
    const created = createdPods(r);
    expect(created).toHaveLength(2);
    expect(created[0].metadata!.labels!['controller-revision-hash']).toBe(oldRev.metadata!.name);
    expect(created[0].spec!.containers[0].image).toBe('nginx:1.25');
    expect(created[1].metadata!.labels!['controller-revision-hash']).toBe(newRev.metadata!.name);
    expect(created[1].spec!.containers[0].image).toBe('nginx:1.27');
  });

  it('D7 scaleStrategy.maxUnavailable limits creations while pods are unavailable (event ScaleUpLimited)', () => {
    const cs = makeCloneSet({ scaleStrategy: { maxUnavailable: 1 } });
    const rev = revisionOf(cs);
    const name = rev.metadata!.name!;
    const pods = [
      ...makePods(2, name),
      makePod('sample-u0', { revision: name, ready: false, running: false }),
    ];
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(createdPods(r)).toHaveLength(0);
    expect(r.actions.some((a) => a.verb === 'event' && a.reason === 'ScaleUpLimited')).toBe(true);
    const allReady = run({ cloneSet: cs, pods: makePods(3, name), revisions: [rev], now: NOW });
    expect(createdPods(allReady)).toHaveLength(1); // min(scaleUpNum 2, 1 - 0)
  });
});
