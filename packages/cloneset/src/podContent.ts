// What a pod's own content says for the CloneSet rules (§1 step 4, §4, §9.2, §9.3.1, §10.4
// no-op test), read in one pass. A reconcile reads every pod; between two reconciles most pods
// are the very same objects (the simulator's store and an informer cache hand out unchanged
// objects again), so the CloneSet cache (cache.ts) keeps these facts with the previous listing
// (ownership.ts) and an unchanged pod object is not read again.
//
// Sound because inputs are immutable (the package's contract: pure functions never mutate
// their inputs and callers never mutate objects they passed; the tests deep-freeze them): a
// pod object always has the same content, and any change to a pod is a new object. The facts
// are of the pod itself, never of the CloneSet, a revision or `now`.
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
  LABEL_POD_TEMPLATE_HASH,
  LABEL_SPECIFIED_DELETE,
  LifecycleStates,
} from '@kruise-ts/api';
import { type ActivePodsKey, activePodsKey } from '@kruise-ts/core';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { updateReadyOf } from './predicates';

/** Bits of {@link PodContentFacts.bits}. */
export const PodBits = Object.freeze({
  /** `updateReady(pod, 0)` (§4.1): Running, Ready=True, `InPlaceUpdateReady` absent or True. */
  READY: 1,
  /**
   * The Update refresh (§1.2 step 1) cannot change the pod: `IN_PLACE_REFRESH_NOOP`, and
   * {@link isRefreshNoopState} (the lifecycle has no refresh transition, the template hash is set).
   */
  REFRESH_NOOP: 2,
  /** An in-place grace annotation key is present (core's `hasInPlaceUpdateGrace`). */
  GRACE_KEY: 4,
  /** `isPodActiveForCloneSet` (§1 step 4): not Succeeded/Failed, no deletionTimestamp. */
  ACTIVE: 8,
  /** The in-place refresh (§10.4) cannot change the pod ({@link isInPlaceRefreshNoopWith}). */
  IN_PLACE_REFRESH_NOOP: 16,
  /** The `apps.kruise.io/specified-delete` label is present (any value), §4.4. */
  SPECIFIED_LABEL: 32,
});

/** The facts of one pod object that depend on nothing but the pod. */
export interface PodContentFacts {
  /**
   * The lifecycle state label as written (`""` when absent): any text, compared with
   * `LifecycleStates` (see predicates.ts `podLifecycleState`).
   */
  readonly state: string;
  /** The `controller-revision-hash` label (`""` when absent). */
  readonly revisionLabel: string;
  /** `metadata.name` (`""` when absent), for `podsToDelete`. */
  readonly name: string;
  /** {@link PodBits}. */
  readonly bits: number;
  /** The update-order bucket of rules 1–3 of §9.3.1 ({@link leadingBucketOf}). */
  readonly bucket: number;
  /**
   * The first `Ready` condition's `lastTransitionTime` as written (parsed only when a CloneSet
   * has `minReadySeconds`), for `updateReady(pod, minReadySeconds > 0)`.
   */
  readonly readySince: string | null | undefined;
  /** The active-pods key (§9.3.1), computed the first time the pod is ordered. */
  orderKey?: ActivePodsKey;
}

/**
 * The active-pods key of a pod (core's `activePodsKey`), kept in its content facts: a pod that
 * stays a candidate over several update waves is read for ordering only once. `time` parses
 * timestamps as core's `parseTime` does (a per-reconcile memo of it).
 */
export function memoisedActivePodsKey(
  f: PodContentFacts,
  pod: Pod,
  time: (t: string | null | undefined) => number | null,
): ActivePodsKey {
  f.orderKey ??= activePodsKey(pod, time);
  return f.orderKey;
}

/**
 * Reads the content facts of a pod in one pass (labels, annotations, readiness gates, and the
 * conditions in a single scan for the first `Ready` and the first `InPlaceUpdateReady`).
 */
export function readPodContentFacts(pod: Pod): PodContentFacts {
  const meta = pod.metadata;
  const labels = meta?.labels;
  const state = labels?.[LABEL_LIFECYCLE_STATE] ?? '';
  const status = pod.status;
  const phase = status?.phase;
  const conds = status?.conditions;
  let readyCond: PodCondition | undefined;
  let ipuCond: PodCondition | undefined;
  if (conds) {
    for (let k = 0; k < conds.length; k++) {
      const c = conds[k];
      if (c.type === 'Ready') readyCond ??= c;
      else if (c.type === CONDITION_INPLACE_UPDATE_READY) ipuCond ??= c;
    }
  }
  const ann = meta?.annotations;
  const active = phase !== 'Succeeded' && phase !== 'Failed' && !meta?.deletionTimestamp;
  const inPlaceNoop = isInPlaceRefreshNoopWith(pod, ipuCond);
  const bits =
    (labels !== undefined && Object.hasOwn(labels, LABEL_SPECIFIED_DELETE) ? PodBits.SPECIFIED_LABEL : 0) |
    (updateReadyOf(phase, readyCond, ipuCond, 0, 0) ? PodBits.READY : 0) |
    (inPlaceNoop ? PodBits.IN_PLACE_REFRESH_NOOP : 0) |
    (inPlaceNoop && isRefreshNoopState(labels, state) ? PodBits.REFRESH_NOOP : 0) |
    (ann !== undefined &&
    (Object.hasOwn(ann, ANNOTATION_INPLACE_UPDATE_GRACE) ||
      Object.hasOwn(ann, ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY))
      ? PodBits.GRACE_KEY
      : 0) |
    (active ? PodBits.ACTIVE : 0);
  return {
    state,
    revisionLabel: labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '',
    name: meta?.name ?? '',
    bits,
    bucket: leadingBucketOf(!!pod.spec?.nodeName, phase, readyCond?.status === 'True'),
    readySince: readyCond?.lastTransitionTime,
    orderKey: undefined, // filled when the pod is first ordered (memoisedActivePodsKey)
  };
}

/**
 * Rules 1–3 of §9.3.1 (Kubernetes' active-pods order) as a bucket number 0..11: assigned
 * (`spec.nodeName` set) +6, phase Running +4 or Unknown +2 (any other phase 0), the first
 * `Ready` condition True +1. A lower bucket comes first. Example: an assigned Running pod that
 * is not Ready → 10; an unassigned Pending one → 0.
 */
export function leadingBucketOf(assigned: boolean, phase: string | undefined, ready: boolean): number {
  return (assigned ? 6 : 0) + (phase === 'Running' ? 4 : phase === 'Unknown' ? 2 : 0) + (ready ? 1 : 0);
}

/**
 * The label part of the refresh no-op test: the lifecycle refresh of §11 has no transition from
 * `""`, Normal or PreparingDelete, and the `pod-template-hash` fix (§1.2 step 1) is not needed
 * when the label is present. Example: a Normal pod with `pod-template-hash` → true; the same pod
 * in PreparingNormal (it may move to Normal) → false.
 */
export function isRefreshNoopState(labels: Record<string, string> | undefined, state: string): boolean {
  if (!labels || !Object.hasOwn(labels, LABEL_POD_TEMPLATE_HASH)) return false;
  return state === '' || state === LifecycleStates.Normal || state === LifecycleStates.PreparingDelete;
}

/**
 * A cheap test that the in-place refresh (§10.4, core's `inPlaceRefresh`) cannot change the pod,
 * given its first `InPlaceUpdateReady` condition: no grace annotation; a state annotation, if
 * any, without pending batches (`"next…"` keys), so R2.5.2 either stops or falls through to
 * R2.5.3; and the `InPlaceUpdateReady` condition, if the pod has the gate, already True with
 * empty reason and message (R2.1.6: no write). Deviation: an unparsable state annotation on such
 * a pod is not reported.
 */
export function isInPlaceRefreshNoopWith(pod: Pod, ipu: PodCondition | undefined): boolean {
  const ann = pod.metadata?.annotations;
  if (ann) {
    if (ann[ANNOTATION_INPLACE_UPDATE_GRACE] || ann[ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY]) return false;
    const st = ann[ANNOTATION_INPLACE_UPDATE_STATE] || ann[ANNOTATION_INPLACE_UPDATE_STATE_LEGACY];
    if (st?.includes('"next')) return false;
  }
  const gates = pod.spec?.readinessGates;
  if (gates) {
    for (let g = 0; g < gates.length; g++) {
      if (gates[g].conditionType !== CONDITION_INPLACE_UPDATE_READY) continue;
      if (ipu?.status !== 'True' || (ipu.reason ?? '') !== '' || (ipu.message ?? '') !== '') return false;
    }
  }
  return true;
}
