// CloneSet's pod predicates (docs/reference/cloneset.md §4): updateReady, available, ready,
// revision matching (hashEquals / isPodUpdate) and specified delete.

import type { CloneSet } from '@kruise-ts/api';
import {
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
  LABEL_SPECIFIED_DELETE,
  type LifecycleState,
  LifecycleStates,
} from '@kruise-ts/api';
import { type FeatureGates, isPodAtRevision, isPodUpdate, shortHash } from '@kruise-ts/core';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';

// Per-pod code reads these local copies of imported constants: under vitest's module runner
// every read of an imported binding is a getter call (measurable at 100k pods); same values.
const LIFECYCLE_LABEL = LABEL_LIFECYCLE_STATE;
const IPU_READY = CONDITION_INPLACE_UPDATE_READY;
const REVISION_LABEL = LABEL_CONTROLLER_REVISION_HASH;
const SPECIFIED_DELETE_LABEL = LABEL_SPECIFIED_DELETE;
const NORMAL = LifecycleStates.Normal;

/** Milliseconds since the epoch of `now` (RFC 3339 string or Date); an unparsable value gives 0. */
export function toMillis(now: string | Date | undefined): number {
  if (now === undefined) return 0;
  const ms = typeof now === 'string' ? Date.parse(now) : now.getTime();
  return Number.isFinite(ms) ? ms : 0;
}

/** Go's zero time `0001-01-01T00:00:00Z`, which serialises as `null`. */
const ZERO_TIME_MS = -62135596800000;

/** Milliseconds of an RFC 3339 timestamp, or undefined for absent / zero / unparsable. */
export function timeMillis(t: string | null | undefined): number | undefined {
  if (!t) return undefined;
  const ms = Date.parse(t);
  if (!Number.isFinite(ms) || ms <= ZERO_TIME_MS) return undefined;
  return ms;
}

function findCondition(pod: Pod, type: string): PodCondition | undefined {
  const conds = pod.status?.conditions;
  if (!conds) return undefined;
  for (let i = 0; i < conds.length; i++) if (conds[i].type === type) return conds[i];
  return undefined;
}

/** The pod's lifecycle state (label `lifecycle.apps.kruise.io/state`), `''` when absent. */
export function podLifecycleState(pod: Pod): LifecycleState {
  return (pod.metadata?.labels?.[LIFECYCLE_LABEL] ?? '') as LifecycleState;
}

/**
 * `updateReady(pod, minReadySeconds)` (docs/reference/cloneset.md §4.1): Running, Ready=True, ready for
 * longer than minReadySeconds (strictly), and `InPlaceUpdateReady` absent or True.
 *
 * Example: Ready since 00:00:00, minReadySeconds 30: at 00:00:30 the pod is not yet
 * update-ready (00:00:30 is not strictly after 00:00:30); at 00:00:31 it is.
 */
export function updateReady(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (pod.status?.phase !== 'Running') return false;
  return updateReadyOf(
    'Running',
    findCondition(pod, 'Ready'),
    findCondition(pod, IPU_READY),
    minReadySeconds,
    nowMs,
  );
}

/**
 * {@link updateReady} from a pod's phase and its first `Ready` and `InPlaceUpdateReady`
 * conditions, for callers that have already found them (the fact table scans the conditions once).
 */
export function updateReadyOf(
  phase: string | undefined,
  ready: PodCondition | undefined,
  ipu: PodCondition | undefined,
  minReadySeconds: number,
  nowMs: number,
): boolean {
  if (phase !== 'Running' || ready?.status !== 'True') return false;
  if (minReadySeconds > 0) {
    const since = timeMillis(ready.lastTransitionTime);
    if (since === undefined || !(since + minReadySeconds * 1000 < nowMs)) return false;
  }
  return ipu === undefined || ipu.status === 'True';
}

/** Lifecycle state `""` (absent) or `Normal`: the only states that allow availability (§4.2). */
export function isLifecycleNormal(pod: Pod): boolean {
  const s = podLifecycleState(pod);
  return s === '' || s === NORMAL;
}

/**
 * `available(pod, minReadySeconds)` (docs/reference/cloneset.md §4.2): lifecycle `""`/Normal and
 * `updateReady`. A pod in PreparingNormal, PreparingUpdate, Updating, Updated or PreparingDelete
 * is never available.
 */
export function isCloneSetPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  return isLifecycleNormal(pod) && updateReady(pod, minReadySeconds, nowMs);
}

/** `ready(pod)` of the deletion limits (§4.2, §8.2): `available(pod, 0)`. */
export function isCloneSetPodReady(pod: Pod): boolean {
  return isLifecycleNormal(pod) && updateReady(pod, 0, 0);
}

/** The short hash of a revision name: the text after the last `-` (§2.3; core's `shortHash`). */
export function shortHashOf(revision: string): string {
  return shortHash(revision);
}

/**
 * `hashEquals(pod, rev)` (docs/reference/cloneset.md §4.3): the pod's `controller-revision-hash` label
 * equals `rev`, or the text after the last `-` is the same in both. So `app-name-new`
 * matches `new`, and `foo-abc` matches `bar-abc`.
 */
export function hashEquals(pod: Pod, revision: string): boolean {
  return isPodAtRevision(pod, revision, { shortHashAware: true });
}

/**
 * `hashEquals(·, revision)` as a predicate with a memo per distinct label value, for scans
 * over many pods (a CloneSet's pods carry only a few distinct revision labels).
 */
export function revisionMatcher(revision: string): (pod: Pod) => boolean {
  const matches = revisionLabelMatcher(revision);
  return (pod) => matches(pod.metadata?.labels?.[REVISION_LABEL] ?? '');
}

/**
 * {@link revisionMatcher} on the label value itself (`""` when the pod has none): equal to
 * `revision`, or the same short hash; memoised per distinct value.
 */
export function revisionLabelMatcher(revision: string): (label: string) => boolean {
  const memo = new Map<string, boolean>();
  return (label) => {
    if (label === revision) return true;
    let v = memo.get(label);
    if (v === undefined) {
      v = shortHashOf(label) === shortHashOf(revision);
      memo.set(label, v);
    }
    return v;
  };
}

/**
 * The Scale path's `isPodUpdate` (§4.3, core's `isPodUpdate`): with the `PreparingUpdateAsUpdate`
 * gate on, a pod in lifecycle state PreparingUpdate counts as updated; otherwise `hashEquals`.
 */
export function scaleIsPodUpdate(gates: Pick<FeatureGates, 'PreparingUpdateAsUpdate'>) {
  const featureGates = { PreparingUpdateAsUpdate: gates.PreparingUpdateAsUpdate };
  return (pod: Pod, updateRevision: string): boolean => isPodUpdate(pod, updateRevision, featureGates);
}

/** A predicate made by {@link specifiedDeleteChecker}: it carries its `podsToDelete` names. */
export type SpecifiedDeleteChecker = ((pod: Pod) => boolean) & {
  /** The `podsToDelete` names, `null` when there are none. */
  readonly podsToDelete: ReadonlySet<string> | null;
};

/**
 * Specified delete (§4.4): the label `apps.kruise.io/specified-delete` is present (any value) or
 * the pod's name is in `scaleStrategy.podsToDelete`. Returns a predicate with the names indexed
 * once, and carried on the predicate (see `specifiedDeleteNamesOf`).
 */
export function specifiedDeleteChecker(cloneSet: CloneSet): SpecifiedDeleteChecker {
  const names = cloneSet.spec?.scaleStrategy?.podsToDelete ?? [];
  const set = names.length > 0 ? new Set(names) : undefined;
  const check = (pod: Pod) => {
    const labels = pod.metadata?.labels;
    if (labels && Object.hasOwn(labels, SPECIFIED_DELETE_LABEL)) return true;
    return set?.has(pod.metadata?.name ?? '') ?? false;
  };
  return Object.assign(check, { podsToDelete: set ?? null });
}

/**
 * For a predicate made by {@link specifiedDeleteChecker}: its `podsToDelete` names (`null` when
 * there are none), so a caller holding the pod's label and name facts can answer it without
 * reading the pod; `undefined` for any other predicate (the caller must call it).
 */
export function specifiedDeleteNamesOf(
  isSpecifiedDelete: (pod: Pod) => boolean,
): ReadonlySet<string> | null | undefined {
  return 'podsToDelete' in isSpecifiedDelete
    ? (isSpecifiedDelete as SpecifiedDeleteChecker).podsToDelete
    : undefined;
}

/** The D10 switch: the process flag, or the CloneSet label equal to `"true"`. */
export function scalingExcludesPreparingDelete(cloneSet: CloneSet, flag: boolean | undefined): boolean {
  if (flag) return true;
  return cloneSet.metadata?.labels?.[LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE] === 'true';
}
