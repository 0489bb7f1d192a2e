// The condemned phase (docs/reference/statefulset.md §7.1–§7.2, R7.1–R7.3, §5 step 7): claim
// ownerReferences of condemned pods, then scale-down — one pod at a time, highest ordinal
// first, in OrderedReady mode; all at once in Parallel mode.
import type { Pod } from 'kubernetes-types/core/v1.js';
import { isRunningAndReady, isTerminating, runningAndAvailable } from './predicates';
import type { PhaseOutcome } from './replicaPhase';
import { deleteProcedure, fixClaimRetention, type RoundState, timedWait } from './round';
import { Reasons } from './types';

/**
 * §5 steps 7–8. With gate `StatefulSetAutoDeletePVC` the claims of every condemned pod first get
 * the ownerReferences of the retention policy (R12.2). Then (pods sorted by ordinal descending):
 *
 * - R7.1 OrderedReady: a terminating pod → exit (wait); a pod that is not running-and-ready, or
 *   not available, and is not the round's `firstUnhealthyPod` → exit; otherwise delete it (R11.2)
 *   and exit if that changed anything (one deletion per round), else go on with the next.
 * - R7.2 Parallel: every non-terminating condemned pod is deleted (R11.2) at once; no readiness
 *   checks, and `scaleStrategy.maxUnavailable` does not limit deletions — the round's burst does
 *   (kruise-ts's bound): the highest `burst` ordinals go now, the rest in the next rounds.
 *
 * Example: OrderedReady, replicas 3 → 1 with pods 0–2 ready: round 1 deletes pod 2 and exits;
 * while pod 2 terminates rounds exit at it; then pod 1 is deleted.
 */
export function processCondemned(
  state: RoundState,
  condemned: readonly Pod[],
  firstUnhealthyName: string | undefined,
): PhaseOutcome {
  for (const p of condemned) fixClaimRetention(state, p);
  if (state.monotonic) {
    for (const p of condemned) {
      const name = p.metadata?.name ?? '';
      if (isTerminating(p)) return { exit: true };
      const isFirstUnhealthy = name === firstUnhealthyName;
      if (!isRunningAndReady(p) && !isFirstUnhealthy) return { exit: true };
      const a = runningAndAvailable(p, state.minReadySeconds, state.nowMs);
      if (!a.available && !isFirstUnhealthy) {
        state.rec.requeueAfter(timedWait(a.waitSeconds));
        return { exit: true };
      }
      const r = deleteProcedure(state, p, Reasons.ScaleDown);
      if (r.changed || r.refused) return { exit: true };
    }
    return { exit: false };
  }
  for (const p of condemned) {
    if (isTerminating(p)) continue;
    deleteProcedure(state, p, Reasons.ScaleDown);
  }
  return { exit: false };
}
