// CloneSet's pod predicates (docs/reference/cloneset.md §4): updateReady, available, ready,
// revision matching (hashEquals / isPodUpdate) and specified delete.

import type { CloneSet } from '@kruise-ts/api';
import {
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE,
  LABEL_LIFECYCLE_STATE,
  LABEL_SPECIFIED_DELETE,
  LifecycleStates,
} from '@kruise-ts/api';
import { type FeatureGates, isPodAtRevision, isPodUpdate, shortHash } from '@kruise-ts/core';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';

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

/**
 * The pod's lifecycle state label (`lifecycle.apps.kruise.io/state`) as written, `''` when absent.
 * A plain string rather than a `LifecycleState`: the label is user data and may hold any text.
 * A value outside `LifecycleStates` equals none of them, so such a pod is not Normal (§4.2) and
 * is in no preparing state; messages quote it as written.
 */
export function podLifecycleState(pod: Pod): string {
  return pod.metadata?.labels?.[LABEL_LIFECYCLE_STATE] ?? '';
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
    findCondition(pod, CONDITION_INPLACE_UPDATE_READY),
    minReadySeconds,
    nowMs,
  );
}

/**
 * {@link updateReady} from a pod's phase and its first `Ready` and `InPlaceUpdateReady`
 * conditions, for callers that have already found them (podContent.ts scans the conditions once).
 */
export function updateReadyOf(
  phase: string | undefined,
  ready: PodCondition | undefined,
  ipu: PodCondition | undefined,
  minReadySeconds: number,
  nowMs: number,
): boolean {
  if (phase !== 'Running' || ready?.status !== 'True') return false;
  if (!readyLongEnough(timeMillis(ready.lastTransitionTime), minReadySeconds, nowMs)) return false;
  return ipu === undefined || ipu.status === 'True';
}

/**
 * The time part of `updateReady` (§4.1): with `minReadySeconds > 0`, Ready since `sinceMs`
 * strictly longer than that at `nowMs`; an unknown Ready time (`undefined`) is never long enough.
 * Example: since 00:00:00, 30 s: false at 00:00:30, true at 00:00:31.
 */
export function readyLongEnough(
  sinceMs: number | undefined,
  minReadySeconds: number,
  nowMs: number,
): boolean {
  if (!(minReadySeconds > 0)) return true;
  return sinceMs !== undefined && sinceMs + minReadySeconds * 1000 < nowMs;
}

/** Lifecycle state `""` (absent) or `Normal`: the only states that allow availability (§4.2). */
export function isNormalState(state: string): boolean {
  return state === '' || state === LifecycleStates.Normal;
}

/** {@link isNormalState} of the pod's lifecycle state. */
function isLifecycleNormal(pod: Pod): boolean {
  return isNormalState(podLifecycleState(pod));
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
 * `hashEquals(·, revision)` (§4.3) on the `controller-revision-hash` label value itself (`""`
 * when the pod has none): equal to `revision`, or the same short hash. A CloneSet's pods carry a
 * few distinct labels, so each distinct value is compared once per matcher.
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

/** Specified delete (§4.4) of a pod, as {@link specifiedDeleteChecker} makes it. */
export type SpecifiedDeleteChecker = (pod: Pod) => boolean;

/**
 * Specified delete (§4.4) from its two inputs: the pod carries the label
 * `apps.kruise.io/specified-delete` (any value), or its name is in `scaleStrategy.podsToDelete`.
 */
export function isSpecifiedDelete(
  hasLabel: boolean,
  name: string,
  podsToDelete: ReadonlySet<string>,
): boolean {
  return hasLabel || (podsToDelete.size > 0 && podsToDelete.has(name));
}

/** `scaleStrategy.podsToDelete` as a set of names. */
export function podsToDeleteOf(cloneSet: CloneSet): ReadonlySet<string> {
  return new Set(cloneSet.spec?.scaleStrategy?.podsToDelete ?? []);
}

/**
 * Specified delete (§4.4): the label `apps.kruise.io/specified-delete` is present (any value) or
 * the pod's name is in `scaleStrategy.podsToDelete`. Returns a predicate with the names indexed
 * once. Example: `podsToDelete: [sample-a]` → `sample-a` and any pod labelled
 * `apps.kruise.io/specified-delete: ""` answer true.
 */
export function specifiedDeleteChecker(cloneSet: CloneSet): SpecifiedDeleteChecker {
  const names = podsToDeleteOf(cloneSet);
  return (pod: Pod) => {
    const labels = pod.metadata?.labels;
    const hasLabel = !!labels && Object.hasOwn(labels, LABEL_SPECIFIED_DELETE);
    return isSpecifiedDelete(hasLabel, pod.metadata?.name ?? '', names);
  };
}

/** The D10 switch: the process flag, or the CloneSet label equal to `"true"`. */
export function scalingExcludesPreparingDelete(cloneSet: CloneSet, flag: boolean | undefined): boolean {
  if (flag) return true;
  return cloneSet.metadata?.labels?.[LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE] === 'true';
}
