// CloneSet's wiring of the lifecycle state machine (docs/reference/cloneset.md §11, docs/reference/core.md
// §3.3): the refresh transitions run for every pod before an update, with CloneSet's own
// revision rule (hashEquals) and the pod-level in-place completion check.
import { CONDITION_INPLACE_UPDATE_READY, LABEL_LIFECYCLE_STATE, type Lifecycle } from '@kruise-ts/api';
import {
  checkPodUpdateCompleted,
  type FeatureGates,
  type InPlaceCache,
  refreshPodLifecycle,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { hashEquals } from './predicates';

/** What {@link refreshLifecycle} reads besides the pod. */
export interface RefreshLifecycleOptions {
  /** The CloneSet's `spec.lifecycle` (its preNormal and inPlaceUpdate hooks). */
  lifecycle: Lifecycle | undefined;
  /** The update revision's name: a PreparingUpdate pod already on it moves on (§11). */
  updateRevision: string;
  featureGates: FeatureGates;
  /** `now` as RFC 3339: the lifecycle timestamp annotation of a transition. */
  now: string;
  /** Decoded in-place state annotations kept between reconciles (core's `InPlaceCache`), if any. */
  cache?: InPlaceCache;
}

/**
 * The refresh transitions of §11 (core's `refreshPodLifecycle`):
 *
 * | from | to | when |
 * |---|---|---|
 * | PreparingNormal | Normal | no `lifecycle`, no `preNormal`, or allHooked(preNormal); readiness does not matter |
 * | PreparingUpdate | Updated / Normal | the pod already `hashEquals` the update revision |
 * | Updating | Updated / Normal | the in-place update completed (§10.5, R2.6.1) |
 * | Updated | Normal | no `lifecycle`, no `inPlaceUpdate`, or allHooked(inPlaceUpdate) |
 *
 * "Updated / Normal": Updated if `lifecycle` is set and not allHooked(inPlaceUpdate) — so with
 * `lifecycle` set but `inPlaceUpdate` nil the pod goes Updated, then Normal in the next pass.
 * The write uses `markPodNotReady` of the inPlaceUpdate hook (R3.4). Returns the same pod when
 * nothing changes.
 *
 * `pod` is the pod after the in-place refresh (§10.4). When it has the `InPlaceUpdateReady`
 * gate and that condition is still not True, the refresh stopped before R2.5.3 — a grace period,
 * unfinished containers or pending batches — so the completion check (R2.6.1) cannot pass and
 * is not evaluated again.
 */
export function refreshLifecycle(pod: Pod, options: RefreshLifecycleOptions): Pod {
  const { lifecycle, updateRevision, featureGates, now, cache } = options;
  const state = pod.metadata?.labels?.[LABEL_LIFECYCLE_STATE];
  if (
    state !== 'PreparingNormal' &&
    state !== 'PreparingUpdate' &&
    state !== 'Updating' &&
    state !== 'Updated'
  )
    return pod;
  const checks =
    state === 'PreparingUpdate'
      ? { atUpdateRevision: hashEquals(pod, updateRevision) }
      : state === 'Updating'
        ? {
            updateCompleted:
              !refreshStoppedEarly(pod) && checkPodUpdateCompleted(pod, { featureGates, cache }).completed,
          }
        : {};
  return refreshPodLifecycle(pod, lifecycle, checks, now);
}

/** The pod has the InPlaceUpdateReady gate but the condition is not True (see `refreshLifecycle`). */
function refreshStoppedEarly(pod: Pod): boolean {
  if (!(pod.spec?.readinessGates ?? []).some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY))
    return false;
  const c = (pod.status?.conditions ?? []).find((x) => x.type === CONDITION_INPLACE_UPDATE_READY);
  return c?.status !== 'True';
}
