// Kubernetes' "active pods" order (controller.ActivePods, Kubernetes v1.30), the default
// order of CloneSet update candidates (docs/reference/core.md §4.3; docs/reference/cloneset.md §9.3.1 = rules
// 1, 2, 4, 7, 8, 9 of §8.3). The most disposable pod comes first. Stable: ties keep input order.
import type { Pod } from 'kubernetes-types/core/v1.js';
import { parseTime } from '../../kube/time';
import { isPodReady as isReady } from '../../pods/conditions';
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
 * The facts {@link compareActivePods} reads, computed once per pod for a keyed sort. Times are
 * epoch milliseconds, `null` for a zero (or absent/unparsable) time.
 */
export interface ActivePodsKey {
  assigned: boolean;
  phase: number;
  ready: boolean;
  /** The Ready=True condition's `lastTransitionTime` (`null` when not Ready or zero). */
  readySince: number | null;
  restarts: number;
  created: number | null;
}

/**
 * A new timestamp parser (epoch ms, `null` for zero/absent/unparsable, as {@link parseTime})
 * that parses each distinct string once — timestamps repeat a lot across the pods of one
 * workload. Make one per sort or reconcile (it holds its memo; no module state).
 */
export function memoizedTimeParser(): (t: string | null | undefined) => number | null {
  const parsed = new Map<string, number | null>();
  return (t) => {
    if (!t) return null;
    let v = parsed.get(t);
    if (v === undefined) {
      v = parseTime(t)?.getTime() ?? null;
      parsed.set(t, v);
    }
    return v;
  };
}

/**
 * The {@link ActivePodsKey} of a pod (one pass over its conditions and container statuses).
 * `time` parses a timestamp (default: {@link parseTime}); pass a memoised one for many pods.
 */
export function activePodsKey(
  pod: Pod,
  time: (t: string | null | undefined) => number | null = (t) => parseTime(t)?.getTime() ?? null,
): ActivePodsKey {
  const readyCond = pod.status?.conditions?.find((c) => c.type === 'Ready'); // R5.1: the first one
  const ready = readyCond?.status === 'True';
  return {
    assigned: isAssigned(pod),
    phase: phaseRank(pod),
    ready,
    readySince: ready ? time(readyCond?.lastTransitionTime) : null,
    restarts: maxContainerRestarts(pod),
    created: time(pod.metadata?.creationTimestamp),
  };
}

/** {@link compareActivePods} on precomputed keys (the same six rules, no re-reading). */
export function compareActivePodsKeys(a: ActivePodsKey, b: ActivePodsKey): number {
  return (
    falseFirst(a.assigned, b.assigned) ||
    Math.sign(a.phase - b.phase) ||
    falseFirst(a.ready, b.ready) ||
    (a.ready && b.ready ? compareAfterOrZero(a.readySince, b.readySince) : 0) ||
    Math.sign(b.restarts - a.restarts) ||
    compareAfterOrZero(a.created, b.created)
  );
}

/**
 * A comparator of indexes into `pods` by the "active pods" order, with the keys of the pods at
 * `indexes` computed once up front (each distinct timestamp parsed once): sorting n indexes
 * costs n key computations plus O(n log n) cheap comparisons. Missing pods sort last.
 */
export function activePodsIndexComparator(
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
): (i: number, j: number) => number {
  const time = memoizedTimeParser();
  const keys: Array<ActivePodsKey | undefined> = new Array(pods.length);
  for (const i of indexes) {
    const pod = pods[i];
    if (pod && keys[i] === undefined) keys[i] = activePodsKey(pod, time);
  }
  return (i, j) => {
    const a = keys[i];
    const b = keys[j];
    if (!a || !b) return a ? -1 : b ? 1 : 0;
    return compareActivePodsKeys(a, b);
  };
}

/**
 * Returns the pods in "active pods" order ({@link compareActivePods}); a stable sort, so ties keep
 * the input order (Go's unstable sort leaves them open for more than 12 pods). Keyed: each pod's
 * facts are read once.
 */
export function sortActivePods<P extends Pod>(pods: readonly P[]): P[] {
  const indexes = pods.map((_, i) => i);
  return indexes.sort(activePodsIndexComparator(pods, indexes)).map((i) => pods[i]!);
}

/**
 * Sorts candidate indexes (positions into `pods`) by the "active pods" order of the pods they
 * point at, stably. This is the first step of the CloneSet update order (docs/reference/cloneset.md §9.3.1),
 * before the priority and scatter sorts. Missing pods sort last. Keyed: keys are computed once
 * per candidate ({@link activePodsIndexComparator}).
 *
 * Example: pods `[Running Ready, Pending, Running not-Ready]`, indexes `[0, 1, 2]` → `[1, 2, 0]`.
 */
export function sortIndexesByActivePods(
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
): number[] {
  return [...indexes].sort(activePodsIndexComparator(pods, indexes));
}
