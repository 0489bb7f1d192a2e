// Scale down and deletion (docs/reference/cloneset.md §8): PreparingDelete cancellation,
// `deletePods` with the preDelete hook and PVC cleanup, the ready-pod deletion limit,
// and scale-in selection.
import { LifecycleStates } from '@kruise-ts/api';
import { isHooked, pickPodsForScaleIn, setPodLifecycleState } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { instanceIdOf } from './ownership';
import { coreRef, podPatchAction } from './podPatch';
import { isCloneSetPodReady } from './predicates';
import { emitEvent, type SyncState } from './sync';
import { Reasons } from './types';

/**
 * §8.1 `managePreparingDelete`: while `diff = R - N + numToDelete > 0`, move PreparingDelete
 * pods that are not specified-delete back to **PreparingNormal** (quirk 13), one per unit of
 * diff. Skipped entirely when the preDelete or inPlaceUpdate hook has `markPodNotReady`.
 * Returns true when a pod was patched.
 *
 * Example: R raised from 2 back to 3 while one pod waits in PreparingDelete: N = 3,
 * numToDelete = 1, diff = 3 - 3 + 1 = 1 → that pod is cancelled.
 */
export function managePreparingDelete(
  state: SyncState,
  preparingDelete: readonly Pod[],
  numToDelete: number,
): boolean {
  const lc = state.cs.spec.lifecycle;
  if (lc?.preDelete?.markPodNotReady || lc?.inPlaceUpdate?.markPodNotReady) return false;
  let diff = state.params.replicas - state.pods.length + numToDelete;
  let modified = false;
  for (const pod of preparingDelete) {
    if (diff <= 0) break;
    if (state.isSpecifiedDelete(pod)) continue;
    const next = setPodLifecycleState(pod, LifecycleStates.PreparingNormal, state.nowStr, false);
    const action = podPatchAction(pod, next, Reasons.CancelPreparingDelete);
    if (action) {
      state.actions.push(action);
      modified = true;
    }
    diff--;
  }
  return modified;
}

/**
 * §8.2 `deletePods`: a pod hooked by `lifecycle.preDelete` (any finalizer or label of the hook)
 * moves to PreparingDelete instead (with `markPodNotReady`, a NotReady key too) and stays; any
 * other pod is deleted (uid precondition) together with every owned PVC of its instance id.
 * Returns true when anything changed.
 *
 * Deletions stop at the reconcile's burst (README "Differences"): of 800 pods to scale in, 500
 * go now, in the order given, and the next reconcile picks the rest again. Moving a hooked pod to
 * PreparingDelete is a patch, not a delete, and does not use the burst.
 */
export function deletePods(state: SyncState, pods: readonly Pod[], reason: string): boolean {
  const preDelete = state.cs.spec.lifecycle?.preDelete;
  let modified = false;
  let pvcsById: Map<string, typeof state.pvcs> | undefined;
  for (const pod of pods) {
    if (preDelete && isHooked(preDelete, pod)) {
      const next = setPodLifecycleState(
        pod,
        LifecycleStates.PreparingDelete,
        state.nowStr,
        preDelete.markPodNotReady ?? false,
      );
      const action = podPatchAction(pod, next, Reasons.PreparingDelete);
      if (action) {
        state.actions.push(action);
        modified = true;
      }
      continue;
    }
    if (!state.burst.take()) continue;
    state.actions.push({
      verb: 'delete',
      target: coreRef(pod, 'Pod'),
      reason,
      ...(pod.metadata?.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
    });
    emitEvent(state, 'Normal', 'SuccessfulDelete', `succeed to delete pod ${pod.metadata?.name ?? ''}`);
    modified = true;
    const id = instanceIdOf(pod);
    if (id === undefined) continue;
    if (!pvcsById) {
      pvcsById = new Map();
      for (const pvc of state.pvcs) {
        const pid = instanceIdOf(pvc);
        if (pid === undefined) continue;
        const list = pvcsById.get(pid);
        if (list) list.push(pvc);
        else pvcsById.set(pid, [pvc]);
      }
    }
    for (const pvc of pvcsById.get(id) ?? []) {
      state.actions.push({
        verb: 'delete',
        target: coreRef(pvc, 'PersistentVolumeClaim'),
        reason,
        ...(pvc.metadata?.uid ? { preconditions: { uid: pvc.metadata.uid } } : {}),
      });
    }
  }
  return modified;
}

/**
 * The ready-pod deletion limit (§8.2, §8.3): walking `pods` in order, a not-ready pod
 * (`!ready`, lifecycle-aware) is always deletable; a ready one only while `deleteReadyLimit > 0`,
 * each using one unit.
 *
 * Example: limit 1, pods [ready a, unready b, ready c] → [a, b].
 */
export function filterByDeleteReadyLimit(pods: readonly Pod[], deleteReadyLimit: number): Pod[] {
  let limit = deleteReadyLimit;
  const out: Pod[] = [];
  for (const pod of pods) {
    if (!isCloneSetPodReady(pod)) {
      out.push(pod);
    } else if (limit > 0) {
      out.push(pod);
      limit--;
    }
  }
  return out;
}

/**
 * §8.3 scale-in selection: split the pods with the Scale predicate into not-updated and
 * updated; with `tot = scaleDownNum`, `old = scaleDownNumOldRevision`: `old >= tot` takes `tot`
 * not-updated; `0 < old < tot` takes `old` not-updated and `tot - old` updated; `old == 0` takes
 * `tot` updated. Each group is ranked and sorted by the deletion order (core's
 * `pickPodsForScaleIn`, with CloneSet's lifecycle-aware availability as rule 3).
 */
export function choosePodsToDelete(
  state: SyncState,
  isUpdated: (index: number) => boolean,
  scaleDownNum: number,
  scaleDownNumOldRevision: number,
): Pod[] {
  const notUpdated: Pod[] = [];
  const updated: Pod[] = [];
  const available = new Map<Pod, boolean>();
  for (let i = 0; i < state.pods.length; i++) {
    const pod = state.pods[i];
    (isUpdated(i) ? updated : notUpdated).push(pod);
    available.set(pod, state.facts.available(i));
  }
  const ctx = {
    topologySpreadConstraints: state.cs.spec.template?.spec?.topologySpreadConstraints,
    nodes: state.nodes,
    isAvailable: (pod: Pod) => available.get(pod) ?? false,
  };
  const tot = scaleDownNum;
  const old = scaleDownNumOldRevision;
  if (old >= tot) return pickPodsForScaleIn(notUpdated, tot, ctx);
  if (old > 0)
    return [...pickPodsForScaleIn(notUpdated, old, ctx), ...pickPodsForScaleIn(updated, tot - old, ctx)];
  return pickPodsForScaleIn(updated, tot, ctx);
}
