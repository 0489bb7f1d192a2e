// Kubernetes' "active pods" order (controller.ActivePods, Kubernetes v1.30), the default
// order of CloneSet update candidates (spec/core.md §4.3; spec/cloneset.md §9.3.1 = rules
// 1, 2, 4, 7, 8, 9 of §8.3). The most disposable pod comes first. Stable: ties keep input order.
import type { Pod } from 'kubernetes-types/core/v1';
import { isPodReady as isReady } from '../readiness';
import {
  compareAfterOrZero,
  creationTime,
  falseFirst,
  isAssigned,
  maxContainerRestarts,
  phaseRank,
  readyTime,
} from './podFacts';

/**
 * Three-way "active pods" comparator: negative when `a` comes first (is more disposable).
 * 1. unassigned (no `spec.nodeName`) before assigned;
 * 2. Pending (and any other phase, including empty) < Unknown < Running;
 * 3. not Ready before Ready (R5.1);
 * 4. both Ready: the pod Ready for less time first, i.e. the later Ready `lastTransitionTime`
 *    first, a zero time counting as the most recent;
 * 5. higher maximum container `restartCount` first;
 * 6. newer `creationTimestamp` first, a zero time counting as the newest;
 * 7. otherwise 0 (equal).
 *
 * The order depends on timestamps only, never on "now": comparing how long two pods have been
 * Ready at the same instant is comparing their Ready times.
 *
 * Example: two Running Ready pods, Ready since 2024-02-01 and 2024-01-01 → the one Ready since
 * 2024-02-01 comes first (Ready for less time); with equal Ready times, 9001 restarts beats 0.
 */
export function compareActivePods(a: Pod, b: Pod): number {
  return (
    falseFirst(isAssigned(a), isAssigned(b)) ||
    Math.sign(phaseRank(a) - phaseRank(b)) ||
    falseFirst(isReady(a), isReady(b)) ||
    (isReady(a) && isReady(b) ? compareAfterOrZero(readyTime(a), readyTime(b)) : 0) ||
    Math.sign(maxContainerRestarts(b) - maxContainerRestarts(a)) ||
    compareAfterOrZero(creationTime(a), creationTime(b))
  );
}

/**
 * Returns the pods in "active pods" order ({@link compareActivePods}); a stable sort, so ties keep
 * the input order (Go's unstable sort leaves them open for more than 12 pods).
 */
export function sortActivePods<P extends Pod>(pods: readonly P[]): P[] {
  return [...pods].sort(compareActivePods);
}

/**
 * Sorts candidate indexes (positions into `pods`) by the "active pods" order of the pods they
 * point at, stably. This is the first step of the CloneSet update order (spec/cloneset.md §9.3.1),
 * before the priority and scatter sorts. Missing pods sort last.
 *
 * Example: pods `[Running Ready, Pending, Running not-Ready]`, indexes `[0, 1, 2]` → `[1, 2, 0]`.
 */
export function sortIndexesByActivePods(
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
): number[] {
  return [...indexes].sort((i, j) => {
    const a = pods[i];
    const b = pods[j];
    if (!a || !b) return a ? -1 : b ? 1 : 0;
    return compareActivePods(a, b);
  });
}
