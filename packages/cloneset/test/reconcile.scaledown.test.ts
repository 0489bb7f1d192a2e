// reconcileCloneSet, scale down and the pipeline around Scale (docs/reference/cloneset.md §1, §3, §8).
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
  withImage,
} from './builders';

const run = (
  input: Parameters<typeof reconcileCloneSet>[0],
  options?: Parameters<typeof reconcileCloneSet>[1],
) => reconcileCloneSet(deepFreeze(input), options);
const _createdPods = (r: ReturnType<typeof reconcileCloneSet>) =>
  actionsOf(r.actions, 'create', 'Pod').map((a) => (a as { object: Pod }).object);

describe('§8 scale down', () => {
  const cs2 = makeCloneSet({ replicas: 2 });
  const rev = revisionOf(cs2);
  const name = rev.metadata!.name!;

  it('§8.3 deletion order: unscheduled before scheduled, not-ready before ready; unready pods ignore the limit', () => {
    const pods = [
      makePod('sample-p0', { revision: name }),
      makePod('sample-p1', { revision: name, nodeName: '', running: false, ready: false }),
      makePod('sample-p2', { revision: name, ready: false }),
      makePod('sample-p3', { revision: name }),
    ];
    const r = run({ cloneSet: cs2, pods, revisions: [rev], now: NOW });
    expect(summary(r.actions).filter((s) => s.startsWith('delete'))).toEqual([
      'delete:ScaleDown:Pod/sample-p1',
      'delete:ScaleDown:Pod/sample-p2',
    ]);
    expect(actionsOf(r.actions, 'delete', 'Pod')[0]).toMatchObject({
      preconditions: { uid: 'uid-sample-p1' },
    });
  });

  it('§8.3 rule 5: lower pod-deletion-cost first', () => {
    const cs = makeCloneSet({ replicas: 1 });
    const costs = ['100', '5', '50'];
    const pods = costs.map((c, i) =>
      makePod(`sample-p${i}`, {
        revision: name,
        annotations: { 'controller.kubernetes.io/pod-deletion-cost': c },
      }),
    );
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(summary(r.actions).filter((s) => s.startsWith('delete'))).toEqual([
      'delete:ScaleDown:Pod/sample-p1',
      'delete:ScaleDown:Pod/sample-p2',
    ]);
  });

  it('§8.3 deleteReadyLimit: ready pods beyond maxUnavailable + (N - R) - unavailable wait', () => {
    // R=1, maxUnavailable 0 → ceil: 0... use maxSurge 0, maxUnavailable 1: limit = 1 + (4-1) - 1 = 3
    const cs = makeCloneSet({ replicas: 1, updateStrategy: { maxUnavailable: 1 } });
    const pods = [...makePods(3, name), makePod('sample-u0', { revision: name, ready: false })];
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(actionsOf(r.actions, 'delete', 'Pod')).toHaveLength(3);
    // minReadySeconds makes the ready pods unavailable: limit = max(1 + 3 - 4, 0) = 0 → only the unready pod goes
    const slow = makeCloneSet({ replicas: 1, minReadySeconds: 99999, updateStrategy: { maxUnavailable: 1 } });
    const r2 = run({ cloneSet: slow, pods, revisions: [rev], now: NOW });
    expect(summary(r2.actions).filter((s) => s.startsWith('delete'))).toEqual([
      'delete:ScaleDown:Pod/sample-u0',
    ]);
  });

  it('§8.3 scaleDownNumOldRevision: old pods go first', () => {
    const oldCs = makeCloneSet({ replicas: 2 });
    const cs = withImage(oldCs, 'nginx:1.27');
    const oldRev = revisionOf(oldCs, 1);
    const newRev = revisionOf(cs, 2);
    const pods = [
      ...makePods(2, newRev.metadata!.name!, { image: 'nginx:1.27' }, 'n'),
      ...makePods(2, oldRev.metadata!.name!, {}, 'o'),
    ];
    const status = {
      replicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
      updatedReplicas: 2,
      updatedReadyReplicas: 2,
      currentRevision: oldRev.metadata!.name,
    };
    const r = run({ cloneSet: { ...cs, status }, pods, revisions: [oldRev, newRev], now: NOW });
    expect(summary(r.actions).filter((s) => s.startsWith('delete'))).toEqual([
      'delete:ScaleDown:Pod/sample-o0',
      'delete:ScaleDown:Pod/sample-o1',
    ]);
  });

  it('§8.2 specified delete (podsToDelete or label): deleted with its PVCs, ready ones within deleteReadyLimit', () => {
    const cs = makeCloneSet({
      replicas: 3,
      updateStrategy: { maxUnavailable: 1 },
      scaleStrategy: { podsToDelete: ['sample-p1'] },
    });
    const pods = [
      ...makePods(2, name),
      makePod('sample-p2', { revision: name, labels: { 'apps.kruise.io/specified-delete': '' } }),
    ];
    const pvcs = [makePvc('data-sample-p1', 'p1'), makePvc('data-sample-p2', 'p2')];
    const r = run({ cloneSet: cs, pods, pvcs, revisions: [rev], now: NOW });
    // deleteReadyLimit = 1 + 0 - 0 = 1: the first in list order goes, with its PVC
    expect(summary(r.actions).filter((s) => s.startsWith('delete'))).toEqual([
      'delete:SpecifiedDelete:Pod/sample-p1',
      'delete:SpecifiedDelete:PersistentVolumeClaim/data-sample-p1',
    ]);
    // an unready specified pod is always deletable
    const pods2 = [
      ...makePods(2, name),
      makePod('sample-p2', {
        revision: name,
        ready: false,
        labels: { 'apps.kruise.io/specified-delete': 'true' },
      }),
    ];
    const r2 = run({
      cloneSet: cs,
      pods: pods2,
      pvcs: [makePvc('data-sample-p1', 'p1')],
      revisions: [rev],
      now: NOW,
    });
    expect(actionsOf(r2.actions, 'delete', 'Pod').map((a: any) => a.target.name)).toEqual([
      'sample-p1',
      'sample-p2',
    ]);
  });

  it('§1.1 step 8 (quirk 8): while a pod is PreparingDelete, ordinary scale-in waits', () => {
    const cs = makeCloneSet({ replicas: 1, lifecycle: { preDelete: { finalizersHandler: ['hook/x'] } } });
    const pods = [
      ...makePods(2, name),
      makePod('sample-pd', { revision: name, state: 'PreparingDelete', finalizers: ['hook/x'] }),
    ];
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(actionsOf(r.actions, 'delete')).toHaveLength(0);
    expect(actionsOf(r.actions, 'patch', 'Pod')).toHaveLength(0);
  });

  it('§8.2 preDelete hook: a hooked pod moves to PreparingDelete instead of being deleted; deleted once unhooked', () => {
    const lifecycle = { preDelete: { finalizersHandler: ['hook/x'], markPodNotReady: true } };
    const cs = makeCloneSet({ replicas: 2, lifecycle });
    const gates = ['InPlaceUpdateReady', 'KruisePodReady'];
    const pods = [
      ...makePods(2, name),
      makePod('sample-h0', { revision: name, ready: false, finalizers: ['hook/x'], readinessGates: gates }),
    ];
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(summary(r.actions).filter((s) => !s.startsWith('updateStatus'))).toEqual([
      'patch:PreparingDelete:Pod/sample-h0',
    ]);
    const patch = (actionsOf(r.actions, 'patch', 'Pod')[0] as any).patch;
    expect(patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('PreparingDelete');
    expect(patch.metadata.annotations['lifecycle.apps.kruise.io/timestamp']).toBe(NOW);
    const kpr = patch.status.conditions.find((c: any) => c.type === 'KruisePodReady');
    expect(JSON.parse(kpr.message)).toEqual([{ userAgent: 'Lifecycle', key: 'preDeleteHook' }]);
    // the hook owner removes the finalizer: the pod is deleted (with its PVC)
    const unhooked = makePod('sample-h0', {
      revision: name,
      ready: false,
      state: 'PreparingDelete',
      readinessGates: gates,
    });
    const r2 = run({
      cloneSet: cs,
      pods: [...makePods(2, name), unhooked],
      pvcs: [makePvc('data-sample-h0', 'h0')],
      revisions: [rev],
      now: NOW,
    });
    expect(summary(r2.actions).filter((s) => s.startsWith('delete'))).toEqual([
      'delete:PreparingDelete:Pod/sample-h0',
      'delete:PreparingDelete:PersistentVolumeClaim/data-sample-h0',
    ]);
  });

  it('§8.1 scaling back up cancels PreparingDelete to PreparingNormal (quirk 13), not with markPodNotReady nor for specified pods', () => {
    const lifecycle = { preDelete: { finalizersHandler: ['hook/x'] } };
    const cs = makeCloneSet({ replicas: 3, lifecycle });
    const pods = [
      ...makePods(2, name),
      makePod('sample-pd', { revision: name, state: 'PreparingDelete', finalizers: ['hook/x'] }),
    ];
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(summary(r.actions).filter((s) => !s.startsWith('updateStatus'))).toEqual([
      'patch:CancelPreparingDelete:Pod/sample-pd',
    ]);
    expect((r.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe(
      'PreparingNormal',
    );
    const marked = makeCloneSet({
      replicas: 3,
      lifecycle: { preDelete: { ...lifecycle.preDelete, markPodNotReady: true } },
    });
    expect(
      actionsOf(run({ cloneSet: marked, pods, revisions: [rev], now: NOW }).actions, 'patch'),
    ).toHaveLength(0);
    const specified = makeCloneSet({
      replicas: 3,
      lifecycle,
      scaleStrategy: { podsToDelete: ['sample-pd'] },
    });
    expect(
      actionsOf(run({ cloneSet: specified, pods, revisions: [rev], now: NOW }).actions, 'patch', 'Pod'),
    ).toHaveLength(0);
  });
});

describe('§1 pipeline rules around Scale', () => {
  it('§1 step 12: Scale and Update never run in the same reconcile', () => {
    const oldCs = makeCloneSet({ updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } });
    const cs = withImage(oldCs, 'nginx:1.27');
    const oldRev = revisionOf(oldCs, 1);
    const newRev = revisionOf(cs, 2);
    const status = {
      replicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      currentRevision: oldRev.metadata!.name,
    };
    const pods = makePods(4, oldRev.metadata!.name!);
    const r = run({ cloneSet: { ...cs, status }, pods, revisions: [oldRev, newRev], now: NOW });
    expect(
      summary(r.actions)
        .filter((s) => !s.startsWith('updateStatus'))
        .map((s) => s.split(':').slice(0, 2).join(':')),
    ).toEqual(['create:ScaleUp']);
    // quirk 12: a scale-up that creates nothing (scaleUpLimit 0) lets Update run in the same reconcile
    const limited = { ...cs, spec: { ...cs.spec, scaleStrategy: { maxUnavailable: 0 } }, status };
    const r2 = run({ cloneSet: limited, pods, revisions: [oldRev, newRev], now: NOW });
    expect(actionsOf(r2.actions, 'create', 'Pod')).toHaveLength(0);
    // updateMaxUnavailable = 2 + 4 - 5 = 1 → one pod updated in place
    expect(summary(r2.actions).filter((s) => s.startsWith('patch'))).toEqual([
      'patch:InPlaceUpdate:Pod/sample-p0',
    ]);
  });

  it('§1 step 14: names of pods that no longer exist are removed from podsToDelete', () => {
    const cs = makeCloneSet({
      replicas: 2,
      scaleStrategy: { podsToDelete: ['gone', 'sample-p0'] },
      updateStrategy: { maxUnavailable: 0, maxSurge: 1 },
    });
    const rev = revisionOf(cs);
    const r = run({ cloneSet: cs, pods: makePods(2, rev.metadata!.name!), revisions: [rev], now: NOW });
    const patch = actionsOf(r.actions, 'patch', 'CloneSet')[0] as any;
    expect(patch).toMatchObject({ patchType: 'merge', reason: 'PodsToDeleteCleanup' });
    expect(patch.patch).toEqual({ spec: { scaleStrategy: { podsToDelete: ['sample-p0'] } } });
  });

  it('§3.2 orphans are never adopted; an owned pod whose labels left the selector is released and ignored', () => {
    const cs = makeCloneSet({ replicas: 2 });
    const rev = revisionOf(cs);
    const n = rev.metadata!.name!;
    const orphan = makePod('sample-orphan', { revision: n, ownerUid: null });
    const moved = makePod('sample-moved', { revision: n, labels: { app: 'other' } });
    const r = run({ cloneSet: cs, pods: [...makePods(2, n), orphan, moved], revisions: [rev], now: NOW });
    expect(summary(r.actions).filter((s) => !s.startsWith('updateStatus'))).toEqual([
      'patch:ReleasePod:Pod/sample-moved',
    ]);
    expect((r.actions[0] as any).patch).toEqual({ metadata: { ownerReferences: null } });
    expect(r.status.replicas).toBe(2);
  });

  it('§1 step 4: finished and terminating pods are not counted', () => {
    const cs = makeCloneSet({ replicas: 2 });
    const rev = revisionOf(cs);
    const n = rev.metadata!.name!;
    const running = makePod('sample-f', { revision: n });
    const failed = { ...running, status: { ...running.status, phase: 'Failed' } };
    const dying = makePod('sample-d', { revision: n, deletionTimestamp: NOW });
    const r = run({ cloneSet: cs, pods: [...makePods(2, n), failed, dying], revisions: [rev], now: NOW });
    expect(actionsOf(r.actions, 'create', 'Pod')).toHaveLength(0);
    expect(actionsOf(r.actions, 'delete')).toHaveLength(0);
    expect(r.status.replicas).toBe(2);
  });

  it('§1 step 12: a CloneSet being deleted is not synced, its status is still computed', () => {
    const cs = makeCloneSet({ replicas: 3 }, { deletionTimestamp: NOW });
    const rev = revisionOf(cs);
    const r = run({ cloneSet: cs, pods: makePods(1, rev.metadata!.name!), revisions: [rev], now: NOW });
    expect(actionsOf(r.actions, 'create', 'Pod')).toHaveLength(0);
    expect(r.status.replicas).toBe(1);
  });
});
