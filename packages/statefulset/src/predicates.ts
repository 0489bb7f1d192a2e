// Pod predicates of the Advanced StatefulSet controller (docs/reference/statefulset.md §1): created,
// pending, failed, terminating, running-and-ready, available (with ASTS's `<=` boundary and
// the remaining wait), healthy; and minReadySeconds.
import { LifecycleStates, type StatefulSet } from '@kruise-ts/api';
import { getPodCondition, getPodLifecycleState, isPodReady, parseTime } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';

/** `MaxMinReadySeconds`: validation bound of `rollingUpdate.minReadySeconds` (§1). */
export const MAX_MIN_READY_SECONDS = 300;

/** §1 `m`: `updateStrategy.rollingUpdate.minReadySeconds`, 0 when `rollingUpdate` or the field is absent. */
export function getMinReadySeconds(set: StatefulSet): number {
  return set.spec.updateStrategy?.rollingUpdate?.minReadySeconds ?? 0;
}

/** §1 `created(p)`: `status.phase` is non-empty (an empty phase counts as not yet created). */
export function isCreated(pod: Pod | null | undefined): boolean {
  return !!pod?.status?.phase;
}

/** §1 `pending(p)`: phase `Pending`. */
export function isPending(pod: Pod | null | undefined): boolean {
  return pod?.status?.phase === 'Pending';
}

/** §1 `failed(p)`: phase `Failed`. */
export function isFailed(pod: Pod | null | undefined): boolean {
  return pod?.status?.phase === 'Failed';
}

/** §1 `succeeded(p)`: phase `Succeeded`. */
export function isSucceeded(pod: Pod | null | undefined): boolean {
  return pod?.status?.phase === 'Succeeded';
}

/** §1 `terminating(p)`: `metadata.deletionTimestamp` is set. */
export function isTerminating(pod: Pod | null | undefined): boolean {
  return !!pod?.metadata?.deletionTimestamp;
}

/** §1 `runningAndReady(p)`: phase `Running` and condition `Ready` True (lifecycle and deletion ignored). */
export function isRunningAndReady(pod: Pod | null | undefined): boolean {
  return pod?.status?.phase === 'Running' && isPodReady(pod);
}

/** Lifecycle state absent/`""` or `Normal` (§1, R11.4). */
export function isLifecycleNormal(pod: Pod | null | undefined): boolean {
  const s = getPodLifecycleState(pod);
  return s === '' || s === LifecycleStates.Normal;
}

/** Result of {@link runningAndAvailable}: `waitSeconds` > 0 when time alone will make the pod available. */
export interface Availability {
  available: boolean;
  /** Seconds until the pod becomes available if nothing else changes (0 when not time-bound). */
  waitSeconds: number;
}

/**
 * §1 `available(p, m)`: lifecycle `""`/`Normal`, running and ready, and ready for long enough
 * (`readyLongEnough`). Not available for lifecycle or readiness: wait 0.
 *
 * Example: Ready since 10:00:00, m = 10: at 10:00:07 not available, wait 3; at 10:00:10 available.
 */
export function runningAndAvailable(pod: Pod | null | undefined, m: number, nowMs: number): Availability {
  if (!isLifecycleNormal(pod) || !isRunningAndReady(pod)) return { available: false, waitSeconds: 0 };
  return readyLongEnough(pod, m, nowMs);
}

/**
 * The minReadySeconds part of §1 `available(p, m)`, for a pod already known to be running and
 * ready: with `m > 0` the Ready condition's `lastTransitionTime` is set with
 * `now ≥ lastTransitionTime + m` (ASTS uses `<=`, docs/reference/core.md Appendix D.7). With
 * `m > 0` and no transition time the wait is `m`; before the boundary it is the remainder,
 * rounded up to a second. With `m ≤ 0`: available.
 */
export function readyLongEnough(pod: Pod | null | undefined, m: number, nowMs: number): Availability {
  if (m <= 0) return { available: true, waitSeconds: 0 };
  const since = parseTime(getPodCondition(pod, 'Ready')?.lastTransitionTime);
  if (since === null) return { available: false, waitSeconds: m };
  const remainingMs = since.getTime() + m * 1000 - nowMs;
  if (remainingMs > 0) return { available: false, waitSeconds: Math.ceil(remainingMs / 1000) };
  return { available: true, waitSeconds: 0 };
}

/** {@link runningAndAvailable} as a boolean. */
export function isRunningAndAvailable(pod: Pod | null | undefined, m: number, nowMs: number): boolean {
  return runningAndAvailable(pod, m, nowMs).available;
}

/** §1 `healthy(p)`: lifecycle `""`/`Normal`, running and ready, and not terminating. */
export function isHealthy(pod: Pod | null | undefined): boolean {
  return isLifecycleNormal(pod) && isRunningAndReady(pod) && !isTerminating(pod);
}
