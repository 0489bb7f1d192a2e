// The replica phase (docs/reference/statefulset.md §6, R6.1–R6.8) and the scale budget (§7.3, R7.4,
// R7.5): visiting the slots in ascending order to replace failed pods, create missing ones (at
// most the round's burst), create claims of pending pods, wait for terminating/unavailable ones,
// refresh and repair.
import { type KubeObject, LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import { legacyValueFromIntOrPercent } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import {
  identityMatches,
  newStatefulSetPod,
  repairedPod,
  storageMatches,
  withCreationLifecycle,
} from './identity';
import { ordinalOf } from './ordinals';
import {
  isCreated,
  isFailed,
  isPending,
  isSucceeded,
  isTerminating,
  runningAndAvailable,
} from './predicates';
import { podClaimIsStale } from './pvc';
import {
  claimNamesFor,
  claimsMatchRetention,
  createMissingClaims,
  deleteProcedure,
  fixClaimRetention,
  getClaim,
  type RoundState,
  recordFailure,
  refreshPod,
  timedWait,
  workingPod,
  writePod,
} from './round';
import type { Slot } from './slots';
import { Reasons } from './types';

/** How a phase ended: `exit` stops all pod operations of the round (status is still written). */
export interface PhaseOutcome {
  exit: boolean;
  error?: string;
}

/** A mutable scale budget (R7.4); absent = unlimited. */
export interface ScaleBudget {
  remaining: number;
}

/**
 * R7.4 `getScaleMaxUnavailable`: with `scaleStrategy.maxUnavailable` set, the budget is
 * `max(legacy(value, spec.replicas, round down), 1)` — the deprecated helper reads every string
 * as a percentage (`"50%"` and `"50"` of 5 → 2; `"5"` is 5 %). Absent → no budget. A string that
 * does not parse is an error (the round stops before the replica phase).
 *
 * Example: replicas 5, maxUnavailable 2 → 2; `"10%"` → floor(0.5) = 0 → 1.
 */
export function scaleMaxUnavailable(
  maxUnavailable: number | string | undefined | null,
  replicas: number,
): { budget?: number; error?: string } {
  if (maxUnavailable === undefined || maxUnavailable === null) return {};
  try {
    return { budget: Math.max(legacyValueFromIntOrPercent(maxUnavailable, replicas, false), 1) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** R7.5: takes one unit of the budget; true when it is now exhausted (the phase breaks). */
function decreaseAndCheck(budget: ScaleBudget | undefined): boolean {
  if (!budget) return false;
  budget.remaining--;
  return budget.remaining <= 0;
}

function exitWithError(state: RoundState, error: string): PhaseOutcome {
  state.rec.event('Warning', 'ReconcileError', error);
  return { exit: true, error };
}

/** The full new pod of a stand-in (R4.7: stamped from currentSet or updateSet by its revision label). */
function materialize(state: RoundState, stub: Pod): Pod & KubeObject {
  const revision = stub.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
  const current =
    revision === (state.currentRevision.metadata?.name ?? '') &&
    revision !== (state.updateRevision.metadata?.name ?? '');
  const template = current ? state.currentTemplate : state.updateTemplate;
  return newStatefulSetPod(state.set, template, revision, ordinalOf(stub.metadata?.name), state.gates);
}

/** R6.2: creates the pod of a slot (claims first), or explains why not. */
function createReplica(state: RoundState, pod: Pod): PhaseOutcome | undefined {
  // whenScaled != Retain ⇔ condemned pods' claims want the pod reference (R12.2 table)
  if (state.gates.StatefulSetAutoDeletePVC && state.claimRefs.condemned.podRef) {
    const names = claimNamesFor(state, ordinalOf(pod.metadata?.name));
    if (podClaimIsStale(names, (n) => getClaim(state, n), pod)) return { exit: true }; // R12.3
  }
  // The stand-in becomes the full pod object of R3.9–R3.15, stamped from its revision's template.
  const toCreate = withCreationLifecycle(materialize(state, pod), state.set.spec.lifecycle, state.nowStr);
  const claimError = createMissingClaims(state, toCreate, Reasons.ScaleUp);
  if (claimError !== undefined) {
    recordFailure(state, 'FailedCreatePod', claimError);
    return { exit: true, error: claimError };
  }
  state.rec
    .act({ verb: 'create', object: toCreate, reason: Reasons.ScaleUp })
    .event(
      'Normal',
      'SuccessfulCreate',
      `create Pod ${toCreate.metadata?.name ?? ''} in StatefulSet ${state.set.metadata.name ?? ''} successful`,
    );
  return undefined;
}

/**
 * §6 the replica phase over the slot array (ascending, reserved slots skipped). For slot `p`:
 *
 * - R6.1 failed/succeeded → delete (R11.2) unless terminating, then **exit** the round;
 * - R6.2 not created → create (claims first); monotonic **exits** (one creation per round),
 *   Parallel takes budget and **breaks** when it is used up. A stand-in met when the round's
 *   burst is used up **breaks** too, like the budget (kruise-ts's bound: a Parallel set of
 *   2,147,483,647 replicas creates 500 pods a round, the condemned and update phases still run);
 * - R6.3 pending → create its missing claims; R6.4 terminating → monotonic exits, Parallel
 *   takes budget (break when used up) and moves on;
 * - R6.5 refresh (R11.3); R6.6 not available → monotonic exits, Parallel with a budget takes
 *   budget (break when used up), Parallel without a budget does not look;
 * - R6.7 identity, storage or claim refs wrong → repair.
 *
 * Decisions read the observed pods. Example (`TestScaleUpWithMaxUnavailable`): Parallel, 5
 * replicas, budget 2, no pods → pods 0 and 1 created, then break.
 */
export function processReplicas(
  state: RoundState,
  slots: readonly Slot[],
  budget: ScaleBudget | undefined,
): PhaseOutcome {
  for (let i = 0; i < slots.length; i++) {
    const p = slots[i].pod;
    const name = p.metadata?.name ?? '';
    if (isFailed(p) || isSucceeded(p)) {
      if (!isTerminating(p)) {
        state.rec.event(
          'Warning',
          'RecreatingFailedPod',
          `StatefulSet ${state.set.metadata.namespace ?? ''}/${state.set.metadata.name ?? ''} is recreating ${p.status?.phase} Pod ${name}`,
        );
        deleteProcedure(state, p, Reasons.RecreateFailedPod);
      }
      return { exit: true }; // R6.1, both modes at v1.8.2
    }
    if (!isCreated(p)) {
      // An observed pod without a phase exists already: Go would send its create again and get
      // AlreadyExists (an API server sets phase Pending at once, so only fakes show this);
      // kruise-ts sends nothing and goes on as after a creation.
      if (state.isNew(p) && !state.burst.take()) break;
      const out = state.isNew(p) ? createReplica(state, p) : undefined;
      if (out) return out;
      if (state.monotonic) return { exit: true };
      if (decreaseAndCheck(budget)) break;
      continue;
    }
    if (isPending(p)) {
      const err = createMissingClaims(state, p, Reasons.CreateClaim);
      if (err !== undefined) return exitWithError(state, err);
      fixClaimRetention(state, p);
    }
    if (isTerminating(p)) {
      if (state.monotonic) return { exit: true };
      if (decreaseAndCheck(budget)) break;
      continue;
    }
    const refreshed = refreshPod(state, p);
    if (refreshed.error !== undefined) return exitWithError(state, refreshed.error);
    if (state.monotonic || budget) {
      const a = runningAndAvailable(p, state.minReadySeconds, state.nowMs);
      if (!a.available) {
        state.rec.requeueAfter(timedWait(a.waitSeconds));
        if (state.monotonic) return { exit: true };
        if (decreaseAndCheck(budget)) break;
      }
    }
    if (!identityMatches(state.set, p) || !storageMatches(state.set, p) || !claimsMatchRetention(state, p)) {
      const err = createMissingClaims(state, p, Reasons.CreateClaim);
      if (err !== undefined) {
        recordFailure(state, 'FailedUpdatePod', err);
        return { exit: true, error: err };
      }
      fixClaimRetention(state, p);
      writePod(state, p, repairedPod(state.set, workingPod(state, p), state.gates), Reasons.RepairPod);
    }
  }
  return { exit: false };
}
