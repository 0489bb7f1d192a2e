// The state of one reconcile round and the writes every phase shares: pod patches against a
// per-round working copy (so several changes to one pod accumulate), deletions, the delete
// procedure with the preDelete hook (R11.2) and the round's burst of creates and deletes, the
// per-pod refresh (R11.3), and claim creation and ownerReference fixes (R12.1, R12.2). What the
// round issues — actions, events, the requeue delay, the failure conditions — goes to core's
// ReconcileRecorder held by the round (`RoundState.rec`); RoundState itself keeps the facts.

import type { KubeObject } from '@kruise-ts/api';
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
  CONDITION_INPLACE_UPDATE_READY,
  type InPlaceUpdateState,
  LABEL_LIFECYCLE_STATE,
  type LifecycleState,
  LifecycleStates,
  type StatefulSet,
  type StatefulSetCondition,
} from '@kruise-ts/api';
import {
  type Action,
  type Burst,
  checkPodUpdateCompleted,
  decodeInPlaceUpdateState,
  diffPodForPatch,
  type FeatureGates,
  type InPlaceCache,
  type InPlaceUpdateSpecCache,
  inPlaceRefresh,
  isHookMarkPodNotReady,
  lifecycleRefreshTarget,
  type ObjectRef,
  preDeleteAction,
  type ReconcileRecorder,
  setPodLifecycleState,
  setPodPreparingDelete,
  statefulSetRevisionAdapter,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { claimsForOrdinal } from './identity';
import { claimName, inRange, ordinalOf, type ReplicaRange } from './ordinals';
import {
  claimRefsMatch,
  desiredClaimRefs,
  podClaimOwnerRef,
  setClaimOwnerRef,
  updateClaimOwnerRefForSetAndPod,
} from './pvc';
import { isAtRevision } from './revisionChoice';
import { Reasons } from './types';

/** Everything one round reads and writes. Internal to a reconcile; inputs are never mutated. */
export interface RoundState {
  /** The set in its v1beta1 form. */
  set: StatefulSet;
  /**
   * What the round issues, in order: actions and events (about the set), the requeue delay (the
   * smallest asked for) and the `FailedCreatePod` / `FailedUpdatePod` conditions (§13.2).
   */
  rec: ReconcileRecorder<StatefulSetCondition>;
  /**
   * The round's feature gates, resolved and frozen once (core's `freezeFeatureGates`): every
   * per-pod call, here and in core, reads this one object instead of resolving a copy.
   */
  gates: Readonly<FeatureGates>;
  nowMs: number;
  nowStr: string;
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  /** All revisions of the set, history order (R4.3). */
  revisions: ControllerRevision[];
  currentTemplate: PodTemplateSpec;
  updateTemplate: PodTemplateSpec;
  /** The observed member pods (R4.1). */
  pods: Pod[];
  range: ReplicaRange;
  /** `podManagementPolicy != Parallel` (§6). */
  monotonic: boolean;
  minReadySeconds: number;
  /** Claims of the namespace by name; working copies (written through {@link putClaim}). */
  claims: Map<string, PersistentVolumeClaim>;
  /**
   * How many of `claims` carry ownerReferences ({@link countOwnedClaims}): while none do and a
   * pod's claims want none, every claim of the pod matches R12.2 without being looked up.
   */
  ownedClaims: number;
  /** Names of `spec.volumeClaimTemplates`, in order. */
  claimTemplates: string[];
  /** R12.2 wanted claim ownerReferences for pods in range and for condemned pods (computed once). */
  claimRefs: {
    inRange: { setRef: boolean; podRef: boolean };
    condemned: { setRef: boolean; podRef: boolean };
  };
  /**
   * What core's in-place functions remember during this round (decoded state annotations, the
   * last encoded state, change hints): made per reconcile, dropped with the round.
   */
  inPlaceCache: InPlaceCache;
  /**
   * R10.4 the UpdateSpec per (old revision, update revision), computed once per round (core's
   * `cachedInPlaceUpdateSpec`): every pod of one old revision shares it.
   */
  updateSpecs: InPlaceUpdateSpecCache;
  /** Is this slot object a stand-in for a pod that does not exist yet (§5 step 2)? */
  isNew: (pod: Pod) => boolean;
  /** Pods as this round has made them so far, by name. */
  working: Map<string, Pod>;
  /** Pods deleted this round. */
  deleted: Set<string>;
  /** The pods this round may still create or delete (`burstReplicas`, default 500). */
  burst: Burst;
  /** R4.8: pod name → revision of outstanding in-place updates. */
  expectations: Record<string, string>;
}

/** The reference of a core/v1 object (a pod or a claim). */
export function coreRef(obj: Pod | PersistentVolumeClaim, kind: 'Pod' | 'PersistentVolumeClaim'): ObjectRef {
  const ref: ObjectRef = { apiVersion: 'v1', kind, name: obj.metadata?.name ?? '' };
  if (obj.metadata?.namespace !== undefined) ref.namespace = obj.metadata.namespace;
  if (obj.metadata?.uid !== undefined) ref.uid = obj.metadata.uid;
  return ref;
}

/**
 * §16: a wait that asks for a requeue. The rules give 0 for "time alone changes nothing here"
 * (a pod unavailable for another reason, an update with no grace period), so only a positive
 * wait asks; the recorder keeps the smallest of them.
 *
 * Example: `rec.requeueAfter(timedWait(0))` asks nothing; `timedWait(3)` asks for 3 seconds.
 */
export function timedWait(seconds: number | undefined): number | undefined {
  return seconds !== undefined && seconds > 0 ? seconds : undefined;
}

/**
 * A `FailedCreatePod` / `FailedUpdatePod` condition for this round's status (§13.2) plus a
 * Warning event. A failure ends the round, so a round records at most one.
 */
export function recordFailure(
  state: RoundState,
  type: 'FailedCreatePod' | 'FailedUpdatePod',
  message: string,
): void {
  state.rec
    .setCondition({ type, status: 'True', lastTransitionTime: state.nowStr, message })
    .event('Warning', type === 'FailedCreatePod' ? 'FailedCreate' : 'FailedUpdate', message);
}

/** The pod as this round has made it so far (the observed object when untouched). */
export function workingPod(state: RoundState, pod: Pod): Pod {
  return state.working.get(pod.metadata?.name ?? '') ?? pod;
}

/**
 * Writes `next` for a pod: a merge-patch action of the difference from the working copy
 * (metadata, spec and status — status changes go to the status subresource), nothing when
 * equal. Returns whether an action was emitted.
 */
export function writePod(state: RoundState, pod: Pod, next: Pod, reason: string): boolean {
  const name = pod.metadata?.name ?? '';
  if (state.deleted.has(name)) return false;
  const prev = workingPod(state, pod);
  if (prev === next) return false;
  const patch = diffPodForPatch(prev, next);
  state.working.set(name, next);
  if (Object.keys(patch).length === 0) return false;
  state.rec.act({ verb: 'patch', target: coreRef(pod, 'Pod'), patchType: 'merge', patch, reason });
  return true;
}

/** An actual pod deletion (uid precondition when known) with its event. */
export function deletePodNow(state: RoundState, pod: Pod, reason: string): void {
  const name = pod.metadata?.name ?? '';
  const action: Action = { verb: 'delete', target: coreRef(pod, 'Pod'), reason };
  if (pod.metadata?.uid) action.preconditions = { uid: pod.metadata.uid };
  state.deleted.add(name);
  state.rec
    .act(action)
    .event(
      'Normal',
      'SuccessfulDelete',
      `delete Pod ${name} in StatefulSet ${state.set.metadata.name ?? ''} successful`,
    );
}

/**
 * R11.2 the delete procedure: with a `preDelete` hook the pod is hooked on, the pod moves to
 * `PreparingDelete` (marked not-ready if the hook says so) instead of being deleted — "changed"
 * only when the state label changes; otherwise it is deleted.
 *
 * A deletion takes one unit of the round's burst; with none left nothing is written and the
 * answer is `refused` (the round then asks to run again at once). Moving a pod to
 * `PreparingDelete` is a patch and takes none.
 *
 * Example: preDelete `{labelsHandler: {hold: "true"}}`, pod labelled `hold=true` in `Normal` →
 * `PreparingDelete`, `{changed: true, deleted: false}`; called again next round →
 * `{changed: false, deleted: false}`; once the label is gone → deleted.
 */
export function deleteProcedure(
  state: RoundState,
  pod: Pod,
  reason: string,
): { changed: boolean; deleted: boolean; refused?: boolean } {
  const lifecycle = state.set.spec.lifecycle;
  const decision = preDeleteAction(pod, lifecycle);
  if (decision === 'delete') {
    if (!state.burst.take()) return { changed: false, deleted: false, refused: true };
    deletePodNow(state, pod, reason);
    return { changed: true, deleted: true };
  }
  const w = workingPod(state, pod);
  writePod(state, pod, setPodPreparingDelete(w, lifecycle, state.nowStr), Reasons.PreparingDelete);
  return { changed: decision === 'markPreparingDelete', deleted: false };
}

/**
 * R2.6.1 pod-level in-place completion of an observed pod. Its state annotation is decoded
 * through the round's in-place cache, so the pods of one update wave share one decode.
 */
export function podUpdateCompleted(state: RoundState, pod: Pod): boolean {
  return checkPodUpdateCompleted(pod, { featureGates: state.gates, cache: state.inPlaceCache }).completed;
}

/** Lifecycle states the §R11.3 refresh table can move a pod out of. */
const REFRESHABLE_STATES: ReadonlySet<string> = new Set<string>([
  LifecycleStates.PreparingNormal,
  LifecycleStates.PreparingUpdate,
  LifecycleStates.Updating,
  LifecycleStates.Updated,
]);

/**
 * Fast path of the in-place refresh (docs/reference/core.md §2.5): with no grace annotation, no
 * pending container batch (next images or metadata) in the state annotation, and the
 * `InPlaceUpdateReady` condition already True without reason/message (or no such readiness gate),
 * `inPlaceRefresh` returns the pod unchanged. The state is read through the round's in-place
 * cache, so the pods of one update wave, which carry the same text, have it decoded once; a
 * text that does not decode has no pending batch here (README, "Refresh fast path").
 */
function inPlaceRefreshIsNoop(state: RoundState, pod: Pod): boolean {
  const a = pod.metadata?.annotations;
  if (a) {
    if (a[ANNOTATION_INPLACE_UPDATE_GRACE] || a[ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY]) return false;
    const text = a[ANNOTATION_INPLACE_UPDATE_STATE] ?? a[ANNOTATION_INPLACE_UPDATE_STATE_LEGACY];
    if (text !== undefined) {
      const decoded = decodeInPlaceUpdateState(text, state.inPlaceCache);
      if (decoded.ok && hasPendingBatch(decoded.value)) return false;
    }
  }
  const gates = pod.spec?.readinessGates;
  if (!gates?.some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY)) return true;
  const c = pod.status?.conditions?.find((x) => x.type === CONDITION_INPLACE_UPDATE_READY);
  return c !== undefined && c.status === 'True' && !c.reason && !c.message;
}

/** R2.5.2: the state holds a next batch of images or env metadata to apply. */
function hasPendingBatch(s: InPlaceUpdateState): boolean {
  return !isEmpty(s.nextContainerImages) || !isEmpty(s.nextContainerRefMetadata);
}

function isEmpty(m: object | null | undefined): boolean {
  return !m || Object.keys(m).length === 0;
}

/** §R11.3: the lifecycle state the observed pod should move to now, if any. */
function lifecycleTarget(state: RoundState, pod: Pod): LifecycleState | undefined {
  const current = pod.metadata?.labels?.[LABEL_LIFECYCLE_STATE] ?? '';
  if (!REFRESHABLE_STATES.has(current)) return undefined;
  return lifecycleRefreshTarget(pod, state.set.spec.lifecycle, {
    atUpdateRevision:
      current === LifecycleStates.PreparingUpdate &&
      isAtRevision(pod, state.updateRevision.metadata?.name ?? ''),
    updateCompleted: current === LifecycleStates.Updating && podUpdateCompleted(state, pod),
  });
}

/**
 * R11.3 refresh of one observed pod: the in-place housekeeping (grace period, next container
 * batch, `InPlaceUpdateReady` True, docs/reference/core.md §2.5) and the lifecycle transitions of statefulset.md §R11.3,
 * written to the pod. Decisions read the observed pod. Returns whether the observed pod needed
 * a lifecycle transition (R8.2) and an error, if any.
 */
export function refreshPod(state: RoundState, pod: Pod): { lifecycleChanged: boolean; error?: string } {
  const name = pod.metadata?.name ?? '';
  const lifecycle = state.set.spec.lifecycle;
  const target = lifecycleTarget(state, pod);
  const lifecycleChanged = target !== undefined;
  if (state.deleted.has(name)) return { lifecycleChanged };
  const working = workingPod(state, pod);
  let refreshed = working;
  if (!inPlaceRefreshIsNoop(state, working)) {
    const r = inPlaceRefresh(working, {
      now: state.nowStr,
      featureGates: state.gates,
      revisionAdapter: statefulSetRevisionAdapter,
      cache: state.inPlaceCache,
    });
    if (r.error !== undefined) return { lifecycleChanged: false, error: `refresh pod ${name}: ${r.error}` };
    state.rec.requeueAfter(timedWait(r.delaySeconds));
    refreshed = r.pod;
  }
  // At most one transition per pod per round: the target is computed from the observed pod, so a
  // second refresh in the same round (replica phase, then rolling update) rewrites the same state.
  const next =
    target === undefined
      ? refreshed
      : setPodLifecycleState(
          refreshed,
          target,
          state.nowStr,
          isHookMarkPodNotReady(lifecycle?.inPlaceUpdate),
        );
  if (next !== working) writePod(state, pod, next, Reasons.LifecycleTransition);
  return { lifecycleChanged };
}

/** The claims with at least one ownerReference (the start value of {@link RoundState.ownedClaims}). */
export function countOwnedClaims(claims: Iterable<PersistentVolumeClaim>): number {
  let n = 0;
  for (const c of claims) if (hasOwnerRefs(c)) n++;
  return n;
}

function hasOwnerRefs(claim: PersistentVolumeClaim | undefined): boolean {
  return (claim?.metadata?.ownerReferences?.length ?? 0) > 0;
}

/** Writes the working copy of a claim, keeping {@link RoundState.ownedClaims} in step. */
function putClaim(state: RoundState, name: string, claim: PersistentVolumeClaim): void {
  state.ownedClaims += Number(hasOwnerRefs(claim)) - Number(hasOwnerRefs(state.claims.get(name)));
  state.claims.set(name, claim);
}

/** A claim of the namespace by name (the working copy). */
export function getClaim(state: RoundState, name: string): PersistentVolumeClaim | undefined {
  return state.claims.get(name);
}

/** The claim names of the pod at `ordinal`, by template (R3.13). */
export function claimNamesFor(state: RoundState, ordinal: number): string[] {
  const setName = state.set.metadata.name ?? '';
  return state.claimTemplates.map((t) => claimName(t, setName, ordinal));
}

/**
 * R12.1: creates the missing claims of the pod at `ordinal` (existing claims are never
 * modified here). New claims carry the set ownerReference when the retention policy wants one
 * (R12.2; the pod reference is only ever wanted for condemned pods, which are never created).
 * Returns an error when one of its claims is being deleted.
 */
export function createMissingClaims(state: RoundState, pod: Pod, reason: string): string | undefined {
  const ordinal = ordinalOf(pod.metadata?.name);
  const errors: string[] = [];
  let built: Map<string, PersistentVolumeClaim> | undefined;
  for (const [i, name] of claimNamesFor(state, ordinal).entries()) {
    const existing = getClaim(state, name);
    if (existing) {
      if (existing.metadata?.deletionTimestamp) errors.push(`pvc ${name} is being deleted`);
      continue;
    }
    built ??= claimsForOrdinal(state.set, ordinal);
    const claim = built.get(state.claimTemplates[i]) as PersistentVolumeClaim & KubeObject;
    let created = claim;
    if (state.gates.StatefulSetAutoDeletePVC) {
      const want = desiredClaimRefs(state.set, inRange(state.range, ordinal));
      const refs = [];
      if (want.setRef) refs.push(setClaimOwnerRef(state.set));
      if (want.podRef && pod.metadata?.uid)
        refs.push(podClaimOwnerRef({ name: pod.metadata.name, uid: pod.metadata.uid }));
      if (refs.length > 0) created = { ...claim, metadata: { ...claim.metadata, ownerReferences: refs } };
    }
    putClaim(state, name, created);
    state.rec
      .act({ verb: 'create', object: created, reason })
      .event(
        'Normal',
        'SuccessfulCreate',
        `create Claim ${name} Pod ${pod.metadata?.name ?? ''} in StatefulSet ${state.set.metadata.name ?? ''} success`,
      );
  }
  return errors.length > 0 ? errors.join('; ') : undefined;
}

/** R12.2: do all existing claims of the pod carry the ownerReferences the policy wants? */
export function claimsMatchRetention(state: RoundState, pod: Pod): boolean {
  if (!state.gates.StatefulSetAutoDeletePVC || state.claimTemplates.length === 0) return true;
  const ordinal = ordinalOf(pod.metadata?.name);
  const want = inRange(state.range, ordinal) ? state.claimRefs.inRange : state.claimRefs.condemned;
  // no claim carries a reference and none is wanted: every existing claim matches
  if (!want.setRef && !want.podRef && state.ownedClaims === 0) return true;
  const setUid = state.set.metadata.uid ?? '';
  const podUid = pod.metadata?.uid ?? '';
  for (const name of claimNamesFor(state, ordinal)) {
    const existing = getClaim(state, name);
    if (existing && !claimRefsMatch(existing.metadata?.ownerReferences, setUid, podUid, want)) return false;
  }
  return true;
}

/** R12.2: rewrites the ownerReferences of the pod's existing claims that do not match the policy. */
export function fixClaimRetention(state: RoundState, pod: Pod): void {
  if (!state.gates.StatefulSetAutoDeletePVC || state.claimTemplates.length === 0) return;
  const ordinal = ordinalOf(pod.metadata?.name);
  const owner = { name: pod.metadata?.name, uid: pod.metadata?.uid };
  for (const name of claimNamesFor(state, ordinal)) {
    const existing = getClaim(state, name);
    if (!existing) continue;
    const u = updateClaimOwnerRefForSetAndPod(existing, state.set, owner, inRange(state.range, ordinal));
    if (!u.needsUpdate) continue;
    putClaim(state, name, {
      ...existing,
      metadata: { ...existing.metadata, ownerReferences: u.ownerReferences },
    });
    state.rec.act({
      verb: 'patch',
      target: coreRef(existing, 'PersistentVolumeClaim'),
      patchType: 'merge',
      patch: { metadata: { ownerReferences: u.ownerReferences } },
      reason: Reasons.UpdateClaimOwnerRefs,
    });
  }
}
