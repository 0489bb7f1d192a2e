// docs/reference/statefulset.md §1, §3 and §4: predicates, ordinals, reserved ordinals, the replica range,
// pod identity, claims, revisions and history — one `it` per rule / worked example.
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import {
  claimsForOrdinal,
  identityMatches,
  newStatefulSetPod,
  repairedPod,
  storageMatches,
  withCreationLifecycle,
} from '../src/identity';
import {
  desiredOrdinals,
  parentNameAndOrdinal,
  parseReserveOrdinals,
  replicaRange,
  statefulSetReplicaRange,
} from '../src/ordinals';
import { isHealthy, runningAndAvailable } from '../src/predicates';
import { candidateRevision, getStatefulSetRevisions, truncateHistory } from '../src/revisions';
import { NOW_MS, pod } from './fixtures';
import { podActions, run, scene } from './scene';
import { makeSet } from './world';

describe('§1 pod predicates', () => {
  it('available(p, m): m > 0 and no transition time → not available, re-check after m seconds', () => {
    expect(
      runningAndAvailable(pod({ name: 'foo-0', ready: true, readyForSeconds: null }), 10, NOW_MS),
    ).toEqual({
      available: false,
      waitSeconds: 10,
    });
  });
  it('available(p, m): now < lastTransitionTime + m → not available, re-check after the remainder', () => {
    expect(runningAndAvailable(pod({ name: 'foo-0', ready: true, readyForSeconds: 7 }), 10, NOW_MS)).toEqual({
      available: false,
      waitSeconds: 3,
    });
  });
  it('available(p, m): exactly at lastTransitionTime + m the pod is available (ASTS uses <=)', () => {
    expect(
      runningAndAvailable(pod({ name: 'foo-0', ready: true, readyForSeconds: 10 }), 10, NOW_MS).available,
    ).toBe(true);
  });
  it('available(p, m) requires lifecycle "" or Normal', () => {
    const p = pod({ name: 'foo-0', ready: true, readyForSeconds: 100, lifecycleState: 'PreparingNormal' });
    expect(runningAndAvailable(p, 0, NOW_MS).available).toBe(false);
  });
  it('healthy(p) excludes terminating pods', () => {
    expect(isHealthy(pod({ name: 'foo-0', ready: true }))).toBe(true);
    expect(isHealthy(pod({ name: 'foo-0', ready: true, terminating: true }))).toBe(false);
  });
});

describe('R3.1 parsing a pod name', () => {
  it.each([
    ['foo-1', 'foo', 1],
    ['my-set-20', 'my-set', 20],
    ['1-bar', '', -1],
    ['foo', '', -1],
    ['foo-01', 'foo', 1],
    ['foo-99999999999', 'foo', -1],
  ])('%s → (%s, %d)', (name, parent, ordinal) => {
    expect(parentNameAndOrdinal(name)).toEqual({ parent, ordinal });
  });
});

describe('R3.3 reserved ordinal set', () => {
  it.each([
    [
      [1, 2, 3],
      [1, 2, 3],
    ],
    [['1-3'], [1, 2, 3]],
    [
      [1, '2-3'],
      [1, 2, 3],
    ],
    [
      ['1-3', '2-4'],
      [1, 2, 3, 4],
    ],
    [['0003-005'], [3, 4, 5]],
  ])('%j → %j', (input, want) => {
    expect([...parseReserveOrdinals(input)!].sort((a, b) => a - b)).toEqual(want);
  });
  it.each([[['03-001']], [['1-2-3']], [['1-%']], [['%-2']]])('%j → error → no reservations', (input) => {
    expect(parseReserveOrdinals(input)).toBeUndefined();
  });
  it('Quirk: one malformed string discards the valid ints too', () => {
    const set = makeSet({ replicas: 2, reserveOrdinals: [0, '5-x'] });
    expect(desiredOrdinals(statefulSetReplicaRange(set, { StatefulSetStartOrdinal: false }))).toEqual([0, 1]);
  });
});

describe('R3.4–R3.5 the replica range (worked examples)', () => {
  const reserved = new Set([1, 3]);
  it.each([
    [0, [0, 2, 4, 5], 6],
    [2, [2, 4, 5, 6], 7],
    [3, [4, 5, 6, 7], 8],
    [4, [4, 5, 6, 7], 8],
  ])('replicas 4, reserved {1,3}, start %d → %j, end %d', (start, ordinals, end) => {
    const r = replicaRange(4, start, reserved);
    expect(desiredOrdinals(r)).toEqual(ordinals);
    expect(r.end).toBe(end);
  });
  it('replicas 3, start 2, reserved {0,2,3,4,5} → {6,7,8}', () => {
    expect(desiredOrdinals(replicaRange(3, 2, new Set([0, 2, 3, 4, 5])))).toEqual([6, 7, 8]);
  });
  it('replicas 4, start 1, reserved {1,3,4} → {2,5,6,7}', () => {
    expect(desiredOrdinals(replicaRange(4, 1, new Set([1, 3, 4])))).toEqual([2, 5, 6, 7]);
  });
  it('R3.4 ordinals.start is ignored unless gate StatefulSetStartOrdinal is on', () => {
    const set = makeSet({ replicas: 2, ordinals: { start: 5 } });
    expect(desiredOrdinals(statefulSetReplicaRange(set, { StatefulSetStartOrdinal: false }))).toEqual([0, 1]);
    expect(desiredOrdinals(statefulSetReplicaRange(set, { StatefulSetStartOrdinal: true }))).toEqual([5, 6]);
  });
});

describe('R3.8 reserveOrdinals acts on chosen pods', () => {
  const pods = [0, 1, 2].map((ordinal) => ({ ordinal }));
  it('replicas 3, pods {0,1,2}, reserveOrdinals [1] → pod 1 deleted, then pod 3 created', () => {
    const s = scene({ replicas: 3, reserveOrdinals: [1] }, pods, { currentIsNew: true });
    // OrderedReady: the missing slot 3 is created first (one per round), the condemned pod waits.
    expect(podActions(run(s).actions)).toEqual([['create', 'ScaleUp', 'foo-3']]);
    const s2 = scene({ replicas: 3, reserveOrdinals: [1] }, [...pods, { ordinal: 3 }], {
      currentIsNew: true,
    });
    expect(podActions(run(s2).actions)).toEqual([['delete', 'ScaleDown', 'foo-1']]);
  });
  it('same with replicas 2 → pod 1 deleted, nothing created (scale in a chosen pod)', () => {
    const s = scene({ replicas: 2, reserveOrdinals: [1] }, pods, { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([['delete', 'ScaleDown', 'foo-1']]);
  });
  it('R3.8 condemned pods are deleted highest ordinal first', () => {
    const s = scene({ replicas: 1, podManagementPolicy: 'OrderedReady' }, pods, { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([['delete', 'ScaleDown', 'foo-2']]);
  });
});

describe('§3.4–§3.5 pod identity and claims', () => {
  const set = makeSet({
    volumeClaimTemplates: [
      {
        metadata: { name: 'data', labels: { tpl: 'x' } },
        spec: { resources: { requests: { storage: '1Gi' } } },
      },
    ],
  });
  const p = newStatefulSetPod(deepFreeze(set), set.spec.template, 'rev-1', 2, { PodIndexLabel: true });
  it('R3.9 pod name <set>-<ordinal>, namespace of the set', () => {
    expect(p.metadata?.name).toBe('foo-2');
    expect(p.metadata?.namespace).toBe('default');
  });
  it('R3.10 identity labels, hostname and subdomain on creation', () => {
    expect(p.metadata?.labels).toMatchObject({
      'statefulset.kubernetes.io/pod-name': 'foo-2',
      'apps.kubernetes.io/pod-index': '2',
      'controller-revision-hash': 'rev-1',
      app: 'foo',
    });
    expect(p.spec?.hostname).toBe('foo-2');
    expect(p.spec?.subdomain).toBe('foo-svc');
    const noIndex = newStatefulSetPod(set, set.spec.template, 'rev-1', 2, { PodIndexLabel: false });
    expect(noIndex.metadata?.labels?.['apps.kubernetes.io/pod-index']).toBeUndefined();
  });
  it('R3.11 identityMatches ignores the pod-index label', () => {
    const { 'apps.kubernetes.io/pod-index': _i, ...labels } = p.metadata!.labels!;
    expect(identityMatches(set, { ...p, metadata: { ...p.metadata, labels } })).toBe(true);
    const { 'statefulset.kubernetes.io/pod-name': _n, ...noName } = p.metadata!.labels!;
    expect(identityMatches(set, { ...p, metadata: { ...p.metadata, labels: noName } })).toBe(false);
  });
  it('R3.12 controller ownerReference and lifecycle label on creation', () => {
    expect(p.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        name: 'foo',
        uid: 'set-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(
      withCreationLifecycle(p, undefined, 'T').metadata?.labels?.['lifecycle.apps.kruise.io/state'],
    ).toBe('Normal');
    const hooked = withCreationLifecycle(p, { preNormal: { labelsHandler: { warm: 'true' } } }, 'T');
    expect(hooked.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('PreparingNormal');
    expect(hooked.metadata?.annotations?.['lifecycle.apps.kruise.io/timestamp']).toBe('T');
  });
  it('R3.13 claim name <template>-<set>-<ordinal>, labels = selector matchLabels (replacing the template labels)', () => {
    const c = claimsForOrdinal(set, 2).get('data')!;
    expect(c.metadata?.name).toBe('data-foo-2');
    expect(c.metadata?.labels).toEqual({ app: 'foo' });
  });
  it('R3.14–R3.15 storage: claim volumes first, template claims win over same-named volumes', () => {
    expect(storageMatches(set, p)).toBe(true);
    expect(p.spec?.volumes?.[0]).toEqual({
      name: 'data',
      persistentVolumeClaim: { claimName: 'data-foo-2', readOnly: false },
    });
    const broken = {
      ...p,
      spec: {
        ...p.spec!,
        volumes: [
          { name: 'cache', emptyDir: {} },
          { name: 'data', emptyDir: {} },
        ],
      },
    };
    expect(storageMatches(set, broken)).toBe(false);
    expect(repairedPod(set, broken, { PodIndexLabel: true }).spec?.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-foo-2', readOnly: false } },
      { name: 'cache', emptyDir: {} },
    ]);
  });
});

describe('§4.2 revisions', () => {
  const t = (image: string) =>
    makeSet({
      template: { metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'c', image }] } },
    });
  const rev = (image: string, n: number) => candidateRevision(t(image), n, 0);
  it('R4.2 revision data is the template with $patch replace; labels = template labels; annotations = set annotations', () => {
    const set = makeSet({}, { annotations: { note: 'x' } });
    const r = candidateRevision(set, 1, 0);
    expect((r.data as any).spec.template.$patch).toBe('replace');
    expect(r.metadata?.name).toMatch(/^foo-/);
    expect(r.metadata?.labels?.app).toBe('foo');
    expect(r.metadata?.annotations).toEqual({ note: 'x' });
  });
  it('R4.4 no revisions → 1 revision created, current = update', () => {
    const plan = getStatefulSetRevisions(t('a'), []);
    expect(plan.revisions).toHaveLength(1);
    expect(plan.currentRevision).toBe(plan.updateRevision);
    expect(plan.actions.map((a) => a.verb)).toEqual(['create']);
  });
  it('R4.4 existing {rev0 #1}, template changed → 2 revisions, current rev0, update #2', () => {
    const r0 = rev('a', 1);
    const set = { ...t('b'), status: { currentRevision: r0.metadata!.name } } as any;
    const plan = getStatefulSetRevisions(set, [r0]);
    expect(plan.revisions).toHaveLength(2);
    expect(plan.currentRevision.metadata?.name).toBe(r0.metadata?.name);
    expect(plan.updateRevision.revision).toBe(2);
  });
  it('R4.4 existing {rev0 #1, rev1 #2}, same template as rev1 → still 2, update rev1 #2', () => {
    const plan = getStatefulSetRevisions(t('b'), [rev('a', 1), rev('b', 2)]);
    expect(plan.revisions).toHaveLength(2);
    expect(plan.updateRevision.revision).toBe(2);
    expect(plan.actions).toEqual([]);
  });
  it('R4.4 rollback: {rev0 #1, rev1 #2, rev2 #3}, template equals rev1 → rev1 renumbered to #4', () => {
    const r0 = rev('a', 1);
    const set = { ...t('b'), status: { currentRevision: r0.metadata!.name } } as any;
    const plan = getStatefulSetRevisions(set, [r0, rev('b', 2), rev('c', 3)]);
    expect(plan.revisions).toHaveLength(3);
    expect(plan.updateRevision.metadata?.name).toBe(rev('b', 2).metadata?.name);
    expect(plan.updateRevision.revision).toBe(4);
    expect(plan.currentRevision.metadata?.name).toBe(r0.metadata?.name);
    expect(plan.actions).toEqual([expect.objectContaining({ verb: 'patch', patch: { revision: 4 } })]);
  });
  it('R4.4 a name taken by a revision with other data bumps collisionCount', () => {
    const clash = {
      ...rev('z', 1),
      metadata: { ...rev('z', 1).metadata, name: candidateRevision(t('b'), 2, 0).metadata!.name },
    };
    const plan = getStatefulSetRevisions(t('b'), [clash]);
    expect(plan.collisionCount).toBe(1);
    expect(plan.updateRevision.metadata?.name).toBe(candidateRevision(t('b'), 2, 1).metadata?.name);
  });
  it('R4.5 a status.currentRevision that no longer exists → current = update', () => {
    const set = { ...t('b'), status: { currentRevision: 'gone' } } as any;
    const plan = getStatefulSetRevisions(set, [rev('a', 1)]);
    expect(plan.currentRevision).toBe(plan.updateRevision);
  });
  it('R4.6 history: non-live revisions beyond revisionHistoryLimit are deleted oldest first', () => {
    const revs = ['a', 'b', 'c', 'd', 'e'].map((img, i) => rev(img, i + 1));
    const set = makeSet({ revisionHistoryLimit: 1 });
    const pods = [pod({ name: 'foo-0', revision: revs[2].metadata!.name })];
    const deletes = truncateHistory(set, revs, pods, revs[3].metadata!.name!, revs[4].metadata!.name!);
    // live: c (pod), d (current), e (update); non-live a, b; limit 1 → delete a.
    expect(deletes.map((a) => (a as any).target.name)).toEqual([revs[0].metadata!.name]);
  });
  it('R4.8 outstanding in-place expectations skip the rolling update (scaling still happens)', () => {
    const s = scene({ replicas: 3 }, [
      { ordinal: 0, rev: 'old' },
      { ordinal: 1, rev: 'old' },
    ]);
    const exp = { controllerState: { inPlaceUpdateExpectations: { 'foo-1': s.newRev.metadata!.name } } };
    expect(podActions(run(s, {}, exp).actions)).toEqual([['create', 'ScaleUp', 'foo-2']]);
    const s2 = scene({ replicas: 2 }, [
      { ordinal: 0, rev: 'old' },
      { ordinal: 1, rev: 'old' },
    ]);
    const r = run(s2, {}, exp);
    expect(podActions(r.actions)).toEqual([]);
    expect(podActions(run(s2).actions)).toEqual([['delete', 'RecreateUpdate', 'foo-1']]);
  });
});
