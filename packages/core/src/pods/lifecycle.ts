// Lifecycle hooks (docs/reference/core.md §3): the pod's lifecycle state label, hook matching (R3.2,
// R3.3), state writes with the markPodNotReady policy (R3.1, R3.4, R3.5), and the decision
// tables for refresh (§3.3), update (§3.4) and deletion (R3.7).
import {
  ANNOTATION_LIFECYCLE_TIMESTAMP,
  LABEL_LIFECYCLE_STATE,
  type Lifecycle,
  type LifecycleHook,
  type LifecycleState,
  LifecycleStates,
} from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { extend } from '../json/objects';
import { type Now, toRFC3339 } from '../kube/time';
import {
  addNotReadyKey,
  type PodReadinessMessage,
  PRE_DELETE_HOOK_MESSAGE,
  PRE_UPDATE_HOOK_MESSAGE,
  removeNotReadyKey,
} from './kruisePodReady';

/** The pod's lifecycle state label; `''` when absent. */
export function getPodLifecycleState(pod: Pod | null | undefined): LifecycleState {
  return (pod?.metadata?.labels?.[LABEL_LIFECYCLE_STATE] ?? '') as LifecycleState;
}

/** True when the state is absent or `Normal` (available for workload counting, §3.7). */
export function isLifecycleNormalOrAbsent(pod: Pod | null | undefined): boolean {
  const s = getPodLifecycleState(pod);
  return s === '' || s === LifecycleStates.Normal;
}

/** The hook asks to mark the pod not ready. */
export function isHookMarkPodNotReady(hook: LifecycleHook | null | undefined): boolean {
  return hook?.markPodNotReady === true;
}

/** The preDelete or the inPlaceUpdate hook marks pods not ready (R3.8). */
export function isLifecycleMarkPodNotReady(lifecycle: Lifecycle | null | undefined): boolean {
  return (
    !!lifecycle &&
    (isHookMarkPodNotReady(lifecycle.preDelete) || isHookMarkPodNotReady(lifecycle.inPlaceUpdate))
  );
}

/**
 * R3.2 hooked ("any"): the pod has any of the hook's finalizers or any label with the
 * handler's value (a missing label counts as `""`). False when hook or pod is absent.
 * Example: handler `{blocker: "true"}`, pod label `blocker: "true"` → true.
 */
export function isHooked(hook: LifecycleHook | null | undefined, pod: Pod | null | undefined): boolean {
  if (!hook || !pod) return false;
  const finalizers = pod.metadata?.finalizers ?? [];
  if ((hook.finalizersHandler ?? []).some((f) => finalizers.includes(f))) return true;
  const labels = pod.metadata?.labels ?? {};
  return Object.entries(hook.labelsHandler ?? {}).some(([k, v]) => (labels[k] ?? '') === v);
}

/**
 * R3.3 allHooked ("all"): the pod has every finalizer and every label of the hook. An empty
 * hook is all-hooked for any pod; false when hook or pod is absent.
 */
export function isAllHooked(hook: LifecycleHook | null | undefined, pod: Pod | null | undefined): boolean {
  if (!hook || !pod) return false;
  const finalizers = pod.metadata?.finalizers ?? [];
  if (!(hook.finalizersHandler ?? []).every((f) => finalizers.includes(f))) return false;
  const labels = pod.metadata?.labels ?? {};
  return Object.entries(hook.labelsHandler ?? {}).every(([k, v]) => (labels[k] ?? '') === v);
}

/**
 * R3.4: what markPodNotReady does for a target state: `PreparingDelete` adds
 * `{Lifecycle, preDeleteHook}`, `PreparingUpdate` adds `{Lifecycle, preUpdateHook}`, `Updated`
 * removes `{Lifecycle, preUpdateHook}`, other states do nothing.
 */
export function podNotReadyPolicyAction(state: LifecycleState): {
  action: 'addNotReadyKey' | 'removeNotReadyKey' | 'none';
  message?: PodReadinessMessage;
} {
  if (state === LifecycleStates.PreparingDelete)
    return { action: 'addNotReadyKey', message: PRE_DELETE_HOOK_MESSAGE };
  if (state === LifecycleStates.PreparingUpdate)
    return { action: 'addNotReadyKey', message: PRE_UPDATE_HOOK_MESSAGE };
  if (state === LifecycleStates.Updated)
    return { action: 'removeNotReadyKey', message: PRE_UPDATE_HOOK_MESSAGE };
  return { action: 'none' };
}

function applyNotReadyPolicy(pod: Pod, state: LifecycleState, now: Now): Pod {
  const a = podNotReadyPolicyAction(state);
  if (a.action === 'addNotReadyKey') return addNotReadyKey(pod, a.message!, now);
  if (a.action === 'removeNotReadyKey') return removeNotReadyKey(pod, a.message!, now);
  return pod;
}

function writeState(
  pod: Pod,
  state: LifecycleState,
  now: Now,
  extraLabels: Record<string, string> = {},
  finalizers: string[] = [],
): Pod {
  const meta = pod.metadata ?? {};
  // Copies by extend, not spreads, where a key may be new (a hidden class per pod otherwise: objects.ts).
  const labels: Record<string, string> = extend(meta.labels, extraLabels);
  labels[LABEL_LIFECYCLE_STATE] = state;
  const annotations: Record<string, string> = extend(meta.annotations);
  annotations[ANNOTATION_LIFECYCLE_TIMESTAMP] = toRFC3339(now);
  const metadata = extend(meta, { labels, annotations });
  if (finalizers.length > 0) {
    const allFinalizers = [...(meta.finalizers ?? [])];
    for (const f of finalizers) if (!allFinalizers.includes(f)) allFinalizers.push(f);
    metadata.finalizers = allFinalizers;
  }
  return extend(pod, { metadata });
}

/**
 * R3.1 + R3.4: writes the lifecycle state label and the `lifecycle.apps.kruise.io/timestamp`
 * annotation (RFC 3339 `now`). With `markPodNotReady`, first the KruisePodReady policy of R3.4
 * runs — even when the pod is already in that state; a state that is already set is not
 * rewritten. Returns the same pod when nothing changed.
 * @throws KruiseError if `now` is not a valid time.
 */
export function setPodLifecycleState(
  pod: Pod,
  state: LifecycleState,
  now: Now,
  markPodNotReady = false,
): Pod {
  const p = markPodNotReady ? applyNotReadyPolicy(pod, state, now) : pod;
  if (getPodLifecycleState(p) === state) return p;
  return writeState(p, state, now);
}

/**
 * R3.5 write with handler (leaving `Updated` for a new revision): nothing without a hook;
 * otherwise R3.4 with the hook's flag, and — when the state changes — the hook's labels are
 * added, its finalizers appended (no duplicates) and the state written (R3.1).
 * @throws KruiseError if `now` is not a valid time.
 */
export function setPodLifecycleWithHandler(
  pod: Pod,
  state: LifecycleState,
  hook: LifecycleHook | null | undefined,
  now: Now,
): Pod {
  if (!hook) return pod;
  const p = isHookMarkPodNotReady(hook) ? applyNotReadyPolicy(pod, state, now) : pod;
  if (getPodLifecycleState(p) === state) return p;
  return writeState(p, state, now, hook.labelsHandler ?? {}, hook.finalizersHandler ?? []);
}

/** Facts the §3.3 refresh table needs; a function is only called when its row applies. */
export interface LifecycleRefreshChecks {
  /** Is the pod at the update revision (R3.9 / the controller's rule)? For `PreparingUpdate`. */
  atUpdateRevision?: boolean | (() => boolean);
  /** Does the pod-level in-place completion check R2.6.1 pass? For `Updating`. */
  updateCompleted?: boolean | (() => boolean);
}

const truthy = (v: boolean | (() => boolean) | undefined): boolean =>
  typeof v === 'function' ? v() : v === true;

/**
 * §3.3 refresh table: the state a pod should move to now, or `undefined` when it stays.
 * `PreparingNormal` → `Normal` when there is no lifecycle/preNormal or it is all-hooked;
 * `PreparingUpdate` at the update revision and `Updating` once completed → `Updated` if a
 * lifecycle is set and the pod is not all-hooked on inPlaceUpdate (absent hook = not
 * all-hooked), else `Normal`; `Updated` → `Normal` when there is no lifecycle/inPlaceUpdate or
 * it is all-hooked.
 * Example: `Updating`, lifecycle `{preDelete: …}` only, completed → `Updated`; the next
 * refresh moves it to `Normal`.
 */
export function lifecycleRefreshTarget(
  pod: Pod,
  lifecycle: Lifecycle | null | undefined,
  checks: LifecycleRefreshChecks = {},
): LifecycleState | undefined {
  const current = getPodLifecycleState(pod);
  let target: LifecycleState | undefined;
  switch (current) {
    case LifecycleStates.PreparingNormal:
      if (!lifecycle?.preNormal || isAllHooked(lifecycle.preNormal, pod)) target = LifecycleStates.Normal;
      break;
    case LifecycleStates.PreparingUpdate:
      if (truthy(checks.atUpdateRevision)) target = stateAfterUpdate(pod, lifecycle);
      break;
    case LifecycleStates.Updating:
      if (truthy(checks.updateCompleted)) target = stateAfterUpdate(pod, lifecycle);
      break;
    case LifecycleStates.Updated:
      if (!lifecycle?.inPlaceUpdate || isAllHooked(lifecycle.inPlaceUpdate, pod))
        target = LifecycleStates.Normal;
      break;
  }
  return target !== undefined && target !== current ? target : undefined;
}

/**
 * The §3.3 state after an update: `Updated` when a lifecycle is set and the pod is not
 * all-hooked on inPlaceUpdate (absent hook = not all-hooked), else `Normal`. (A plain function,
 * not a closure per call: the refresh runs for every pod.)
 */
function stateAfterUpdate(pod: Pod, lifecycle: Lifecycle | null | undefined): LifecycleState {
  return lifecycle && !isAllHooked(lifecycle.inPlaceUpdate, pod)
    ? LifecycleStates.Updated
    : LifecycleStates.Normal;
}

/**
 * §3.3 applied: writes the refresh target (if any) with R3.4 and
 * `markPodNotReady = lifecycle.inPlaceUpdate.markPodNotReady`. Returns the same pod when the
 * state stays. @throws KruiseError if `now` is not a valid time.
 */
export function refreshPodLifecycle(
  pod: Pod,
  lifecycle: Lifecycle | null | undefined,
  checks: LifecycleRefreshChecks,
  now: Now,
): Pod {
  const target = lifecycleRefreshTarget(pod, lifecycle, checks);
  if (target === undefined) return pod;
  return setPodLifecycleState(pod, target, now, isHookMarkPodNotReady(lifecycle?.inPlaceUpdate));
}

/** The §3.4 decision for a pod chosen for an in-place-able update. */
export type LifecycleUpdateAction = 'PreparingUpdate' | 'updateNow' | 'wait' | 'notAllowed';

/**
 * §3.4 update table: `""`/`PreparingNormal`/`Normal` → `PreparingUpdate` when a lifecycle is set
 * and the pod is hooked on inPlaceUpdate, else `updateNow`; `Updated` → `PreparingUpdate`
 * (written with the handler, {@link setPodPreparingUpdate}); `PreparingUpdate` → `wait` while
 * still hooked, else `updateNow`; `Updating` → `updateNow`; anything else → `notAllowed`.
 */
export function lifecycleUpdateAction(
  pod: Pod,
  lifecycle: Lifecycle | null | undefined,
): LifecycleUpdateAction {
  const hooked = !!lifecycle && isHooked(lifecycle.inPlaceUpdate, pod);
  switch (getPodLifecycleState(pod)) {
    case '':
    case LifecycleStates.PreparingNormal:
    case LifecycleStates.Normal:
      return hooked ? 'PreparingUpdate' : 'updateNow';
    case LifecycleStates.Updated:
      return 'PreparingUpdate';
    case LifecycleStates.PreparingUpdate:
      return hooked ? 'wait' : 'updateNow';
    case LifecycleStates.Updating:
      return 'updateNow';
    default:
      return 'notAllowed';
  }
}

/**
 * Writes `PreparingUpdate` as §3.4 prescribes: from `Updated` with the inPlaceUpdate handler
 * (R3.5; nothing without that hook), otherwise with R3.4 and the hook's markPodNotReady.
 * @throws KruiseError if `now` is not a valid time.
 */
export function setPodPreparingUpdate(pod: Pod, lifecycle: Lifecycle | null | undefined, now: Now): Pod {
  if (getPodLifecycleState(pod) === LifecycleStates.Updated) {
    return setPodLifecycleWithHandler(pod, LifecycleStates.PreparingUpdate, lifecycle?.inPlaceUpdate, now);
  }
  return setPodLifecycleState(
    pod,
    LifecycleStates.PreparingUpdate,
    now,
    isHookMarkPodNotReady(lifecycle?.inPlaceUpdate),
  );
}

/**
 * R3.7 before deleting a pod: `markPreparingDelete` when a lifecycle is set and the pod is
 * hooked on preDelete, `wait` when it is hooked and already `PreparingDelete`, else `delete`.
 */
export function preDeleteAction(
  pod: Pod,
  lifecycle: Lifecycle | null | undefined,
): 'markPreparingDelete' | 'delete' | 'wait' {
  if (!lifecycle || !isHooked(lifecycle.preDelete, pod)) return 'delete';
  return getPodLifecycleState(pod) === LifecycleStates.PreparingDelete ? 'wait' : 'markPreparingDelete';
}

/** R3.7 write: `PreparingDelete` with R3.4 and the preDelete hook's markPodNotReady. */
export function setPodPreparingDelete(pod: Pod, lifecycle: Lifecycle | null | undefined, now: Now): Pod {
  return setPodLifecycleState(
    pod,
    LifecycleStates.PreparingDelete,
    now,
    isHookMarkPodNotReady(lifecycle?.preDelete),
  );
}
