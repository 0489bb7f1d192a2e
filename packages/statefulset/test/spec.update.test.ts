// docs/reference/statefulset.md §8–§11: the rolling update (gating, budget, unavailable set, specified
// deletion, order, acting on candidates), in-place updates and lifecycle hooks — one `it` per
// rule / worked example.
import { comparePriority } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import { updateStatefulSet } from '../src/control';
import { updateMaxUnavailable } from '../src/rollingUpdatePhase';
import { sortPodsToUpdate } from '../src/updateOrder';
import { pod } from './fixtures';
import { NOW, type PodSpec, podActions, run, scene } from './scene';

const parallel = (rollingUpdate: object = {}, extra: object = {}) => ({
  podManagementPolicy: 'Parallel' as const,
  updateStrategy: { type: 'RollingUpdate' as const, rollingUpdate: { maxUnavailable: 1, ...rollingUpdate } },
  ...extra,
});
const old = (ordinal: number, extra: Partial<PodSpec> = {}): PodSpec => ({ ordinal, rev: 'old', ...extra });
const inPlace = (extra: object = {}) => parallel({ podUpdatePolicy: 'InPlaceIfPossible', ...extra });
const patchOf = (r: ReturnType<typeof run>, name: string) =>
  (r.actions.find((a) => a.verb === 'patch' && a.target.name === name) as any)?.patch;

describe('§8 rolling update gating and budget', () => {
  it('R8.2 when any observed pod needs a lifecycle transition, nothing is updated this round', () => {
    const s = scene({ replicas: 2, ...parallel() }, [old(0, { lifecycle: 'PreparingNormal' }), old(1)]);
    expect(podActions(run(s).actions)).toEqual([['patch', 'LifecycleTransition', 'foo-0']]);
  });
  it('R8.3 / §15 paused stops updates (and specified deletes) but not scaling; with partition 0 new pods get the update revision', () => {
    const s = scene({ replicas: 3, ...parallel({ paused: true, partition: 0 }) }, [
      old(0),
      old(1, { labels: { 'apps.kruise.io/specified-delete': 'true' } }),
    ]);
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['create', 'ScaleUp', 'foo-2']]);
    const create = r.actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any;
    expect(create.object.metadata.labels['controller-revision-hash']).toBe(s.newRev.metadata!.name);
  });
  it.each([
    ['50%', 5, 2],
    ['10%', 5, 1],
    ['99%', 3, 2],
    ['2', 5, 1],
    [3, 5, 3],
    [undefined, 5, 1],
  ])('R8.3 maxUnavailable %j of %d → %d', (value, replicas, want) => {
    expect(updateMaxUnavailable(value as any, replicas)).toEqual({ value: want });
  });
  it('R8.3 a maxUnavailable that does not parse ends the phase with an error (FailedUpdatePod)', () => {
    const s = scene({ replicas: 2, ...parallel({ maxUnavailable: 'x%' }) }, [old(0), old(1)]);
    const r = updateStatefulSet({
      set: s.set,
      pods: s.pods,
      currentRevision: s.oldRev,
      updateRevision: s.newRev,
      revisions: [s.oldRev, s.newRev],
      now: NOW,
    });
    expect(r.error).toBeDefined();
    expect(r.actions.some((a) => a.verb === 'delete')).toBe(false);
    expect(r.status.conditions?.[0].type).toBe('FailedUpdatePod');
  });
  it('R8.4 pods still inside minReadySeconds count as unavailable', () => {
    const s = scene({ replicas: 3, ...parallel({ maxUnavailable: 1, minReadySeconds: 30 }) }, [
      old(0),
      old(1),
      old(2, { rev: 'new', readyFor: 10 }),
    ]);
    expect(podActions(run(s).actions)).toEqual([]);
  });
  it('R8.4 condemned pods never count as unavailable', () => {
    const s = scene({ replicas: 2, ...parallel() }, [
      old(0),
      old(1),
      old(2, { ready: false, terminating: true }),
    ]);
    expect(podActions(run(s).actions)).toEqual([['delete', 'RecreateUpdate', 'foo-1']]);
  });
  it('R8.5 specified delete worked example: maxUnavailable 3, U = {1, 2} → 4, 2, 1 deleted; 3 skipped', () => {
    const sd = { labels: { 'apps.kruise.io/specified-delete': 'true' } };
    const pods = [0, 1, 2, 3, 4].map((o) => ({ ordinal: o, ready: !(o === 1 || o === 2), ...sd }));
    const s = scene({ replicas: 5, ...parallel({ maxUnavailable: 3 }) }, pods, { currentIsNew: true });
    expect(podActions(run(s).actions)).toEqual([
      ['delete', 'SpecifiedDelete', 'foo-4'],
      ['delete', 'SpecifiedDelete', 'foo-2'],
      ['delete', 'SpecifiedDelete', 'foo-1'],
    ]);
  });
  it('R8.5 specified deletion ignores partition and lowers the counts of the deleted pod revision', () => {
    const sd = { labels: { 'apps.kruise.io/specified-delete': '' } };
    const s = scene({ replicas: 2, ...parallel({ partition: 2 }) }, [old(0, sd), old(1)]);
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['delete', 'SpecifiedDelete', 'foo-0']]);
    expect(r.status.currentReplicas).toBe(1);
  });
});

describe('§9 which pods, in which order', () => {
  const slots = (revs: (string | null)[], states: Record<number, string> = {}) =>
    revs.map((r, i) => (r === null ? null : pod({ name: `s-${i}`, revision: r, lifecycleState: states[i] })));
  it('R9.2 3 pods, no partition → [2, 1, 0]', () => {
    expect(sortPodsToUpdate(null, 'r1', 3, slots(['r0', 'r0', 'r0']))).toEqual([2, 1, 0]);
  });
  it('R9.2 slots [p, ∅, p, ∅, p] (replicas 3), partition 2 → [4]', () => {
    expect(sortPodsToUpdate({ partition: 2 }, 'r1', 3, slots(['r0', null, 'r0', null, 'r0']))).toEqual([4]);
  });
  it('R9.1 maxUpdate ≤ 0 → nothing to update', () => {
    expect(sortPodsToUpdate({ partition: 3 }, 'r1', 3, slots(['r0', 'r0', 'r0']))).toEqual([]);
  });
  it('R9.3 replicas 10, partition 6, [r0×6, r1, r1, r0, r0] → [7, 6, 9, 8]', () => {
    const revs = ['r0', 'r0', 'r0', 'r0', 'r0', 'r0', 'r1', 'r1', 'r0', 'r0'];
    expect(sortPodsToUpdate({ partition: 6, unorderedUpdate: {} }, 'r1', 10, slots(revs))).toEqual([
      7, 6, 9, 8,
    ]);
  });
  it('R9.3 12 slots [r0,r0,r0,∅,r0,r0,r0,r1,r1,r0,∅,r0] → [8, 7, 11, 9]', () => {
    const revs = ['r0', 'r0', 'r0', null, 'r0', 'r0', 'r0', 'r1', 'r1', 'r0', null, 'r0'];
    expect(sortPodsToUpdate({ partition: 6, unorderedUpdate: {} }, 'r1', 10, slots(revs))).toEqual([
      8, 7, 11, 9,
    ]);
  });
  it('R9.4 same with slots 0 and 1 in PreparingUpdate and gate PreparingUpdateAsUpdate → [8, 7, 1, 0]', () => {
    const revs = ['r0', 'r0', 'r0', null, 'r0', 'r0', 'r0', 'r1', 'r1', 'r0', null, 'r0'];
    const s = slots(revs, { 0: 'PreparingUpdate', 1: 'PreparingUpdate' });
    expect(
      sortPodsToUpdate({ partition: 6, unorderedUpdate: {} }, 'r1', 10, s, { PreparingUpdateAsUpdate: true }),
    ).toEqual([8, 7, 1, 0]);
  });
  it('R9.4 short-hash compare: label r1 counts as updated for revision foo-r1', () => {
    expect(sortPodsToUpdate({ unorderedUpdate: {} }, 'foo-r1', 2, slots(['r1', 'r0']))).toEqual([0, 1]);
  });
  it('R9.5 priority: group B is sorted by weight (ties → higher slot first)', () => {
    const s = [0, 1, 2].map((i) =>
      pod({ name: `s-${i}`, revision: 'r0', labels: i === 0 ? { tier: 'a' } : {} }),
    );
    const strategy = { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { tier: 'a' } } }] };
    expect(sortPodsToUpdate({ unorderedUpdate: { priorityStrategy: strategy } }, 'r1', 3, s)).toEqual([
      0, 2, 1,
    ]);
  });
  const weights = {
    weightPriority: [
      { weight: 20, matchSelector: { matchLabels: { key: 'foo' } } },
      { weight: 10, matchSelector: { matchLabels: { key: 'bar' } } },
    ],
  };
  const orders = { orderPriority: [{ orderedKey: 'key1' }, { orderedKey: 'key2' }] };
  const before = (strategy: any, i: Record<string, string>, j: Record<string, string>) => {
    const c = comparePriority(strategy, i, j);
    return c === 0 ? true : c < 0;
  };
  it.each([
    [weights, {}, {}, true],
    [weights, { key: 'bar' }, { key: 'foo' }, false],
    [weights, {}, { key: 'bar' }, false],
    [orders, { key1: 'o-10' }, { key1: 'o-5' }, true],
    [orders, { key2: 'o-1' }, { key1: 'o-1' }, false],
    [orders, { key2: 'o-20' }, { key2: 'o-10' }, true],
    [orders, {}, { key1: 'o-1' }, true],
  ])('R9.5 TestCompare %#: I before J', (strategy, i, j, want) => {
    expect(before(strategy, i, j)).toBe(want);
  });
});

describe('§10 acting on candidates', () => {
  it('R10.1 already at the update revision → skipped; a healthy pod is only taken down within the budget', () => {
    const s = scene({ replicas: 4, ...parallel({ maxUnavailable: 2 }) }, [
      old(0),
      old(1),
      old(2),
      { ordinal: 3 },
    ]);
    const r = run(s);
    expect(podActions(r.actions)).toEqual([
      ['delete', 'RecreateUpdate', 'foo-2'],
      ['delete', 'RecreateUpdate', 'foo-1'],
    ]);
    expect(r.status.currentReplicas).toBe(1);
  });
  it('R10.1 an already-unavailable old pod can always be replaced', () => {
    const s = scene({ replicas: 3, ...parallel() }, [
      old(0),
      old(1, { ready: false }),
      old(2, { ready: false }),
    ]);
    expect(podActions(run(s).actions)).toEqual([
      ['delete', 'RecreateUpdate', 'foo-2'],
      ['delete', 'RecreateUpdate', 'foo-1'],
    ]);
  });
  it('R10.1 a terminating candidate needs nothing more', () => {
    const s = scene({ replicas: 2, ...parallel({ maxUnavailable: 2 }) }, [
      old(0),
      old(1, { terminating: true }),
    ]);
    expect(podActions(run(s).actions)).toEqual([['delete', 'RecreateUpdate', 'foo-0']]);
  });
  it('R10.2 OrderedReady updates one pod at a time, highest ordinal first', () => {
    const s = scene({ replicas: 3 }, [old(0), old(1), old(2)]);
    expect(podActions(run(s).actions)).toEqual([['delete', 'RecreateUpdate', 'foo-2']]);
  });
  it('R10.3 / R10.6 InPlaceIfPossible with an image-only change updates in place', () => {
    const s = scene({ replicas: 1, ...inPlace() }, [old(0, { lifecycle: 'Normal' })]);
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'InPlaceUpdate', 'foo-0']]);
    const p = patchOf(r, 'foo-0');
    expect(p.metadata.labels['controller-revision-hash']).toBe(s.newRev.metadata!.name);
    expect(p.metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Updating');
    expect(JSON.parse(p.metadata.annotations['apps.kruise.io/inplace-update-state']).revision).toBe(
      s.newRev.metadata!.name,
    );
    expect(p.spec.containers[0].image).toBe('nginx:new');
    expect(p.status.conditions.find((c: any) => c.type === 'InPlaceUpdateReady')).toMatchObject({
      status: 'False',
      reason: 'StartInPlaceUpdate',
    });
    expect(r.controllerState).toEqual({ inPlaceUpdateExpectations: { 'foo-0': s.newRev.metadata!.name } });
  });
  it('R10.6 Updating is only written for a pod that had a lifecycle label', () => {
    const r = run(scene({ replicas: 1, ...inPlace() }, [old(0)]));
    expect(patchOf(r, 'foo-0').metadata.labels['lifecycle.apps.kruise.io/state']).toBeUndefined();
  });
  it('R10.6 with gracePeriodSeconds the image patch waits in the grace annotation; requeue after the grace period', () => {
    const r = run(
      scene({ replicas: 1, ...inPlace({ inPlaceUpdateStrategy: { gracePeriodSeconds: 30 } }) }, [old(0)]),
    );
    const p = patchOf(r, 'foo-0');
    expect(p.spec).toBeUndefined();
    expect(JSON.parse(p.metadata.annotations['apps.kruise.io/inplace-update-grace'])).toMatchObject({
      graceSeconds: 30,
    });
    expect(r.requeueAfterSeconds).toBe(30);
  });
  it('R10.3 without an old revision in the history the pod cannot be updated in place → recreated', () => {
    const r = run(scene({ replicas: 1, ...inPlace() }, [old(0, { rev: 'unknown-rev' })]));
    expect(podActions(r.actions)).toEqual([['delete', 'RecreateUpdate', 'foo-0']]);
  });
  it('R10.4 a change outside images/metadata cannot be in place → InPlaceIfPossible recreates', () => {
    const s = scene({ replicas: 1, ...inPlace() }, [old(0)]);
    const data = structuredClone(s.newRev.data as any);
    data.spec.template.spec.containers[0].command = ['sh'];
    s.newRev = { ...s.newRev, data };
    s.set = { ...s.set, spec: { ...s.set.spec, template: { ...data.spec.template, $patch: undefined } } };
    const r = updateStatefulSet({
      set: s.set,
      pods: s.pods,
      currentRevision: s.oldRev,
      updateRevision: s.newRev,
      revisions: [s.oldRev, s.newRev],
      now: NOW,
    });
    expect(r.actions.filter((a) => a.verb === 'delete').map((a: any) => [a.reason, a.target.name])).toEqual([
      ['RecreateUpdate', 'foo-0'],
    ]);
  });
  it('R10.7 InPlaceOnly that cannot update in place is an error; nothing is recreated', () => {
    const r = run(
      scene({ replicas: 1, ...parallel({ podUpdatePolicy: 'InPlaceOnly' }) }, [
        old(0, { rev: 'unknown-rev' }),
      ]),
    );
    expect(podActions(r.actions)).toEqual([]);
    expect(r.status.conditions?.[0]).toMatchObject({ type: 'FailedUpdatePod', status: 'True' });
  });
  it('R10.8 a pod whose in-place update is unfinished (imageID unchanged) is unavailable', () => {
    const state = JSON.stringify({
      revision: 'x',
      updateTimestamp: NOW,
      lastContainerStatuses: { main: { imageID: 'sha-old' } },
    });
    const s = scene({ replicas: 2, ...parallel() }, [
      old(0),
      { ordinal: 1, annotations: { 'apps.kruise.io/inplace-update-state': state } },
    ]);
    s.pods[1] = {
      ...s.pods[1],
      status: {
        ...s.pods[1].status,
        containerStatuses: [
          { name: 'main', image: 'nginx:old', imageID: 'sha-old', ready: true, restartCount: 0 },
        ],
      },
    };
    expect(podActions(run(s).actions)).toEqual([]);
  });
});

describe('§R10.5 / §11 lifecycle hooks', () => {
  const hook = { finalizersHandler: ['x/online'] };
  it('R10.5 Normal and hooked on inPlaceUpdate → PreparingUpdate, revision unchanged', () => {
    const r = run(
      scene({ replicas: 1, lifecycle: { inPlaceUpdate: hook }, ...inPlace() }, [
        old(0, { lifecycle: 'Normal', finalizers: ['x/online'] }),
      ]),
    );
    const p = patchOf(r, 'foo-0');
    expect(p.metadata.labels).toEqual({ 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' });
  });
  it('R10.5 PreparingUpdate still hooked → wait (nothing written)', () => {
    const r = run(
      scene({ replicas: 1, lifecycle: { inPlaceUpdate: hook }, ...inPlace() }, [
        old(0, { lifecycle: 'PreparingUpdate', finalizers: ['x/online'] }),
      ]),
    );
    expect(podActions(r.actions)).toEqual([]);
  });
  it('R10.5 Updated → PreparingUpdate with the hook labels/finalizers re-applied', () => {
    const lifecycle = { inPlaceUpdate: { labelsHandler: { online: 'false' } } };
    const r = run(
      scene({ replicas: 1, lifecycle, ...inPlace() }, [
        old(0, { lifecycle: 'Updated', labels: { online: 'false' } }),
      ]),
    );
    // allHooked → the refresh moves Updated → Normal first; the update waits for the next round
    expect(patchOf(r, 'foo-0').metadata.labels['lifecycle.apps.kruise.io/state']).toBe('Normal');
    const r2 = run(
      scene({ replicas: 1, lifecycle, ...inPlace() }, [
        old(0, { lifecycle: 'Updated', labels: { online: 'true' } }),
      ]),
    );
    expect(patchOf(r2, 'foo-0').metadata.labels).toEqual({
      'lifecycle.apps.kruise.io/state': 'PreparingUpdate',
      online: 'false',
    });
  });
  it('R10.5 a pod in PreparingDelete cannot be updated in place (error)', () => {
    const r = run(
      scene({ replicas: 1, lifecycle: { preDelete: hook }, ...inPlace() }, [
        old(0, { lifecycle: 'PreparingDelete', finalizers: ['x/online'] }),
      ]),
    );
    expect(r.status.conditions?.[0].type).toBe('FailedUpdatePod');
  });
  it('R11.2 preDelete hooked → PreparingDelete instead of deletion (marked not-ready with markPodNotReady)', () => {
    const lifecycle = { preDelete: { labelsHandler: { hold: 'true' }, markPodNotReady: true } };
    const s = scene({ replicas: 1, lifecycle, ...parallel() }, [
      old(0, { lifecycle: 'Normal', labels: { hold: 'true' } }),
    ]);
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'PreparingDelete', 'foo-0']]);
    expect(patchOf(r, 'foo-0').metadata.labels['lifecycle.apps.kruise.io/state']).toBe('PreparingDelete');
  });
  it('R11.2 once the hook is released the next delete attempt deletes the pod', () => {
    const lifecycle = { preDelete: { labelsHandler: { hold: 'true' } } };
    const r = run(
      scene({ replicas: 1, lifecycle, ...parallel() }, [
        old(0, { lifecycle: 'PreparingDelete', ready: false }),
      ]),
    );
    expect(podActions(r.actions)).toEqual([['delete', 'RecreateUpdate', 'foo-0']]);
  });
  const refreshState = (lifecycle: any, p: Partial<PodSpec>) => {
    const r = run(
      scene({ replicas: 1, lifecycle, ...parallel() }, [{ ordinal: 0, ...p }], { currentIsNew: true }),
    );
    return patchOf(r, 'foo-0')?.metadata?.labels?.['lifecycle.apps.kruise.io/state'];
  };
  it('R11.3 PreparingNormal → Normal without preNormal, stays while preNormal is not all-hooked', () => {
    expect(refreshState(undefined, { lifecycle: 'PreparingNormal' })).toBe('Normal');
    const preNormal = { preNormal: { labelsHandler: { warm: 'true' }, finalizersHandler: ['x/slb'] } };
    expect(
      refreshState(preNormal, { lifecycle: 'PreparingNormal', labels: { warm: 'true' } }),
    ).toBeUndefined();
    expect(
      refreshState(preNormal, {
        lifecycle: 'PreparingNormal',
        labels: { warm: 'true' },
        finalizers: ['x/slb'],
      }),
    ).toBe('Normal');
  });
  it('R11.3 PreparingUpdate at the update revision → Updated (lifecycle set, not all-hooked) or Normal', () => {
    expect(refreshState({ inPlaceUpdate: hook }, { lifecycle: 'PreparingUpdate' })).toBe('Updated');
    expect(
      refreshState({ inPlaceUpdate: hook }, { lifecycle: 'PreparingUpdate', finalizers: ['x/online'] }),
    ).toBe('Normal');
  });
  it('R11.3 Updating → Updated → Normal over two refreshes when lifecycle is set without an inPlaceUpdate hook', () => {
    expect(refreshState({ preDelete: hook }, { lifecycle: 'Updating' })).toBe('Updated');
    expect(refreshState({ preDelete: hook }, { lifecycle: 'Updated' })).toBe('Normal');
    expect(refreshState(undefined, { lifecycle: 'Updating' })).toBe('Normal');
  });
  it('R11.3 Updated stays while the inPlaceUpdate hook is not all-hooked', () => {
    expect(refreshState({ inPlaceUpdate: hook }, { lifecycle: 'Updated' })).toBeUndefined();
    expect(refreshState({ inPlaceUpdate: hook }, { lifecycle: 'Updated', finalizers: ['x/online'] })).toBe(
      'Normal',
    );
  });
  it('§11 single call: preNormal and inPlaceUpdate satisfied by a finalizer → Normal, no update yet', () => {
    const lifecycle = { preNormal: hook, inPlaceUpdate: hook };
    const r = run(
      scene({ replicas: 1, lifecycle, ...inPlace() }, [
        old(0, { lifecycle: 'PreparingNormal', finalizers: ['x/online'] }),
      ]),
    );
    expect(podActions(r.actions)).toEqual([['patch', 'LifecycleTransition', 'foo-0']]);
    expect(patchOf(r, 'foo-0').metadata.labels).toEqual({ 'lifecycle.apps.kruise.io/state': 'Normal' });
  });
  it('§11 single call: Updated with the hook finalizer present (allHooked) → Normal, no update this round', () => {
    const r = run(
      scene({ replicas: 1, lifecycle: { inPlaceUpdate: hook }, ...inPlace() }, [
        old(0, { lifecycle: 'Updated', finalizers: ['x/online'] }),
      ]),
    );
    expect(podActions(r.actions)).toEqual([['patch', 'LifecycleTransition', 'foo-0']]);
  });
  it('R11.4 a PreparingNormal pod blocks OrderedReady progress', () => {
    const preNormal = { preNormal: { labelsHandler: { warm: 'true' } } };
    const r = run(
      scene({ replicas: 2, lifecycle: preNormal }, [{ ordinal: 0, lifecycle: 'PreparingNormal' }], {
        currentIsNew: true,
      }),
    );
    expect(podActions(r.actions)).toEqual([]);
  });
});
