// The update limiter of docs/reference/cloneset.md §9.4 (`limitUpdateIndexes`): how many of the
// ordered update candidates may be updated now without breaking the unavailability budget.
import type { PodFacts } from './facts';
import { revisionLabelMatcher } from './predicates';
import type { CloneSetDiffs } from './types';

/** What {@link limitUpdateIndexes} works on. */
export interface LimitUpdateOptions {
  /** `updateNum` and `updateMaxUnavailable` of §6 (rule D9). */
  diffs: Pick<CloneSetDiffs, 'updateNum' | 'updateMaxUnavailable'>;
  /**
   * The ordered candidates (§9.3), as list positions. May be lazy: it is read only as far as
   * the walk goes, and not at all when nothing can be accepted (`updateNum` 0, or the unavailable
   * pods on the target already use the whole budget), so a reconcile that cannot update skips
   * building and ordering the candidates.
   */
  candidates: Iterable<number>;
  /** The fact table of all the pods (availability at the reconcile's `minReadySeconds` and `now`). */
  facts: PodFacts;
  /** The revision the candidates move to: the update revision, or the current one on rollback. */
  targetRevision: string;
}

/**
 * §9.4: truncate the ordered candidates to `|updateNum|`, then accept them one by one while
 * the budget `updateMaxUnavailable` allows:
 * - stop when `targetUnavailable + accepted >= updateMaxUnavailable`, where
 *   `targetUnavailable` counts the unavailable pods already on the target revision
 *   (`hashEquals(pod, targetRevision)`);
 * - a currently available candidate costs one unit of `unavailable` (all unavailable pods):
 *   stop when `unavailable >= updateMaxUnavailable`. Updating an unavailable pod costs nothing.
 *
 * Example (upstream TestCalculateUpdateCount #0): 3 old ready pods, updateNum 3,
 * updateMaxUnavailable 1. The first candidate is accepted (0 + 0 < 1, unavailable 0 → 1); the
 * second stops at targetUnavailable + accepted = 0 + 1 >= 1. One pod is updated.
 */
export function limitUpdateIndexes(options: LimitUpdateOptions): number[] {
  const { diffs, candidates, facts } = options;
  const limit = Math.abs(diffs.updateNum);
  const onTarget = revisionLabelMatcher(options.targetRevision);
  let unavailable = 0;
  let targetUnavailable = 0;
  for (let i = 0; i < facts.length; i++) {
    if (facts.available(i)) continue;
    unavailable++;
    if (onTarget(facts.content(i).revisionLabel)) targetUnavailable++;
  }
  const max = diffs.updateMaxUnavailable;
  const accepted: number[] = [];
  // the first step of the walk below would stop here: do not start the candidate sequence
  if (limit === 0 || targetUnavailable >= max) return accepted;
  for (const idx of candidates) {
    if (targetUnavailable + accepted.length >= max) break;
    if (facts.available(idx)) {
      if (unavailable >= max) break;
      unavailable++;
    }
    accepted.push(idx);
    if (accepted.length >= limit) break;
  }
  return accepted;
}
