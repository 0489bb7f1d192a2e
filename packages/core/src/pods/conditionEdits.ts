// Edits of a pod's conditions for the in-place, lifecycle and KruisePodReady modules (private to
// core, not re-exported): thin identity-preserving wrappers over ./conditions (R5.4, R5.5), so
// callers can tell "nothing changed" by `result === input`.
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { extend } from '../json/objects';
import type { Now } from '../kube/time';
import { recomputedReadyCondition, setCondition } from './conditions';

/** The condition of the given type, if any. */
export function findCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** True when `spec.readinessGates` contains the condition type. */
export function hasReadinessGate(pod: Pod, type: string): boolean {
  return (pod.spec?.readinessGates ?? []).some((g) => g.conditionType === type);
}

/** Returns a new pod whose `status.conditions` is `conditions`. */
export function withConditions(pod: Pod, conditions: PodCondition[]): Pod {
  return extend(pod, { status: extend(pod.status, { conditions }) }); // not spreads: ../objects.ts
}

/**
 * R5.5 set condition (./conditions) on a list, copy-on-write: the same list when no element
 * changes (the condition exists with the same status, and the same message when
 * `ifMessageChanged`), else the new list.
 */
export function setConditionInList(
  list: readonly PodCondition[],
  condition: PodCondition,
  ifMessageChanged = false,
): readonly PodCondition[] {
  const old = list.find((c) => c.type === condition.type);
  if (
    old !== undefined &&
    old.status === condition.status &&
    (!ifMessageChanged || (old.message ?? '') === (condition.message ?? ''))
  )
    return list;
  return setCondition(list, condition, { ifMessageChanged });
}

/** R5.5 set condition (./conditions); returns the same pod when nothing changed. */
export function setPodCondition(pod: Pod, condition: PodCondition, ifMessageChanged = false): Pod {
  const before = pod.status?.conditions ?? [];
  const after = setConditionInList(before, condition, ifMessageChanged);
  return after === before ? pod : withConditions(pod, after as PodCondition[]);
}

/** R5.4 recompute Ready on a condition list (./conditions); the same list when nothing changed. */
export function recomputeReadyInList(
  list: readonly PodCondition[],
  readinessGates: readonly { conditionType: string }[] | null | undefined,
  now: Now,
): readonly PodCondition[] {
  const ready = recomputedReadyCondition(list, readinessGates, now);
  return ready === undefined ? list : setConditionInList(list, ready);
}

/** R5.4 recompute Ready (./conditions); returns the same pod when nothing changed. */
export function recomputeReady(pod: Pod, now: Now): Pod {
  const before = pod.status?.conditions ?? [];
  const after = recomputeReadyInList(before, pod.spec?.readinessGates, now);
  return after === before ? pod : withConditions(pod, after as PodCondition[]);
}

/**
 * R2.1.6 condition-write rule for `InPlaceUpdateReady` on a condition list: when a condition of
 * that type with equal status, reason and message exists → no write; otherwise set it with
 * R5.5 (copy-on-write: the same list when R5.5 changes nothing). `written` says whether a write
 * was attempted (kruise then recomputes Ready for False).
 */
export function writeGateConditionInList(
  list: readonly PodCondition[],
  condition: PodCondition,
): { list: readonly PodCondition[]; written: boolean } {
  const old = list.find((c) => c.type === condition.type);
  if (
    old &&
    old.status === condition.status &&
    (old.reason ?? '') === (condition.reason ?? '') &&
    (old.message ?? '') === (condition.message ?? '')
  ) {
    return { list, written: false };
  }
  return { list: setConditionInList(list, condition), written: true };
}

/**
 * R2.1.6 condition-write rule for `InPlaceUpdateReady` ({@link writeGateConditionInList}) on a
 * pod. Returns the pod (the same object when nothing changed) and whether a write was attempted.
 */
export function writeGateCondition(pod: Pod, condition: PodCondition): { pod: Pod; written: boolean } {
  const before = pod.status?.conditions ?? [];
  const w = writeGateConditionInList(before, condition);
  return {
    pod: w.list === before ? pod : withConditions(pod, w.list as PodCondition[]),
    written: w.written,
  };
}
