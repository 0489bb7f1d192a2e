// Internal pod facts the orderings compare (docs/reference/core.md §4.3, R7.3; docs/reference/cloneset.md §8.3):
// node assignment, phase rank, Ready condition and its time, restart counts, creation time.
// Not re-exported from the package; Ready and times come from ../../pods/conditions and ../../kube/time.
import type { Pod } from 'kubernetes-types/core/v1.js';
import { parseTime } from '../../kube/time';
import { podReadySince } from '../../pods/conditions';

/** Labels of a pod, or an empty map for a missing pod or label map. */
export function podLabels(pod: Pod | null | undefined): Readonly<Record<string, string>> {
  return pod?.metadata?.labels ?? {};
}

/** Rule 1 of the active-pods order: a pod without `spec.nodeName` is unassigned. */
export function isAssigned(pod: Pod): boolean {
  return (pod.spec?.nodeName ?? '') !== '';
}

/**
 * Rule 2 of the active-pods order: Pending (and any phase other than Unknown/Running,
 * including an empty phase) = 0, Unknown = 1, Running = 2.
 */
export function phaseRank(pod: Pod): number {
  switch (pod.status?.phase) {
    case 'Unknown':
      return 1;
    case 'Running':
      return 2;
    default:
      return 0;
  }
}

/** When the pod became Ready (its Ready=True condition's lastTransitionTime), or `null` for zero. */
export function readyTime(pod: Pod): number | null {
  return podReadySince(pod)?.getTime() ?? null;
}

/** The pod's creation time, or `null` for zero. */
export function creationTime(pod: Pod): number | null {
  return parseTime(pod.metadata?.creationTimestamp)?.getTime() ?? null;
}

/** The highest `restartCount` over `status.containerStatuses` (0 when there are none). */
export function maxContainerRestarts(pod: Pod): number {
  let max = 0;
  for (const s of pod.status?.containerStatuses ?? []) max = Math.max(max, s.restartCount ?? 0);
  return max;
}

/**
 * Kubernetes' `afterOrZero(t1, t2)` as a three-way comparison: the later time sorts first,
 * and a zero time sorts before any non-zero time (it counts as "most recent").
 * Returns -1 when `t1` goes first, 1 when `t2` goes first, 0 when equal.
 *
 * Example: (zero, 2024-02-01) → -1; (2024-02-01, 2024-01-01) → -1; (2024-01-01, 2024-02-01) → 1.
 */
export function compareAfterOrZero(t1: number | null, t2: number | null): number {
  if (t1 === t2) return 0;
  if (t1 === null) return -1;
  if (t2 === null) return 1;
  return t1 > t2 ? -1 : 1;
}

/** Three-way comparison of two booleans where `false` sorts first. */
export function falseFirst(a: boolean, b: boolean): number {
  return a === b ? 0 : a ? 1 : -1;
}
