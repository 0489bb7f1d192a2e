// The update limiter of docs/reference/cloneset.md §9.4 (`limitUpdateIndexes`): how many of the
// ordered update candidates may be updated now without breaking the unavailability budget.
import type { Pod } from 'kubernetes-types/core/v1.js';
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
 * `isAvailableAt` may answer `available(pod, minReadySeconds)` and `isOnTargetAt` may answer
 * `hashEquals(pod, targetRevision)` from precomputed facts. `candidates` may be lazy: it is read
 * only as far as the walk goes, and not at all when nothing can be accepted (`updateNum` 0, or
 * the unavailable pods on the target already use the whole budget) — so a caller passing a lazy
 * sequence skips building and ordering the candidates on such reconciles.
 */
export function limitUpdateIndexes(
  diffs: Pick<CloneSetDiffs, 'updateNum' | 'updateMaxUnavailable'>,
  candidates: Iterable<number>,
  pods: readonly Pod[],
  targetRevision: string,
  minReadySeconds: number,
  nowMs: number,
  isAvailableAt?: (index: number) => boolean,
  isOnTargetAt?: (index: number) => boolean,
): number[] {
  const limit = Math.abs(diffs.updateNum);
  const isAvailable =
    isAvailableAt ?? ((i: number) => isCloneSetPodAvailable(pods[i], minReadySeconds, nowMs));
  const onTarget = isOnTargetAt ?? matcherAt(pods, targetRevision);
  let unavailable = 0;
  let targetUnavailable = 0;
  for (let i = 0; i < pods.length; i++) {
    if (isAvailable(i)) continue;
    unavailable++;
    if (onTarget(i)) targetUnavailable++;
  }
  const max = diffs.updateMaxUnavailable;
  const accepted: number[] = [];
  // the first step of the walk below would stop here: do not start the candidate sequence
  if (limit === 0 || targetUnavailable >= max) return accepted;
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

/** `hashEquals(pods[i], revision)` by index (memoised per distinct label value). */
function matcherAt(pods: readonly Pod[], revision: string): (i: number) => boolean {
  const matches = revisionMatcher(revision);
  return (i) => matches(pods[i]);
}
