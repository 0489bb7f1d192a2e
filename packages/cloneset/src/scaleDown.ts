// Scale down and deletion (docs/reference/cloneset.md §8): PreparingDelete cancellation,
// `deletePods` with the preDelete hook and PVC cleanup, the ready-pod deletion limit,
// and scale-in selection.
import { LifecycleStates } from '@kruise-ts/api';
import { isHooked, pickPodsForScaleIn, setPodLifecycleState } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { instanceIdOf } from './ownership';
import { coreRef, podPatchAction } from './podPatch';
import type { SyncState } from './sync';
import { type CloneSetDiffs, Reasons } from './types';

/**
 * §8.1 `managePreparingDelete`: while `diff = R - N + numToDelete > 0`, move PreparingDelete
 * pods that are not specified-delete back to **PreparingNormal** (quirk 13), one per unit of
 * diff. Skipped entirely when the preDelete or inPlaceUpdate hook has `markPodNotReady`.
 * `preparingDelete` holds list positions. Returns true when a pod was patched.
 *
 * Example: R raised from 2 back to 3 while one pod waits in PreparingDelete: N = 3,
 * numToDelete = 1, diff = 3 - 3 + 1 = 1 → that pod is cancelled.
 */
export function managePreparingDelete(
  state: SyncState,
  preparingDelete: readonly number[],
  numToDelete: number,
): boolean {
  const lc = state.cs.spec.lifecycle;
  if (lc?.preDelete?.markPodNotReady || lc?.inPlaceUpdate?.markPodNotReady) return false;
  let diff = state.params.replicas - state.pods.length + numToDelete;
  let modified = false;
  for (const i of preparingDelete) {
    if (diff <= 0) break;
    if (state.facts.specified(i)) continue;
    const pod = state.pods[i];
    const next = setPodLifecycleState(pod, LifecycleStates.PreparingNormal, state.nowStr, false);
    const action = podPatchAction(pod, next, Reasons.CancelPreparingDelete);
    if (action) {
      state.rec.act(action);
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
        state.rec.act(action);
        modified = true;
      }
      continue;
    }
    if (!state.burst.take()) continue;
    state.rec.act({
      verb: 'delete',
      target: coreRef(pod, 'Pod'),
      reason,
      ...(pod.metadata?.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
    });
    state.rec.event('Normal', 'SuccessfulDelete', `succeed to delete pod ${pod.metadata?.name ?? ''}`);
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
      state.rec.act({
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
 * The ready-pod deletion limit (§8.2, §8.3): walking the pods at `indexes` in order, a
 * not-ready pod (`!ready`, lifecycle-aware) is always deletable; a ready one only while
 * `deleteReadyLimit > 0`, each using one unit.
 *
 * Example: limit 1, pods [ready a, unready b, ready c] → [a, b].
 */
export function filterByDeleteReadyLimit(
  state: SyncState,
  indexes: readonly number[],
  deleteReadyLimit: number,
): number[] {
  let limit = deleteReadyLimit;
  const out: number[] = [];
  for (const i of indexes) {
    if (!state.facts.ready(i)) {
      out.push(i);
    } else if (limit > 0) {
      out.push(i);
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
 * `pickPodsForScaleIn`, with CloneSet's lifecycle-aware availability as rule 3). Returns list
 * positions, in deletion order.
 */
export function choosePodsToDelete(
  state: SyncState,
  isUpdated: (index: number) => boolean,
  diffs: Pick<CloneSetDiffs, 'scaleDownNum' | 'scaleDownNumOldRevision'>,
): number[] {
  const notUpdated: Pod[] = [];
  const updated: Pod[] = [];
  const indexOf = new Map<Pod, number>();
  for (let i = 0; i < state.pods.length; i++) {
    const pod = state.pods[i];
    (isUpdated(i) ? updated : notUpdated).push(pod);
    indexOf.set(pod, i);
  }
  const ctx = {
    topologySpreadConstraints: state.cs.spec.template?.spec?.topologySpreadConstraints,
    nodes: state.nodes,
    isAvailable: (pod: Pod) => state.facts.available(indexOf.get(pod)!),
  };
  const tot = diffs.scaleDownNum;
  const old = diffs.scaleDownNumOldRevision;
  const chosen =
    old >= tot
      ? pickPodsForScaleIn(notUpdated, tot, ctx)
      : old > 0
        ? [...pickPodsForScaleIn(notUpdated, old, ctx), ...pickPodsForScaleIn(updated, tot - old, ctx)]
        : pickPodsForScaleIn(updated, tot, ctx);
  return chosen.map((pod) => indexOf.get(pod)!); // pickPodsForScaleIn returns pods it was given
}
