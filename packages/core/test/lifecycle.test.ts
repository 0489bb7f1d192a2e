// docs/reference/core.md §3 lifecycle hooks: upstream cases (lifecycle.json) and the §3.3/§3.4/R3.7 tables.
import type { Lifecycle } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { hasNotReadyKey, PRE_DELETE_HOOK_MESSAGE, PRE_UPDATE_HOOK_MESSAGE } from '../src/pods/kruisePodReady';
import {
  getPodLifecycleState,
  isAllHooked,
  isHooked,
  isHookMarkPodNotReady,
  isLifecycleMarkPodNotReady,
  isLifecycleNormalOrAbsent,
  lifecycleRefreshTarget,
  lifecycleUpdateAction,
  podNotReadyPolicyAction,
  preDeleteAction,
  refreshPodLifecycle,
  setPodLifecycleState,
  setPodLifecycleWithHandler,
  setPodPreparingDelete,
  setPodPreparingUpdate,
} from '../src/pods/lifecycle';
import { deepFreeze } from '../src/testing';
import { loadCases } from './inplaceHelpers';

const now = '2024-01-01T00:00:00Z';
const STATE = 'lifecycle.apps.kruise.io/state';
const TS = 'lifecycle.apps.kruise.io/timestamp';

describe('lifecycle helpers: upstream cases (lifecycle.json)', () => {
  const cases = loadCases('lifecycle.json');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const input = deepFreeze(c.input);
    switch (c.function) {
      case 'getPodLifecycleState':
        expect(getPodLifecycleState(input.pod)).toBe(c.expected.state);
        break;
      case 'isHookMarkPodNotReady':
        expect(isHookMarkPodNotReady(input.hook)).toBe(c.expected.result);
        break;
      case 'isLifecycleMarkPodNotReady':
        expect(isLifecycleMarkPodNotReady(input.lifecycle)).toBe(c.expected.result);
        break;
      case 'setPodLifecycle': {
        const p = setPodLifecycleState(input.pod, input.state, now);
        expect(p.metadata?.labels).toMatchObject(c.expected.labelsInclude);
        for (const k of c.expected.nonEmptyAnnotations) expect(p.metadata?.annotations?.[k]).toBeTruthy();
        break;
      }
      case 'isPodHooked':
        expect(isHooked(input.hook, input.pod)).toBe(c.expected.result);
        break;
      case 'isPodAllHooked':
        expect(isAllHooked(input.hook, input.pod)).toBe(c.expected.result);
        break;
      case 'podNotReadyPolicyAction':
        expect(podNotReadyPolicyAction(input.state).action).toBe(c.expected.action);
        break;
      default:
        throw new Error(`unknown function ${c.function}`);
    }
  });
});

function pod(
  state: string | undefined,
  labels: Record<string, string> = {},
  finalizers: string[] = [],
  withGate = false,
): Pod {
  return deepFreeze({
    metadata: { labels: { ...labels, ...(state === undefined ? {} : { [STATE]: state }) }, finalizers },
    spec: { containers: [], ...(withGate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}) },
  } as Pod);
}

const hook = { labelsHandler: { blocker: 'true' }, finalizersHandler: ['example.com/hold'] };

describe('R3.1–R3.5 state writes', () => {
  it('R3.1: writes the label and the RFC 3339 timestamp, keeping other labels', () => {
    const p = setPodLifecycleState(pod('Normal', { app: 'x' }), 'Updating', now);
    expect(p.metadata!.labels).toEqual({ app: 'x', [STATE]: 'Updating' });
    expect(p.metadata!.annotations).toEqual({ [TS]: now });
  });

  it('R3.2: hooked = any finalizer or any label; a missing label matches a handler value ""', () => {
    expect(isHooked(hook, pod('Normal', {}, ['example.com/hold']))).toBe(true);
    expect(isHooked({ labelsHandler: { gone: '' } }, pod('Normal'))).toBe(true);
    expect(isHooked(hook, pod('Normal'))).toBe(false);
    expect(isHooked(undefined, pod('Normal'))).toBe(false);
  });

  it('R3.3: all-hooked needs every finalizer and label; an empty hook is all-hooked', () => {
    expect(isAllHooked(hook, pod('Normal', { blocker: 'true' }))).toBe(false);
    expect(isAllHooked(hook, pod('Normal', { blocker: 'true' }, ['example.com/hold']))).toBe(true);
    expect(isAllHooked({}, pod('Normal'))).toBe(true);
  });

  it('R3.4: markPodNotReady adds the preDelete key even when the state is already set; nothing else is rewritten', () => {
    const p = pod('PreparingDelete', {}, [], true);
    const out = setPodLifecycleState(p, 'PreparingDelete', now, true);
    expect(hasNotReadyKey(out, PRE_DELETE_HOOK_MESSAGE)).toBe(true);
    // the condition was created with an empty status (D.8)
    expect(out.status!.conditions![0]).toMatchObject({ type: 'KruisePodReady', status: '' });
    expect(out.metadata!.annotations).toBeUndefined();
    expect(setPodLifecycleState(pod('Normal'), 'Normal', now)).toEqual(pod('Normal'));
  });

  it('R3.4: entering Updated removes the preUpdate key; PreparingUpdate adds it', () => {
    const prepared = setPodLifecycleState(
      setPodLifecycleState(pod('Normal', {}, [], true), 'PreparingUpdate', now, true),
      'PreparingUpdate',
      now,
      true,
    );
    expect(hasNotReadyKey(prepared, PRE_UPDATE_HOOK_MESSAGE)).toBe(true);
    const updated = setPodLifecycleState(prepared, 'Updated', now, true);
    expect(hasNotReadyKey(updated, PRE_UPDATE_HOOK_MESSAGE)).toBe(false);
    expect(updated.status!.conditions![0]!.status).toBe('True');
  });

  it('R3.5: with a handler, labels are added, finalizers appended without duplicates and the state written', () => {
    const p = pod('Updated', { app: 'x' }, ['example.com/hold']);
    const out = setPodLifecycleWithHandler(p, 'PreparingUpdate', hook, now);
    expect(out.metadata!.labels).toEqual({ app: 'x', blocker: 'true', [STATE]: 'PreparingUpdate' });
    expect(out.metadata!.finalizers).toEqual(['example.com/hold']);
    expect(setPodLifecycleWithHandler(p, 'PreparingUpdate', undefined, now)).toBe(p);
  });
});

describe('§3.3 refresh table', () => {
  const lc: Lifecycle = { preNormal: hook, inPlaceUpdate: hook };
  it('PreparingNormal → Normal without lifecycle/preNormal or when all-hooked', () => {
    expect(lifecycleRefreshTarget(pod('PreparingNormal'), undefined)).toBe('Normal');
    expect(lifecycleRefreshTarget(pod('PreparingNormal'), lc)).toBeUndefined();
    expect(
      lifecycleRefreshTarget(pod('PreparingNormal', { blocker: 'true' }, ['example.com/hold']), lc),
    ).toBe('Normal');
  });
  it('PreparingUpdate at the update revision → Updated if lifecycle set and not all-hooked, else Normal', () => {
    expect(lifecycleRefreshTarget(pod('PreparingUpdate'), lc, { atUpdateRevision: false })).toBeUndefined();
    expect(lifecycleRefreshTarget(pod('PreparingUpdate'), lc, { atUpdateRevision: true })).toBe('Updated');
    expect(lifecycleRefreshTarget(pod('PreparingUpdate'), undefined, { atUpdateRevision: () => true })).toBe(
      'Normal',
    );
  });
  it('Updating once completed → Updated (absent inPlaceUpdate hook counts as not all-hooked), else Normal', () => {
    expect(lifecycleRefreshTarget(pod('Updating'), { preDelete: hook }, { updateCompleted: true })).toBe(
      'Updated',
    );
    expect(lifecycleRefreshTarget(pod('Updating'), undefined, { updateCompleted: true })).toBe('Normal');
    expect(lifecycleRefreshTarget(pod('Updating'), undefined, { updateCompleted: false })).toBeUndefined();
  });
  it('Updated → Normal without lifecycle/inPlaceUpdate or when all-hooked', () => {
    expect(lifecycleRefreshTarget(pod('Updated'), { preDelete: hook })).toBe('Normal');
    expect(lifecycleRefreshTarget(pod('Updated'), lc)).toBeUndefined();
    expect(lifecycleRefreshTarget(pod('Normal'), lc)).toBeUndefined();
  });
  it('refreshPodLifecycle writes the target with inPlaceUpdate.markPodNotReady', () => {
    const p = refreshPodLifecycle(pod('Updating'), { preDelete: hook }, { updateCompleted: true }, now);
    expect(getPodLifecycleState(p)).toBe('Updated');
    const same = pod('Normal');
    expect(refreshPodLifecycle(same, undefined, {}, now)).toBe(same);
  });
});

describe('§3.4 update table and R3.7 deletion', () => {
  const lc: Lifecycle = { inPlaceUpdate: hook, preDelete: hook };
  it('"" / PreparingNormal / Normal: PreparingUpdate when hooked, else updateNow', () => {
    for (const s of [undefined, 'PreparingNormal', 'Normal']) {
      expect(lifecycleUpdateAction(pod(s, { blocker: 'true' }), lc)).toBe('PreparingUpdate');
      expect(lifecycleUpdateAction(pod(s), lc)).toBe('updateNow');
    }
  });
  it('Updated → PreparingUpdate (via the handler); PreparingUpdate waits while hooked; Updating → updateNow; others notAllowed', () => {
    expect(lifecycleUpdateAction(pod('Updated'), lc)).toBe('PreparingUpdate');
    expect(lifecycleUpdateAction(pod('PreparingUpdate', { blocker: 'true' }), lc)).toBe('wait');
    expect(lifecycleUpdateAction(pod('PreparingUpdate'), lc)).toBe('updateNow');
    expect(lifecycleUpdateAction(pod('Updating'), lc)).toBe('updateNow');
    expect(lifecycleUpdateAction(pod('PreparingDelete'), lc)).toBe('notAllowed');
  });
  it('setPodPreparingUpdate: from Updated re-applies the hook marks; without a hook nothing is written', () => {
    const out = setPodPreparingUpdate(pod('Updated'), lc, now);
    expect(out.metadata!.labels).toMatchObject({ blocker: 'true', [STATE]: 'PreparingUpdate' });
    expect(out.metadata!.finalizers).toEqual(['example.com/hold']);
    const p = pod('Updated');
    expect(setPodPreparingUpdate(p, {}, now)).toBe(p);
    expect(getPodLifecycleState(setPodPreparingUpdate(pod('Normal'), lc, now))).toBe('PreparingUpdate');
  });
  it('R3.7: hooked → markPreparingDelete (then wait), not hooked → delete', () => {
    expect(preDeleteAction(pod('Normal', { blocker: 'true' }), lc)).toBe('markPreparingDelete');
    expect(preDeleteAction(pod('PreparingDelete', { blocker: 'true' }), lc)).toBe('wait');
    expect(preDeleteAction(pod('PreparingDelete'), lc)).toBe('delete');
    expect(preDeleteAction(pod('Normal', { blocker: 'true' }), undefined)).toBe('delete');
    expect(getPodLifecycleState(setPodPreparingDelete(pod('Normal'), lc, now))).toBe('PreparingDelete');
  });
  it('§3.7: only an absent or Normal state counts as available', () => {
    expect(isLifecycleNormalOrAbsent(pod(undefined))).toBe(true);
    expect(isLifecycleNormalOrAbsent(pod('Normal'))).toBe(true);
    expect(isLifecycleNormalOrAbsent(pod('Updated'))).toBe(false);
  });
});
