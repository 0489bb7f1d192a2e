// CloneSet scale-in deletion order (docs/reference/core.md R7.3; docs/reference/cloneset.md §8.3 "Deletion order"):
// the pod-deletion-cost annotation and the "first = deleted first" comparator. The rankers
// feeding rule 6 live in ./rankers.
import { ANNOTATION_POD_DELETION_COST } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
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

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * R7.3 value parsing of `controller.kubernetes.io/pod-deletion-cost`: a base-10 int32. The first
 * character must be `-`, a digit 1–9, or the whole value must be `"0"` (so a leading `+` or a
 * leading zero is rejected); the rest must be digits; the value must fit in int32. Anything
 * else, and an absent annotation, is 0.
 *
 * Examples: `"10"` → 10, `"-5"` → -5, `"0"` → 0, `"+5"` → 0, `"05"` → 0, `"1e3"` → 0,
 * `"2147483647"` → 2147483647, `"2147483648"` → 0, `""` → 0.
 * Note: like Kubernetes, only the first character is checked for a leading zero, so `"-05"` → -5.
 */
export function parseDeletionCostValue(value: string | undefined | null): number {
  if (value === undefined || value === null || value === '') return 0;
  const first = value[0];
  const validFirst = first === '-' || value === '0' || (first >= '1' && first <= '9');
  if (!validFirst || !/^-?[0-9]+$/.test(value)) return 0;
  const n = Number(value);
  if (n < INT32_MIN || n > INT32_MAX) return 0;
  return n === 0 ? 0 : n; // "-0" → 0, not -0
}

/** R7.3: the pod's deletion cost (annotation `controller.kubernetes.io/pod-deletion-cost`, 0 when absent or invalid). */
export function parseDeletionCost(pod: Pod): number {
  return parseDeletionCostValue(pod.metadata?.annotations?.[ANNOTATION_POD_DELETION_COST]);
}

/** Options of the scale-in comparator. */
export interface ScaleInOrderOptions {
  /**
   * Rule 3: the availability predicate (CloneSet passes its lifecycle-aware `available(pod,
   * minReadySeconds)` at a given `now`). Absent: the rule is skipped.
   */
  isAvailable?: (pod: Pod) => boolean;
  /** Rule 6: ranks by pod object (see `scaleInRanks`); a pod missing from the map has rank 0. */
  rank?: ReadonlyMap<Pod, number>;
}

/**
 * The scale-in comparator ("first = deleted first"; docs/reference/cloneset.md §8.3, R7.3): negative when
 * `a` is deleted before `b`.
 * 1. no `spec.nodeName` before assigned;
 * 2. Pending (and any phase other than Unknown/Running, including empty) < Unknown < Running;
 * 3. not available before available (only when `opts.isAvailable` is given);
 * 4. not Ready before Ready (Ready condition only);
 * 5. **lower deletion cost first**;
 * 6. **higher rank first** (`opts.rank`);
 * 7. both Ready: the later Ready `lastTransitionTime` first (zero time first);
 * 8. higher max container restart count first;
 * 9. newer `creationTimestamp` first (zero time first);
 * 10. otherwise 0 (callers sort stably, so ties keep list order).
 *
 * Example (upstream `TestSortingActivePods/test9`): two identical Running Ready pods with deletion
 * costs 10 and 100 → the cost-10 pod is deleted first; with equal cost, a pod of rank 2 goes
 * before a pod of rank 1 even if the latter became Ready more recently.
 */
export function compareForScaleIn(a: Pod, b: Pod, opts: ScaleInOrderOptions = {}): number {
  const { isAvailable, rank } = opts;
  return (
    falseFirst(isAssigned(a), isAssigned(b)) ||
    Math.sign(phaseRank(a) - phaseRank(b)) ||
    (isAvailable ? falseFirst(isAvailable(a), isAvailable(b)) : 0) ||
    falseFirst(isReady(a), isReady(b)) ||
    Math.sign(parseDeletionCost(a) - parseDeletionCost(b)) ||
    (rank ? Math.sign((rank.get(b) ?? 0) - (rank.get(a) ?? 0)) : 0) ||
    (isReady(a) && isReady(b) ? compareAfterOrZero(readyTime(a), readyTime(b)) : 0) ||
    Math.sign(maxContainerRestarts(b) - maxContainerRestarts(a)) ||
    compareAfterOrZero(creationTime(a), creationTime(b))
  );
}

/**
 * Returns the pods in scale-in order ({@link compareForScaleIn}), first = deleted first. The sort
 * is stable, so exact ties keep list order (docs/reference/cloneset.md §8.3 rule 10).
 *
 * Example: `[Running Ready, Pending unscheduled, Running not-Ready]` → `[Pending unscheduled,
 * Running not-Ready, Running Ready]`.
 */
export function sortPodsForScaleIn<P extends Pod>(pods: readonly P[], opts: ScaleInOrderOptions = {}): P[] {
  return [...pods].sort((a, b) => compareForScaleIn(a, b, opts));
}
