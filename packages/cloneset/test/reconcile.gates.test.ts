// reconcileCloneSet: lifecycle hooks around an in-place update (docs/reference/cloneset.md §11) and the
// feature gates of §15.
import { defaultFeatureGates } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { actionsOf, compact, makeCloneSet, makePod, NOW, revisionOf, rollout, withImage } from './builders';

describe('§11 lifecycle hooks around an in-place update', () => {
  const lifecycle = { inPlaceUpdate: { labelsHandler: { 'example.com/online': 'true' } } };
  const t = rollout({
    replicas: 2,
    updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
    lifecycle,
  });
  const online = { 'example.com/online': 'true' };
  it('a hooked Normal pod only moves to PreparingUpdate', () => {
    const r = t.reconcile([t.oldPod('a', { labels: online }), t.oldPod('b', { labels: online })]);
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
    expect((r.actions[0] as any).patch).toEqual({
      metadata: {
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': NOW },
      },
    });
  });
  it('once the hook owner removed its label, the PreparingUpdate pod is updated (Updating)', () => {
    const r = t.reconcile([t.oldPod('a', { state: 'PreparingUpdate' }), t.oldPod('b', { labels: online })]);
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
    expect((r.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Updating');
  });
  it('a completed update moves to Updated while the hook is not back, then Normal when it is', () => {
    const done = (labels: Record<string, string>) =>
      t.newPod('a', {
        state: 'Updating',
        labels,
        annotations: {
          'apps.kruise.io/inplace-update-state': JSON.stringify({
            revision: t.n,
            updateTimestamp: NOW,
            lastContainerStatuses: null,
          }),
        },
      });
    const r = t.reconcile([done({}), t.oldPod('b', { labels: online })]);
    expect((r.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Updated');
    const updated = t.newPod('a', { state: 'Updated', labels: online });
    const r2 = t.reconcile([updated, t.oldPod('b', { labels: online })]);
    expect((r2.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });
  it('a released PreparingUpdate pod that the update no longer needs stays PreparingUpdate (no way out in §11)', () => {
    // R=3, partition 2: old active 2 - 2 = 0 → updateNum 0, the pod is never chosen again
    const t3 = rollout({
      replicas: 3,
      updateStrategy: { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 },
      lifecycle,
    });
    const r = t3.reconcile([
      t3.newPod('n'),
      t3.oldPod('a', { labels: online }),
      t3.oldPod('pu', { state: 'PreparingUpdate' }),
    ]);
    expect(compact(r)).toEqual([]);
    expect(r.status).toMatchObject({ updatedReplicas: 1, expectedUpdatedReplicas: 1, availableReplicas: 2 });
  });
  it('§10.3 an Updated pod chosen for a newer revision goes PreparingUpdate with the hook marks re-applied; without the hook nothing happens', () => {
    const withFinalizer = {
      inPlaceUpdate: {
        labelsHandler: { 'example.com/online': 'true' },
        finalizersHandler: ['example.com/f'],
      },
    };
    const t2 = rollout({
      replicas: 2,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
      lifecycle: withFinalizer,
    });
    // an Updated pod still on the old revision (the template moved on while it waited)
    const r = t2.reconcile([
      t2.oldPod('a', { state: 'Updated' }),
      t2.oldPod('b', { labels: online, finalizers: ['example.com/f'] }),
    ]);
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
    const patch = (r.actions[0] as any).patch;
    expect(patch.metadata.labels).toMatchObject({
      'lifecycle.apps.kruise.io/state': 'PreparingUpdate',
      'example.com/online': 'true',
    });
    expect(patch.metadata.finalizers).toEqual(['example.com/f']);
    // lifecycle set without an inPlaceUpdate hook: the Updated pod is left alone (refresh makes it Normal)
    const t3 = rollout({
      replicas: 2,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
      lifecycle: { preNormal: { labelsHandler: { w: 'y' } } },
    });
    const r3 = t3.reconcile([t3.oldPod('a', { state: 'Updated' }), t3.oldPod('b')]);
    expect((r3.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });
  it('§11 PreparingUpdate → Updated/Normal when the pod already is on the update revision (rollback while it waited)', () => {
    const r = t.reconcile([t.newPod('a', { state: 'PreparingUpdate' }), t.newPod('b', { labels: online })]);
    expect(compact(r)).toEqual(['patch:LifecycleTransition:Pod/sample-a']);
    // lifecycle set and the hook not all back → Updated
    expect((r.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Updated');
    const r2 = t.reconcile([
      t.newPod('a', { state: 'PreparingUpdate', labels: online }),
      t.newPod('b', { labels: online }),
    ]);
    expect((r2.actions[0] as any).patch.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });
  it('PreparingNormal → Normal when there is no preNormal hook, readiness not required', () => {
    const r = t.reconcile([t.newPod('a', { state: 'PreparingNormal', ready: false }), t.newPod('b')]);
    expect(compact(r)).toEqual(['patch:LifecycleTransition:Pod/sample-a']);
  });
  it('§1.2 step 1: a pod without pod-template-hash gets the short hash of its revision label', () => {
    const p = t.newPod('a');
    const legacy = { ...p, metadata: { ...p.metadata, labels: { ...p.metadata!.labels } } };
    delete legacy.metadata.labels['pod-template-hash'];
    const r = t.reconcile([legacy, t.newPod('b')]);
    expect((r.actions[0] as any).patch).toEqual({
      metadata: { labels: { 'pod-template-hash': t.n.slice(t.n.lastIndexOf('-') + 1) } },
    });
  });
});

describe('§15 feature gates', () => {
  it('CloneSetPartitionRollback: raising the partition moves updated pods back to the current revision', () => {
    const t = rollout({
      replicas: 4,
      updateStrategy: { type: 'InPlaceIfPossible', partition: 4, maxUnavailable: 1 },
    });
    const pods = [t.oldPod('a'), t.oldPod('b'), t.newPod('c'), t.newPod('d')];
    expect(compact(t.reconcile(pods))).toEqual([]);
    const r = t.reconcile(pods, { featureGates: { CloneSetPartitionRollback: true } });
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-c']);
    const patch = (r.actions[0] as any).patch;
    expect(patch.metadata.labels['controller-revision-hash']).toBe(t.o);
    expect(patch.spec.containers[0].image).toBe('nginx:1.25');
  });
  it('PreparingUpdateAsUpdate: a PreparingUpdate pod counts as updated when choosing the revision of new pods', () => {
    const t = rollout({ replicas: 3, updateStrategy: { partition: 1, maxUnavailable: 1 } });
    const pods = [t.oldPod('a', { state: 'PreparingUpdate' }), t.newPod('b')];
    const rev = (r: ReturnType<typeof reconcileCloneSet>) =>
      (actionsOf(r.actions, 'create', 'Pod')[0] as any).object.metadata.labels['controller-revision-hash'];
    expect(rev(t.reconcile(pods))).toBe(t.n); // old pods 1 = partition: the new pod is new
    expect(rev(t.reconcile(pods, { featureGates: { PreparingUpdateAsUpdate: true } }))).toBe(t.o);
  });
  it('CloneSetShortHash: controller-revision-hash holds only the short hash', () => {
    const cs = makeCloneSet({ replicas: 1 });
    const r = reconcileCloneSet(deepFreeze({ cloneSet: cs, pods: [], now: NOW }), {
      featureGates: { CloneSetShortHash: true },
    });
    const pod = (actionsOf(r.actions, 'create', 'Pod')[0] as any).object;
    const name = (actionsOf(r.actions, 'create', 'ControllerRevision')[0] as any).object.metadata
      .name as string;
    expect(pod.metadata.labels['controller-revision-hash']).toBe(name.slice(name.lastIndexOf('-') + 1));
  });
  it('RecreatePodWhenChangeVCTInCloneSetGate: a volumeClaimTemplates change forces recreate, except for InPlaceOnly', () => {
    const vct = (size: string) => [
      { metadata: { name: 'data' }, spec: { resources: { requests: { storage: size } } } },
    ];
    for (const type of ['InPlaceIfPossible', 'InPlaceOnly'] as const) {
      const oldCs = makeCloneSet({
        replicas: 2,
        volumeClaimTemplates: vct('1Gi'),
        updateStrategy: { type, maxUnavailable: 1 },
      });
      const cs = {
        ...withImage(oldCs, 'nginx:1.27'),
        spec: { ...withImage(oldCs, 'nginx:1.27').spec, volumeClaimTemplates: vct('2Gi') },
      };
      const oldRev = revisionOf(oldCs, 1);
      const newRev = revisionOf(cs, 2);
      expect(oldRev.metadata!.annotations!['kruise.io/cloneset-volumeclaimtemplate-hash']).not.toBe(
        newRev.metadata!.annotations!['kruise.io/cloneset-volumeclaimtemplate-hash'],
      );
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
      const input = deepFreeze({ cloneSet: { ...cs, status }, pods, revisions: [oldRev, newRev], now: NOW });
      const off = compact(reconcileCloneSet(input));
      const on = compact(
        reconcileCloneSet(input, { featureGates: { RecreatePodWhenChangeVCTInCloneSetGate: true } }),
      );
      expect(off).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
      expect(on).toEqual([
        type === 'InPlaceOnly' ? 'patch:InPlaceUpdate:Pod/sample-a' : 'patch:RecreateUpdate:Pod/sample-a',
      ]);
    }
  });

  it('InPlaceWorkloadVerticalScaling: a cpu request change is applied in place only with the gate', () => {
    const res = (cpu: string) => ({ requests: { cpu }, limits: { cpu: '1' } });
    const oldCs = makeCloneSet({
      replicas: 2,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
    });
    oldCs.spec.template.spec!.containers[0].resources = res('100m');
    const cs = structuredClone(oldCs);
    cs.spec.template.spec!.containers[0].resources = res('200m');
    const oldRev = revisionOf(oldCs, 1);
    const newRev = revisionOf(cs, 2);
    const status = {
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      currentRevision: oldRev.metadata!.name,
    };
    const pod = (name: string) => {
      const p = makePod(name, { revision: oldRev.metadata!.name! });
      return {
        ...p,
        spec: { ...p.spec!, containers: [{ name: 'nginx', image: 'nginx:1.25', resources: res('100m') }] },
      };
    };
    const input = deepFreeze({
      cloneSet: { ...cs, status },
      pods: [pod('sample-a'), pod('sample-b')],
      revisions: [oldRev, newRev],
      now: NOW,
    });
    expect(compact(reconcileCloneSet(input))).toEqual(['patch:RecreateUpdate:Pod/sample-a']);
    const r = reconcileCloneSet(input, { featureGates: { InPlaceWorkloadVerticalScaling: true } });
    expect(compact(r)).toEqual(['patch:InPlaceUpdate:Pod/sample-a']);
    expect((r.actions[0] as any).patch.spec.containers[0].resources.requests.cpu).toBe('200m');
  });

  it('every v1.8.2 gate is accepted in options.featureGates', () => {
    const all = Object.fromEntries(Object.keys(defaultFeatureGates).map((k) => [k, true]));
    const r = reconcileCloneSet(deepFreeze({ cloneSet: makeCloneSet({ replicas: 1 }), pods: [], now: NOW }), {
      featureGates: all,
    });
    expect(r.errors).toEqual([]);
    expect(actionsOf(r.actions, 'create', 'Pod')).toHaveLength(1);
  });
  it('PreparingUpdateAsUpdate with maxUnavailable 0: a released PreparingUpdate pod waits (no surge, budget 0)', () => {
    // Scale counts the PreparingUpdate pod as updated: old 1 = partition 1, no surge, no pod created.
    // Update counts it as old: updateNum 1, but updateMaxUnavailable = 0 + 5 - 5 = 0 stops the limiter.
    const t = rollout({
      replicas: 5,
      updateStrategy: { type: 'InPlaceIfPossible', partition: 1, maxUnavailable: 0, maxSurge: 2 },
      lifecycle: { inPlaceUpdate: { labelsHandler: { serving: 'true' } } },
    });
    const pods = [
      t.oldPod('a', { labels: { serving: 'true' } }),
      t.oldPod('pu', { state: 'PreparingUpdate' }),
      t.newPod('x'),
      t.newPod('y'),
      t.newPod('z'),
    ];
    expect(compact(t.reconcile(pods, { featureGates: { PreparingUpdateAsUpdate: true } }))).toEqual([]);
    // without the gate the Scale path sees the missing new pod and surges one
    expect(compact(t.reconcile(pods)).map((x) => x.split(':').slice(0, 2).join(':'))).toEqual([
      'create:ScaleUp',
    ]);
  });
  it('TemplateNoDefaults: the revision stores the template without injected pod defaults', () => {
    const cs = makeCloneSet({ replicas: 0 });
    const tpl = (r: ReturnType<typeof reconcileCloneSet>) =>
      (actionsOf(r.actions, 'create', 'ControllerRevision')[0] as any).object.data.spec.template.spec;
    expect(
      tpl(reconcileCloneSet(deepFreeze({ cloneSet: cs, pods: [], now: NOW }))).terminationGracePeriodSeconds,
    ).toBe(30);
    const bare = tpl(
      reconcileCloneSet(deepFreeze({ cloneSet: cs, pods: [], now: NOW }), {
        featureGates: { TemplateNoDefaults: true },
      }),
    );
    expect(bare.terminationGracePeriodSeconds).toBeUndefined();
  });
});
