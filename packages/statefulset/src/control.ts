// The body of one Advanced StatefulSet round (docs/reference/statefulset.md §5, `updateStatefulSet`):
// given the set, its member pods and the chosen current/update revisions, build the slots and
// the condemned list, run the replica, condemned and rolling-update phases, and compute the
// status. Pure: what the round issues goes to a ReconcileRecorder (the reconcile's own, or one
// `updateStatefulSet` makes); inputs are never mutated. The work is bounded by the pods observed
// and the burst of creates and deletes, never by `spec.replicas` (slots.ts).
import type { StatefulSet, StatefulSetCondition, StatefulSetStatus } from '@kruise-ts/api';
import {
  type Action,
  Burst,
  createInPlaceCache,
  type FeatureGates,
  freezeFeatureGates,
  labelSelectorAsString,
  parseTime,
  REQUEUE_NOW,
  ReconcileRecorder,
  refOf,
  resolveBurstReplicas,
  resolveFeatureGates,
  toRFC3339,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import { processCondemned } from './condemnedPhase';
import { ordinalOf, statefulSetReplicaRange } from './ordinals';
import { getMinReadySeconds, isHealthy, runningAndAvailable } from './predicates';
import { desiredClaimRefs } from './pvc';
import { type PhaseOutcome, processReplicas, type ScaleBudget, scaleMaxUnavailable } from './replicaPhase';
import { templateOfRevision } from './revisions';
import { rollingUpdate } from './rollingUpdatePhase';
import { countOwnedClaims, type RoundState, timedWait } from './round';
import { layoutSlots } from './slots';
import { completeRollingUpdate, computeReplicaCounts, volumeClaimStatusOfRange } from './status';
import type { Now } from './types';

/** Input of {@link updateStatefulSet}: one round with explicit revisions (R4.5, R4.7). */
export interface UpdateStatefulSetInput {
  /** The set in its v1beta1 form (§2.3). */
  set: StatefulSet;
  /** The member pods of the set (R4.1). */
  pods: Pod[];
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  /** Every revision of the set (the old revision of an in-place update is looked up here, R10.3). */
  revisions: ControllerRevision[];
  /** `status.collisionCount` after revision creation. */
  collisionCount?: number;
  /** Claims of the namespace (§12). */
  pvcs?: PersistentVolumeClaim[];
  now: Now;
  featureGates?: Partial<FeatureGates>;
  /** Outstanding in-place update expectations, pod name → revision (R4.8). */
  expectations?: Record<string, string>;
  /**
   * The most pods the round creates and deletes together (default 500, core's
   * `DEFAULT_BURST_REPLICAS`; `Infinity` lifts the bound). kruise-ts's bound: OpenKruise creates
   * every missing pod of a Parallel set in one round.
   */
  burstReplicas?: number;
}

/** Result of {@link updateStatefulSet}. */
export interface UpdateStatefulSetResult {
  actions: Action[];
  /** The status to write (after R13.2), not yet compared with the stored one. */
  status: StatefulSetStatus;
  /** The shortest wait (§16); 0 when the burst left pods to create or delete. */
  requeueAfterSeconds?: number;
  /** The expectations after this round (R4.8). */
  expectations: Record<string, string>;
  /** Set when the round ended with an error (Go returns it and retries with back-off). */
  error?: string;
}

/** What a round leaves besides what it recorded. */
export interface RoundOutcome {
  /** The status to write (after R13.2), not yet compared with the stored one. */
  status: StatefulSetStatus;
  /** The expectations after this round (R4.8). */
  expectations: Record<string, string>;
  /** Set when the round ended with an error. */
  error?: string;
}

function safeSelectorString(set: StatefulSet): string {
  try {
    return labelSelectorAsString(set.spec.selector);
  } catch {
    return '';
  }
}

/**
 * §5 one round of the controller (`updateStatefulSet`), as a pure function:
 *
 * 1. status skeleton with counts over all pods (§13.1); 2. slots (R3.7) — every empty
 *    non-reserved slot gets a new pod object at the revision of R6.9, ascending — and the
 *    condemned pods (R3.8), highest ordinal first; 3. `firstUnhealthyPod`; 4. a set being
 *    deleted stops here; 5. the scale budget (R7.4; an error stops here); 6. replica phase (§6);
 *    7–8. condemned claims and pods (§7); 9. counts over slots + condemned, then (unless
 *    OnDelete) the rolling update (§8–§10); 10. R13.2.
 *
 * "Exit" in 6–8 ends the pod operations of the round; the status is still computed.
 *
 * Step 2 builds the new pod objects only for the lowest missing ordinals, one more than the
 * round's burst allows it to create (slots.ts); the rules that read the rest count them. Creates
 * and deletes stop at the burst (`burstReplicas`), and a round that stopped there returns
 * `requeueAfterSeconds: 0`.
 *
 * Example (§13.3 round 1): 3 ready pods at r0, template now r1, ReCreate → pod 2 deleted,
 * status replicas 3, ready 3, current 2, updated 0.
 */
export function updateStatefulSet(input: UpdateStatefulSetInput): UpdateStatefulSetResult {
  const rec = new ReconcileRecorder<StatefulSetCondition>(refOf(input.set));
  const round = playRound(input, rec);
  const out: UpdateStatefulSetResult = {
    actions: rec.actions,
    status: round.status,
    expectations: round.expectations,
  };
  if (rec.requeueAfterSeconds !== undefined) out.requeueAfterSeconds = rec.requeueAfterSeconds;
  if (round.error !== undefined) out.error = round.error;
  return out;
}

/**
 * {@link updateStatefulSet}'s round, recording its actions, events (about `rec`'s object),
 * requeue delay and conditions into `rec`, after whatever `rec` already holds.
 */
export function playRound(
  input: UpdateStatefulSetInput,
  rec: ReconcileRecorder<StatefulSetCondition>,
): RoundOutcome {
  const set = input.set;
  // resolved and frozen once: every per-pod call of the round reads this object
  const gates = freezeFeatureGates(resolveFeatureGates(input.featureGates));
  const nowDate = parseTime(input.now);
  const nowMs = nowDate?.getTime() ?? 0;
  const nowStr = nowDate ? toRFC3339(nowDate) : '';
  const currentName = input.currentRevision.metadata?.name ?? '';
  const updateName = input.updateRevision.metadata?.name ?? '';
  const m = getMinReadySeconds(set);
  const claims = new Map<string, PersistentVolumeClaim>();
  for (const c of input.pvcs ?? []) {
    if ((c.metadata?.namespace ?? '') === (set.metadata.namespace ?? ''))
      claims.set(c.metadata?.name ?? '', c);
  }
  const state: RoundState = {
    set,
    rec,
    gates,
    nowMs,
    nowStr,
    currentRevision: input.currentRevision,
    updateRevision: input.updateRevision,
    revisions: input.revisions,
    currentTemplate: templateOfRevision(input.currentRevision, set.spec.template),
    updateTemplate: templateOfRevision(input.updateRevision, set.spec.template),
    pods: input.pods,
    range: statefulSetReplicaRange(set, gates),
    monotonic: set.spec.podManagementPolicy !== 'Parallel',
    minReadySeconds: m,
    claims,
    ownedClaims: countOwnedClaims(claims.values()),
    claimTemplates: (set.spec.volumeClaimTemplates ?? []).map((t) => t.metadata?.name ?? ''),
    claimRefs: { inRange: desiredClaimRefs(set, true), condemned: desiredClaimRefs(set, false) },
    inPlaceCache: createInPlaceCache(),
    updateSpecs: new Map(),
    isNew: () => false,
    working: new Map(),
    deleted: new Set(),
    burst: new Burst(resolveBurstReplicas(input.burstReplicas)),
    expectations: { ...(input.expectations ?? {}) },
  };
  // step 1: the status skeleton; `statusOf` puts a count (§13.1) and the claims (§13.2) in it
  const labelSelector = safeSelectorString(set);
  const collisionCount = input.collisionCount ?? set.status?.collisionCount ?? 0;
  const statusOf = (pods: Iterable<Pod>): StatefulSetStatus => {
    const status: StatefulSetStatus = {
      observedGeneration: set.metadata.generation ?? 0,
      ...computeReplicaCounts(pods, currentName, updateName, m, nowMs),
      currentRevision: currentName,
      updateRevision: updateName,
      collisionCount,
      labelSelector,
    };
    // §13.2 volumeClaims: one entry per claim template (omitted without templates, as Go's omitempty)
    const vc = volumeClaimStatusOfRange(set, state.range, state.claims);
    return vc.length > 0 ? { ...status, volumeClaims: vc } : status;
  };
  // step 2: light stand-ins (name, template labels, revision label) for as many missing ordinals
  // as the round may create, plus one to see that more remain; the full pod object is only built
  // for a slot actually created this round (R6.2). The replica phase visits nothing beyond them.
  const layout = layoutSlots(state, state.burst.remaining + 1);
  const { slots, condemned } = layout;
  const newPods = new Set<Pod>();
  for (const s of slots) if (s.isNew) newPods.add(s.pod);
  state.isNew = (p: Pod) => newPods.has(p);
  const slotPods = slots.map((s) => s.pod);
  for (const p of condemned) slotPods.push(p);
  // step 3: the lowest missing ordinal always has a stand-in, so the counted ones never come first
  let firstUnhealthy: string | undefined;
  let firstUnhealthyOrdinal = Number.POSITIVE_INFINITY;
  for (const p of slotPods) {
    if (isHealthy(p)) continue;
    const o = ordinalOf(p.metadata?.name);
    if (o < firstUnhealthyOrdinal) {
      firstUnhealthyOrdinal = o;
      firstUnhealthy = p.metadata?.name;
    }
  }
  const finish = (status: StatefulSetStatus, error?: string): RoundOutcome => {
    const conditions = rec.conditions;
    const out: RoundOutcome = {
      status: completeRollingUpdate(set, conditions.length > 0 ? { ...status, conditions } : status),
      expectations: state.expectations,
    };
    // The burst stopped a create or delete: the rest is the next round's, at once.
    if (state.burst.limited) rec.requeueAfter(REQUEUE_NOW);
    if (error !== undefined) out.error = error;
    return out;
  };
  // §16: requeue when an observed pod will become available by time alone (minReadySeconds).
  if (m > 0)
    for (const p of input.pods) rec.requeueAfter(timedWait(runningAndAvailable(p, m, nowMs).waitSeconds));
  // step 4 (a round that stops here or at step 5 counts over all pods, as step 1 does)
  if (set.metadata.deletionTimestamp) return finish(statusOf(input.pods));
  // step 5
  const scale = scaleMaxUnavailable(set.spec.scaleStrategy?.maxUnavailable, set.spec.replicas ?? 1);
  if (scale.error !== undefined) return finish(statusOf(input.pods), scale.error);
  const budget: ScaleBudget | undefined =
    scale.budget === undefined ? undefined : { remaining: scale.budget };
  // steps 6–8
  let outcome: PhaseOutcome = processReplicas(state, slots, budget);
  if (!outcome.exit) outcome = processCondemned(state, condemned, firstUnhealthy);
  // step 9: stand-ins are not created pods, the counts read the observed ones (§13.1)
  const status = statusOf(slotPods);
  if (outcome.exit) return finish(status, outcome.error);
  if (set.spec.updateStrategy?.type === 'OnDelete') return finish(status);
  const counts = { currentReplicas: status.currentReplicas, updatedReplicas: status.updatedReplicas };
  outcome = rollingUpdate(state, layout, counts);
  return finish({ ...status, ...counts }, outcome.error);
}
