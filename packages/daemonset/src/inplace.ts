// In-place update of daemon pods (docs/reference/daemonset.md §8) through @kruise-ts/core's in-place
// protocol (docs/reference/core.md §1, §2, wiring of §2.9): which pods may be updated in place, the
// update itself (at most `burst` per sync) and the per-sync refresh of every pod.
import {
  calculateInPlaceUpdateSpec,
  daemonSetGetRevision,
  daemonSetRevisionAdapter,
  inPlaceRefresh,
  inPlaceUpdate,
  shortHash,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { EVENT_FAILED_UPDATE_POD_IN_PLACE, EVENT_SUCCESSFUL_UPDATE_POD_IN_PLACE, Reasons } from './constants';
import { hasInPlaceReadinessGate, isDeleting, podRevision } from './predicates';
import { revisionHash } from './revisions';
import { emitPodChange, requestRequeue, type SyncContext } from './syncContext';

/** The current and old revisions (§12) in-place decisions need. */
export interface InPlaceRevisions {
  current: ControllerRevision;
  old: readonly ControllerRevision[];
}

/**
 * §8.1 `canPodInPlaceUpdate`: the pod has the `InPlaceUpdateReady` readiness gate, its hash
 * is the hash of an **old** revision (compared short-hash aware, docs/reference/core.md 2.9), and that
 * revision's template differs from the current one only in in-place-compatible ways
 * (container images, template labels/annotations; cpu/memory with the vertical gate).
 */
export function canPodInPlaceUpdate(
  pod: Pod,
  revisions: InPlaceRevisions,
  featureGates: SyncContext['featureGates'] = {},
): boolean {
  if (!hasInPlaceReadinessGate(pod)) return false;
  const podHash = shortHash(podRevision(pod));
  const old = revisions.old.find((r) => shortHash(revisionHash(r)) === podHash);
  if (!old) return false;
  return (
    calculateInPlaceUpdateSpec(old, revisions.current, {
      featureGates,
      getRevision: daemonSetGetRevision,
    }) !== undefined
  );
}

/**
 * §8.1–8.2: of the old pods the standard rolling update chose (§7.3), those that can be
 * updated in place are (at most `burst` per sync; the rest of them wait for a later sync):
 * new images and hash `H` patched in, `InPlaceUpdateReady=False` until the containers
 * restarted, event `SuccessfulUpdatePodInPlace` (or `FailedUpdatePodInPlace`). Returns the
 * pods that must be deleted instead.
 *
 * Example: an old pod created with the readiness gate whose revision differs from the current
 * one only in `containers[0].image` is patched; a pod whose revision also changed `env` is
 * returned for deletion.
 */
export function inPlaceUpdatePods(
  ctx: SyncContext,
  pods: readonly Pod[],
  revisions: InPlaceRevisions,
): Pod[] {
  const needDelete: Pod[] = [];
  let attempted = 0;
  for (const pod of pods) {
    if (!canPodInPlaceUpdate(pod, revisions, ctx.featureGates)) {
      needDelete.push(pod);
      continue;
    }
    if (attempted >= ctx.burst) {
      ctx.burstLimited = true;
      continue;
    }
    const exact = revisions.old.find((r) => revisionHash(r) === podRevision(pod));
    const res = inPlaceUpdate(pod, exact, revisions.current, {
      now: ctx.now,
      featureGates: ctx.featureGates,
      cache: ctx.inPlaceCache,
      revisionAdapter: daemonSetRevisionAdapter,
      getRevision: daemonSetGetRevision,
    });
    if (!res.inPlaceUpdate) {
      needDelete.push(pod);
      continue;
    }
    attempted++;
    if (res.pod) emitPodChange(ctx, pod, res.pod, Reasons.InPlaceUpdate);
    const name = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
    if (res.error === undefined)
      ctx.rec.event(
        'Normal',
        EVENT_SUCCESSFUL_UPDATE_POD_IN_PLACE,
        `successfully update pod ${name} in-place`,
      );
    else
      ctx.rec.event(
        'Warning',
        EVENT_FAILED_UPDATE_POD_IN_PLACE,
        `failed to update pod ${name} in-place: ${res.error}`,
      );
    if (res.delaySeconds !== undefined) requestRequeue(ctx, res.delaySeconds);
  }
  return needDelete;
}

/**
 * §8.3: refreshes the in-place state of every pod (docs/reference/core.md 2.5): a pending grace
 * period or the next container batch progresses, and `InPlaceUpdateReady` becomes True once
 * the new containers run. Pods created or deleting in this call are skipped.
 */
export function refreshInPlaceStates(ctx: SyncContext): void {
  const options = {
    now: ctx.now,
    featureGates: ctx.featureGates,
    cache: ctx.inPlaceCache,
    revisionAdapter: daemonSetRevisionAdapter,
  };
  for (const pods of [...ctx.view.values()]) {
    for (const pod of pods) {
      if (isDeleting(pod) || ctx.createdNames.has(pod.metadata?.name ?? '')) continue;
      const res = inPlaceRefresh(pod, options);
      if (res.changed) emitPodChange(ctx, pod, res.pod, Reasons.InPlaceRefresh);
      if (res.delaySeconds !== undefined) requestRequeue(ctx, res.delaySeconds);
    }
  }
}
