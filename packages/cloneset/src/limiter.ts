// The update limiter of spec/cloneset.md §9.4 (`limitUpdateIndexes`): how many of the
// ordered update candidates may be updated now without breaking the unavailability budget.
import type { Pod } from 'kubernetes-types/core/v1';
import { isCloneSetPodAvailable, revisionMatcher } from './predicates';
import type { CloneSetDiffs } from './types';

/**
 * §9.4: truncate the ordered candidates to `|updateNum|`, then accept them one by one while
 * the budget `updateMaxUnavailable` allows:
 * - stop when `targetUnavailable + accepted >= updateMaxUnavailable`, where
 *   `targetUnavailable` counts the unavailable pods already on the target revision;
 * - a currently available candidate costs one unit of `unavailable` (all unavailable pods):
 *   stop when `unavailable >= updateMaxUnavailable`. Updating an unavailable pod costs nothing.
 *
 * Example (upstream TestCalculateUpdateCount #0): 3 old ready pods, updateNum 3,
 * updateMaxUnavailable 1. The first candidate is accepted (0 + 0 < 1, unavailable 0 → 1); the
 * second stops at targetUnavailable + accepted = 0 + 1 >= 1. One pod is updated.
 *
 * `isAvailableAt` may answer `available(pod, minReadySeconds)` from precomputed facts.
 * `candidates` may be lazy: it is read only as far as the walk goes.
 */
export function limitUpdateIndexes(
  diffs: Pick<CloneSetDiffs, 'updateNum' | 'updateMaxUnavailable'>,
  candidates: Iterable<number>,
  pods: readonly Pod[],
  targetRevision: string,
  minReadySeconds: number,
  nowMs: number,
  isAvailableAt?: (index: number) => boolean,
): number[] {
  const limit = Math.abs(diffs.updateNum);
  const isAvailable =
    isAvailableAt ?? ((i: number) => isCloneSetPodAvailable(pods[i], minReadySeconds, nowMs));
  const onTarget = revisionMatcher(targetRevision);
  let unavailable = 0;
  let targetUnavailable = 0;
  for (let i = 0; i < pods.length; i++) {
    if (isAvailable(i)) continue;
    unavailable++;
    if (onTarget(pods[i])) targetUnavailable++;
  }
  const max = diffs.updateMaxUnavailable;
  const accepted: number[] = [];
  if (limit === 0) return accepted;
  for (const idx of candidates) {
    if (targetUnavailable + accepted.length >= max) break;
    if (isAvailable(idx)) {
      if (unavailable >= max) break;
      unavailable++;
    }
    accepted.push(idx);
    if (accepted.length >= limit) break;
  }
  return accepted;
}
