// Private helpers of the in-place/lifecycle/readiness modules (not re-exported): thin
// identity-preserving wrappers over readiness.ts (R5.4, R5.5, time), so callers can tell
// "nothing changed" by `result === input`.
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { recomputeReadyCondition, setCondition, timeOf, toRFC3339 } from '../readiness';

/** A point in time as accepted by every pure function: RFC 3339 text or a Date. */
export type Now = string | Date;

/** Epoch milliseconds of `now`. @throws KruiseError if it is not a valid time. */
export function toMillis(now: Now): number {
  return timeOf(now);
}

/** RFC 3339, UTC, whole seconds. @throws KruiseError if `now` is not a valid time. */
export function formatTime(now: Now): string {
  return toRFC3339(now);
}

/** True when `now` is a valid time (the entry points check it once and report an error). */
export function isValidNow(now: Now): boolean {
  try {
    timeOf(now);
    return true;
  } catch {
    return false;
  }
}

/**
 * `now` as RFC 3339 text (UTC, whole seconds), or `undefined` when it is not a valid time: the
 * entry points parse `now` once with this and pass the text on, which later formatting returns
 * without building a Date. Example: `validNowText('2024-01-01T08:00:00+08:00')` →
 * `"2024-01-01T00:00:00Z"`; `validNowText('yesterday')` → `undefined`.
 */
export function validNowText(now: Now): string | undefined {
  try {
    return toRFC3339(now);
  } catch {
    return undefined;
  }
}

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
  return { ...pod, status: { ...(pod.status ?? {}), conditions } };
}

function sameList(a: readonly PodCondition[], b: readonly PodCondition[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** R5.5 set condition (readiness.ts); returns the same pod when nothing changed. */
export function setPodCondition(pod: Pod, condition: PodCondition, ifMessageChanged = false): Pod {
  const before = pod.status?.conditions ?? [];
  const after = setCondition(before, condition, { ifMessageChanged });
  return sameList(before, after) ? pod : withConditions(pod, after);
}

/** R5.4 recompute Ready (readiness.ts); returns the same pod when nothing changed. */
export function recomputeReady(pod: Pod, now: Now): Pod {
  const before = pod.status?.conditions ?? [];
  const next = recomputeReadyCondition(pod, now);
  const after = next.status?.conditions ?? [];
  return sameList(before, after) ? pod : withConditions(pod, after);
}

/**
 * R2.1.6 condition-write rule for `InPlaceUpdateReady`: when a condition of that type with
 * equal status, reason and message exists → no write; otherwise set it with R5.5.
 * Returns the pod and whether a write was attempted (kruise then recomputes Ready for False).
 */
export function writeGateCondition(pod: Pod, condition: PodCondition): { pod: Pod; written: boolean } {
  const old = findCondition(pod, condition.type);
  if (
    old &&
    old.status === condition.status &&
    (old.reason ?? '') === (condition.reason ?? '') &&
    (old.message ?? '') === (condition.message ?? '')
  ) {
    return { pod, written: false };
  }
  return { pod: setPodCondition(pod, condition), written: true };
}

/** Sorted copy, byte-wise like Go's sort.Strings (names here are ASCII). */
export function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** True when a record is absent or has no keys. */
export function isEmptyMap(m: object | null | undefined): boolean {
  return !m || Object.keys(m).length === 0;
}
