// reconcileCloneSet: revisions (docs/reference/cloneset.md §12), status and its write rule (§13),
// and the requeue time (§1 step 16).
import { setDefaultsCloneSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { planRevisions } from '../src/revisions';
import { actionsOf, makeCloneSet, makePod, makePods, NOW, revisionOf, UID, withImage } from './builders';

const run = (
  input: Parameters<typeof reconcileCloneSet>[0],
  options?: Parameters<typeof reconcileCloneSet>[1],
) => reconcileCloneSet(deepFreeze(input), options);

describe('§12 revisions', () => {
  it('the first reconcile creates the update revision: number 1, template labels + hash, CloneSet annotations + VCT hash, owner', () => {
    const cs = makeCloneSet({ replicas: 0 }, { annotations: { team: 'a' } });
    const r = run({ cloneSet: cs, pods: [], now: NOW });
    const rev = (actionsOf(r.actions, 'create', 'ControllerRevision')[0] as any).object as ControllerRevision;
    const hash = rev.metadata!.name!.slice('sample-'.length);
    expect(rev.revision).toBe(1);
    expect(rev.metadata!.labels).toEqual({ app: 'sample', 'controller.kubernetes.io/hash': hash });
    expect(rev.metadata!.annotations).toEqual({
      team: 'a',
      'kruise.io/cloneset-volumeclaimtemplate-hash': '',
    });
    expect(rev.metadata!.ownerReferences![0]).toMatchObject({ kind: 'CloneSet', uid: UID, controller: true });
    expect((rev.data as any).spec.template.$patch).toBe('replace');
    expect(r.status.updateRevision).toBe(rev.metadata!.name);
    expect(r.status.currentRevision).toBe(rev.metadata!.name);
  });

  it('an unchanged template reuses the latest revision; a changed one creates revision 2', () => {
    const cs = makeCloneSet({ replicas: 0 });
    const rev1 = revisionOf(cs, 1);
    expect(
      actionsOf(run({ cloneSet: cs, pods: [], revisions: [rev1], now: NOW }).actions, 'create'),
    ).toHaveLength(0);
    const r = run({ cloneSet: withImage(cs, 'nginx:2'), pods: [], revisions: [rev1], now: NOW });
    expect((actionsOf(r.actions, 'create', 'ControllerRevision')[0] as any).object.revision).toBe(2);
  });

  it('rollback: an older equal revision gets the next number, keeps its name; its pods count as updated at once', () => {
    const a = makeCloneSet({ replicas: 2 });
    const b = withImage(a, 'nginx:2');
    const revA = revisionOf(a, 1);
    const revB = revisionOf(b, 2);
    const pods = makePods(2, revA.metadata!.name!);
    const status = {
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      currentRevision: revA.metadata!.name,
      updateRevision: revB.metadata!.name,
    };
    const r = run({ cloneSet: { ...a, status }, pods, revisions: [revA, revB], now: NOW });
    const update = actionsOf(r.actions, 'update', 'ControllerRevision');
    expect(update).toHaveLength(1);
    expect((update[0] as any).object).toMatchObject({ revision: 3, metadata: { name: revA.metadata!.name } });
    expect(r.status).toMatchObject({ updateRevision: revA.metadata!.name, updatedReplicas: 2 });
    expect(actionsOf(r.actions, 'patch', 'Pod')).toHaveLength(0);
  });

  it('collision: a revision with the candidate name but other content raises collisionCount', () => {
    const cs = makeCloneSet({ replicas: 0 });
    const rev = revisionOf(cs, 1);
    const impostor = {
      ...rev,
      data: { spec: { template: { metadata: { labels: { app: 'x' } }, $patch: 'replace' } } },
    } as ControllerRevision;
    const r = run({ cloneSet: cs, pods: [], revisions: [impostor], now: NOW });
    const created = (actionsOf(r.actions, 'create', 'ControllerRevision')[0] as any).object;
    expect(created.metadata.name).not.toBe(rev.metadata!.name);
    expect(r.status.collisionCount).toBe(1);
    const expectedName = planRevisions(
      { ...setDefaultsCloneSet(cs), status: { collisionCount: 1 } as any },
      [],
    ).updateRevision.metadata!.name;
    expect(created.metadata.name).toBe(expectedName);
  });

  it('currentRevision: the one named in status, or the update revision when it no longer exists', () => {
    const a = makeCloneSet({ replicas: 1 });
    const b = withImage(a, 'nginx:2');
    const revA = revisionOf(a, 1);
    const revB = revisionOf(b, 2);
    const pods = makePods(1, revA.metadata!.name!);
    const st = (current: string) => ({
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      currentRevision: current,
    });
    expect(
      run({ cloneSet: { ...b, status: st(revA.metadata!.name!) }, pods, revisions: [revA, revB], now: NOW })
        .status.currentRevision,
    ).toBe(revA.metadata!.name);
    expect(
      run({ cloneSet: { ...b, status: st('gone') }, pods, revisions: [revA, revB], now: NOW }).status
        .currentRevision,
    ).toBe(revB.metadata!.name);
  });

  it('history truncation: among non-live revisions the oldest beyond revisionHistoryLimit are deleted', () => {
    const images = ['nginx:1', 'nginx:2', 'nginx:3', 'nginx:4', 'nginx:5'];
    const base = makeCloneSet({ replicas: 2, revisionHistoryLimit: 1 });
    const revs = images.map((img, i) => revisionOf(withImage(base, img), i + 1));
    const cs = withImage(base, 'nginx:5');
    const status = {
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      updatedReplicas: 1,
      updatedReadyReplicas: 1,
      currentRevision: revs[3].metadata!.name,
    };
    // live: r4 (current), r5 (update), r2 (a pod); non-live r1, r3 → keep 1 → delete r1
    const pods = [
      makePod('sample-a', { revision: revs[4].metadata!.name! }),
      makePod('sample-b', { revision: revs[1].metadata!.name! }),
    ];
    const r = run({ cloneSet: { ...cs, status }, pods, revisions: revs, now: NOW });
    const deleted = actionsOf(r.actions, 'delete', 'ControllerRevision').map((a: any) => a.target.name);
    expect(deleted).toEqual([revs[0].metadata!.name]);
  });
});

describe('§13 status', () => {
  it('every field, from the pods as listed before this reconcile', () => {
    const old = makeCloneSet({ replicas: 4, minReadySeconds: 30, updateStrategy: { partition: 1 } });
    const cs = withImage(old, 'nginx:2');
    const revA = revisionOf(old, 1);
    const revB = revisionOf(cs, 2);
    const a = revA.metadata!.name!;
    const b = revB.metadata!.name!;
    const pods = [
      makePod('sample-p0', { revision: a }), // ready, available
      makePod('sample-p1', { revision: b, readySince: '2024-01-01T00:59:50Z' }), // ready 10 s: not available
      makePod('sample-p2', { revision: b, state: 'Updating' }), // ready, not available (lifecycle)
      makePod('sample-p3', { revision: b }), // ready, available
    ];
    const status0 = {
      replicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      currentRevision: a,
    };
    const r = run({
      cloneSet: { ...cs, metadata: { ...cs.metadata, generation: 3 }, status: status0 },
      pods,
      revisions: [revA, revB],
      now: NOW,
    });
    expect(r.status).toEqual({
      observedGeneration: 3,
      replicas: 4,
      readyReplicas: 4,
      availableReplicas: 2,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 1,
      expectedUpdatedReplicas: 3,
      updateRevision: b,
      currentRevision: a,
      collisionCount: 0,
      labelSelector: 'app=sample',
    });
    expect(actionsOf(r.actions, 'updateStatus')).toEqual([
      {
        verb: 'updateStatus',
        target: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'sample',
          namespace: 'default',
          uid: UID,
        },
        status: r.status,
        reason: 'UpdateStatus',
      },
    ]);
    // §1 step 16: available != ready with minReadySeconds → requeue after minReadySeconds
    expect(r.requeueAfterSeconds).toBe(30);
  });

  it('currentRevision is promoted when every pod is updated and the count equals spec.replicas — readiness not required (quirk 6)', () => {
    const old = makeCloneSet({ replicas: 2 });
    const cs = withImage(old, 'nginx:2');
    const revA = revisionOf(old, 1);
    const revB = revisionOf(cs, 2);
    const pods = makePods(2, revB.metadata!.name!, { ready: false });
    const status = {
      replicas: 2,
      readyReplicas: 0,
      availableReplicas: 0,
      updatedReplicas: 2,
      updatedReadyReplicas: 0,
      currentRevision: revA.metadata!.name,
    };
    const r = run({ cloneSet: { ...cs, status }, pods, revisions: [revA, revB], now: NOW });
    expect(r.status.currentRevision).toBe(revB.metadata!.name);
  });

  it('labelSelector is the canonical selector string', () => {
    const cs = makeCloneSet({
      replicas: 0,
      selector: {
        matchLabels: { app: 'sample' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }],
      },
      template: {
        metadata: { labels: { app: 'sample', tier: 'a' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] },
      },
    });
    expect(run({ cloneSet: cs, pods: [], now: NOW }).status.labelSelector).toBe('app=sample,tier in (a,b)');
  });

  it('write rule: nothing written when no tracked field changed; conditions alone are not written', () => {
    const cs = makeCloneSet({ replicas: 2 });
    const rev = revisionOf(cs);
    const n = rev.metadata!.name!;
    const pods = makePods(2, n);
    const first = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(actionsOf(first.actions, 'updateStatus')).toHaveLength(1);
    const stored = {
      ...first.status,
      conditions: [{ type: 'FailedScale', status: 'True' as const, message: 'old' }],
    };
    const second = run({ cloneSet: { ...cs, status: stored }, pods, revisions: [rev], now: NOW });
    expect(actionsOf(second.actions, 'updateStatus')).toHaveLength(0);
    expect(second.status.conditions).toBeUndefined(); // §1 step 10: conditions are rebuilt every reconcile
    // observedGeneration is written only when it grows
    const ahead = run({
      cloneSet: { ...cs, status: { ...first.status, observedGeneration: 5 } },
      pods,
      revisions: [rev],
      now: NOW,
    });
    expect(actionsOf(ahead.actions, 'updateStatus')).toHaveLength(0);
    const newer = run({
      cloneSet: { ...cs, metadata: { ...cs.metadata, generation: 2 }, status: first.status },
      pods,
      revisions: [rev],
      now: NOW,
    });
    expect(actionsOf(newer.actions, 'updateStatus')).toHaveLength(1);
  });

  it('the printer-column fields are filled (DESIRED/UPDATED/UPDATED_READY/UPDATED_AVAILABLE/READY/TOTAL/SELECTOR)', () => {
    const cs = makeCloneSet({ replicas: 2 });
    const rev = revisionOf(cs);
    const r = run({ cloneSet: cs, pods: makePods(2, rev.metadata!.name!), revisions: [rev], now: NOW });
    for (const f of [
      'updatedReplicas',
      'updatedReadyReplicas',
      'updatedAvailableReplicas',
      'readyReplicas',
      'replicas',
    ] as const) {
      expect(r.status[f]).toBe(2);
    }
    expect(r.status.labelSelector).toBe('app=sample');
  });
});
