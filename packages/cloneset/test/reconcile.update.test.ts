// reconcileCloneSet, Update side (docs/reference/cloneset.md §1.2, §6.1, §9, §10).
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { actionsOf, compact, makeCloneSet, makePod, NOW, revisionOf, rollout } from './builders';

describe('§6.1 worked example through the reconcile: ReCreate, partition 3, maxUnavailable 1, maxSurge 1', () => {
  const t = rollout({ updateStrategy: { type: 'ReCreate', partition: 3, maxUnavailable: 1, maxSurge: 1 } });
  const oR = (i: number) => t.oldPod(`o${i}`);
  const nU = (i: number) => t.newPod(`n${i}`, { ready: false });
  const nR = (i: number) => t.newPod(`n${i}`);
  const oRD = (i: number) => t.oldPod(`o${i}`, { labels: { 'apps.kruise.io/specified-delete': 'true' } });
  it('step 1 (oR×5): create 1 new pod', () => {
    const r = t.reconcile([0, 1, 2, 3, 4].map(oR));
    const created = actionsOf(r.actions, 'create', 'Pod') as any[];
    expect(compact(r)).toHaveLength(1);
    expect(created[0].object.metadata.labels['controller-revision-hash']).toBe(t.n);
  });
  it('step 2 (oR×5, nU): update 1 old pod — ReCreate only labels it specified-delete', () => {
    const r = t.reconcile([...[0, 1, 2, 3, 4].map(oR), nU(0)]);
    expect(compact(r)).toEqual(['patch:RecreateUpdate:Pod/sample-o0']);
    expect((r.actions[0] as any).patch).toEqual({
      metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } },
    });
    expect(r.actions.some((a) => a.verb === 'event' && a.reason === 'SuccessfulUpdatePodReCreate')).toBe(
      true,
    );
  });
  it('step 3 (oR×4, oRD, nU): delete the specified pod', () => {
    const r = t.reconcile([oRD(0), ...[1, 2, 3, 4].map(oR), nU(0)]);
    expect(compact(r)).toEqual(['delete:SpecifiedDelete:Pod/sample-o0']);
  });
  it('step 4 (oR×4, nU): create 1 new pod', () => {
    const r = t.reconcile([...[1, 2, 3, 4].map(oR), nU(0)]);
    expect(compact(r).map((s) => s.split(':').slice(0, 3).join(':'))).toEqual([
      'create:ScaleUp:Pod/sample-' +
        (actionsOf(r.actions, 'create', 'Pod')[0] as any).object.metadata.labels[
          'apps.kruise.io/cloneset-instance-id'
        ],
    ]);
    expect(
      (actionsOf(r.actions, 'create', 'Pod')[0] as any).object.metadata.labels['controller-revision-hash'],
    ).toBe(t.n);
  });
  it('step 5 (oR×4, nU×2): nothing can be deleted yet (the candidate is ready); wait', () => {
    const r = t.reconcile([...[1, 2, 3, 4].map(oR), nU(0), nU(1)]);
    expect(compact(r)).toEqual([]);
  });
  it('step 6 (oR×4, nR, nU): delete 1 old pod (the surge is paid back)', () => {
    const r = t.reconcile([...[1, 2, 3, 4].map(oR), nR(0), nU(1)]);
    expect(compact(r)).toHaveLength(1);
    expect(compact(r)[0]).toMatch(/^delete:ScaleDown:Pod\/sample-o/);
  });
  it('step 7 (oR×3, nR×2): done — 3 old (= partition), 2 new', () => {
    const r = t.reconcile([...[2, 3, 4].map(oR), nR(0), nR(1)]);
    expect(compact(r)).toEqual([]);
    expect(r.status).toMatchObject({ replicas: 5, updatedReplicas: 2, expectedUpdatedReplicas: 2 });
  });
});

describe('§9.5 / §10 in-place update', () => {
  it('InPlaceIfPossible: image change in place — Updating, revision labels, image, InPlaceUpdateReady False', () => {
    const t = rollout({ replicas: 3, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } });
    const r = t.reconcile([t.oldPod('a'), t.oldPod('b'), t.oldPod('c')]);
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
    const patch = (r.actions[0] as any).patch;
    expect(patch.metadata.labels).toMatchObject({
      'controller-revision-hash': t.n,
      'pod-template-hash': t.n.slice(t.n.lastIndexOf('-') + 1),
      'lifecycle.apps.kruise.io/state': 'Updating',
    });
    expect(JSON.parse(patch.metadata.annotations['apps.kruise.io/inplace-update-state'])).toMatchObject({
      revision: t.n,
      updateTimestamp: NOW,
    });
    expect(patch.spec.containers[0].image).toBe('nginx:1.27');
    expect(patch.status.conditions.find((c: any) => c.type === 'InPlaceUpdateReady')).toMatchObject({
      status: 'False',
      reason: 'StartInPlaceUpdate',
    });
    expect(r.actions.some((a) => a.verb === 'event' && a.reason === 'SuccessfulUpdatePodInPlace')).toBe(true);
  });

  it('InPlaceOnly cannot recreate: FailedUpdate condition; InPlaceIfPossible falls back to recreate', () => {
    const spec = (type: string) => ({ replicas: 2, updateStrategy: { type, maxUnavailable: 1 } });
    const mk = (type: string) => {
      const oldCs = makeCloneSet(spec(type));
      const cs = structuredClone(oldCs);
      cs.spec.template.spec!.containers[0].env = [{ name: 'A', value: '1' }];
      return { oldCs, cs, oldRev: revisionOf(oldCs, 1), newRev: revisionOf(cs, 2) };
    };
    for (const type of ['InPlaceOnly', 'InPlaceIfPossible']) {
      const { cs, oldRev, newRev } = mk(type);
      const status = {
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        currentRevision: oldRev.metadata!.name,
      };
      const pods = [
        makePod('sample-a', { revision: oldRev.metadata!.name! }),
        makePod('sample-b', { revision: oldRev.metadata!.name! }),
      ];
      const r = reconcileCloneSet(
        deepFreeze({ cloneSet: { ...cs, status }, pods, revisions: [oldRev, newRev], now: NOW }),
      );
      if (type === 'InPlaceOnly') {
        expect(compact(r)).toEqual([]);
        expect(r.status.conditions).toEqual([
          {
            type: 'FailedUpdate',
            status: 'True',
            lastTransitionTime: NOW,
            message: expect.stringContaining('can not update in-place'),
          },
        ]);
      } else {
        expect(compact(r)).toEqual(['patch:RecreateUpdate:Pod/sample-a']);
      }
    }
  });

  it('§10.3 grace period: the spec waits in the grace annotation; requeue after the grace, then the remainder; then applied', () => {
    const t = rollout({
      replicas: 2,
      updateStrategy: {
        type: 'InPlaceIfPossible',
        maxUnavailable: 1,
        inPlaceUpdateStrategy: { gracePeriodSeconds: 30 },
      },
    });
    const r = t.reconcile([t.oldPod('a'), t.oldPod('b')]);
    expect(r.requeueAfterSeconds).toBe(30);
    const patch = (r.actions[0] as any).patch;
    expect(JSON.parse(patch.metadata.annotations['apps.kruise.io/inplace-update-grace'])).toEqual({
      revision: t.n,
      containerImages: { nginx: 'nginx:1.27' },
      graceSeconds: 30,
    });
    expect(patch.spec).toBeUndefined(); // the image is not changed yet
    // 10 s later: still in the grace period — requeue for the remaining 20 s, no change
    const graced = makePod('sample-a', {
      revision: t.n,
      state: 'Updating',
      annotations: {
        'apps.kruise.io/inplace-update-state': JSON.stringify({
          revision: t.n,
          updateTimestamp: '2024-01-01T00:59:50Z',
          lastContainerStatuses: null,
        }),
        'apps.kruise.io/inplace-update-grace': JSON.stringify({
          revision: t.n,
          containerImages: { nginx: 'nginx:1.27' },
          graceSeconds: 30,
        }),
      },
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate' },
      ],
    });
    const r2 = t.reconcile([graced, t.oldPod('b')]);
    expect(compact(r2)).toEqual([]);
    expect(r2.requeueAfterSeconds).toBe(20);
    // 30 s after the update timestamp the refresh applies the image and drops the grace annotation
    const late = {
      ...graced,
      metadata: {
        ...graced.metadata,
        annotations: {
          ...graced.metadata!.annotations,
          'apps.kruise.io/inplace-update-state': JSON.stringify({
            revision: t.n,
            updateTimestamp: '2024-01-01T00:59:30Z',
            lastContainerStatuses: null,
          }),
        },
      },
    };
    const r3 = t.reconcile([late, t.oldPod('b')]);
    expect(compact(r3)).toEqual(['patch:LifecycleTransition:Pod/sample-a']);
    const p3 = (r3.actions[0] as any).patch;
    expect(p3.metadata.annotations['apps.kruise.io/inplace-update-grace']).toBeNull();
    expect(p3.spec.containers[0].image).toBe('nginx:1.27');
  });
});

describe('§9 candidates, order and limits', () => {
  it('§9.4 maxUnavailable bounds the pods taken down at once; unavailable pods are updated for free', () => {
    const t = rollout({ replicas: 6, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } });
    const pods = ['a', 'b', 'c', 'd', 'e'].map((x) => t.oldPod(x));
    pods.push(t.oldPod('u', { ready: false }));
    const r = t.reconcile(pods);
    // updateMaxUnavailable = 2; unavailable = 1 (u, sorted first, free) + 1 available pod
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-u', 'patch:InPlaceUpdate:Pod/sample-a']);
  });

  it('§9.2 partition (percent): old pods beyond R - partition are never candidates', () => {
    const t = rollout({
      replicas: 4,
      updateStrategy: { type: 'InPlaceIfPossible', partition: '50%', maxUnavailable: '100%' },
    });
    const r = t.reconcile([t.oldPod('a'), t.oldPod('b'), t.newPod('c'), t.oldPod('d')]);
    // partition = ceil(2.0) = 2 → updateNum = oldActive 3 - 2 = 1
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
  });

  it('§2.1 paused: no pod is updated, scaling continues (as new-revision pods, surge 0)', () => {
    const t = rollout({
      replicas: 3,
      updateStrategy: { type: 'InPlaceIfPossible', paused: true, maxSurge: 1, maxUnavailable: 1 },
    });
    const r = t.reconcile([t.oldPod('a'), t.oldPod('b')]);
    const created = actionsOf(r.actions, 'create', 'Pod') as any[];
    expect(created).toHaveLength(1);
    expect(created[0].object.metadata.labels['controller-revision-hash']).toBe(t.n);
    const r2 = t.reconcile([t.oldPod('a'), t.oldPod('b'), t.newPod('c')]);
    expect(compact(r2)).toEqual([]);
  });

  it('§9.3.2 weightPriority: higher weight first, whatever the list order', () => {
    const priorityStrategy = {
      weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'critical' } } }],
    };
    const t = rollout({
      replicas: 3,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1, priorityStrategy },
    });
    const r = t.reconcile([t.oldPod('a'), t.oldPod('b'), t.oldPod('c', { labels: { tier: 'critical' } })]);
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-c']);
  });

  it('§9.3.2 orderPriority: higher trailing number first; pods without the key go first (quirk 3); ties by descending list position', () => {
    const priorityStrategy = { orderPriority: [{ orderedKey: 'order' }] };
    const t = rollout({
      replicas: 4,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1, priorityStrategy },
    });
    const keyed = [t.oldPod('a', { labels: { order: 'p-1' } }), t.oldPod('b', { labels: { order: 'p-5' } })];
    expect(compact(t.reconcile([...keyed, t.oldPod('x'), t.oldPod('y')]))).toEqual([
      'patch:InPlaceUpdate:Pod/sample-y',
    ]);
    const t2 = rollout({
      replicas: 2,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1, priorityStrategy },
    });
    const keyed2 = [
      t2.oldPod('a', { labels: { order: 'p-1' } }),
      t2.oldPod('b', { labels: { order: 'p-5' } }),
    ];
    expect(compact(t2.reconcile(keyed2))).toEqual(['patch:InPlaceUpdate:Pod/sample-b']);
  });

  it('§9.3.3 scatterStrategy: zone=a pods are spread among the others', () => {
    // labels [a, a, a, b, b, b]: matched [0,1,2], unmatched [3,4,5]; tail 2; totals 3/2 ≥ 3/2 → groups of
    // (1 matched, 2 unmatched) twice: 0, 3, 4, 1, 5, then 2. With maxUnavailable 3 the first three go.
    const scatterStrategy = [{ key: 'zone', value: 'a' }];
    const t = rollout({
      replicas: 6,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 3, scatterStrategy },
    });
    const pods = ['a', 'a', 'a', 'b', 'b', 'b'].map((z, i) => t.oldPod(`p${i}`, { labels: { zone: z } }));
    expect(compact(t.reconcile(pods))).toEqual([
      'patch:InPlaceUpdate:Pod/sample-p0',
      'patch:InPlaceUpdate:Pod/sample-p3',
      'patch:InPlaceUpdate:Pod/sample-p4',
    ]);
  });

  it('§9.3.4 PreparingUpdate pods go first', () => {
    const t = rollout({
      replicas: 3,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
      lifecycle: { inPlaceUpdate: { labelsHandler: { hold: 'yes' } } },
    });
    const r = t.reconcile([t.oldPod('a'), t.oldPod('b'), t.oldPod('c', { state: 'PreparingUpdate' })]);
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-c']);
    expect((r.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Updating');
  });

  it('§9.2 candidates: PreparingDelete pods never, pods in a grace period not (unless Updated)', () => {
    const lifecycle = { preDelete: { finalizersHandler: ['example.com/f'], markPodNotReady: true } };
    const t = rollout({
      replicas: 3,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '100%' },
      lifecycle,
    });
    const graceFor = (rev: string) => ({
      'apps.kruise.io/inplace-update-state': JSON.stringify({
        revision: rev,
        updateTimestamp: NOW,
        lastContainerStatuses: null,
      }),
      'apps.kruise.io/inplace-update-grace': JSON.stringify({
        revision: rev,
        containerImages: { nginx: 'x' },
        graceSeconds: 60,
      }),
    });
    const pd = t.oldPod('pd', { state: 'PreparingDelete', finalizers: ['example.com/f'] });
    // a grace spec for another revision is dropped by the refresh first (and Update waits)
    const r = t.reconcile([pd, t.oldPod('g', { annotations: graceFor('other') }), t.oldPod('x')]);
    expect(compact(r)).toEqual(['patch:LifecycleTransition:Pod/sample-g']);
    // a pending grace spec for its own revision keeps the pod out of the candidates
    const r2 = t.reconcile([pd, t.oldPod('g', { annotations: graceFor(t.o) }), t.oldPod('x')]);
    expect(compact(r2)).toEqual(['patch:InPlaceUpdate:Pod/sample-x']);
    expect(r2.requeueAfterSeconds).toBe(60);
  });
  it('quirk 10: with more than 12 equal candidates the update order keeps list order', () => {
    const t = rollout({ replicas: 15, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 4 } });
    const pods = Array.from({ length: 15 }, (_, i) => t.oldPod(`p${String(i).padStart(2, '0')}`));
    expect(compact(t.reconcile(pods))).toEqual(
      ['p00', 'p01', 'p02', 'p03'].map((n) => `patch:InPlaceUpdate:Pod/sample-${n}`),
    );
  });
});
