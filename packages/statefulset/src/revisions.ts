// Revisions of an Advanced StatefulSet (docs/reference/statefulset.md §4.2, R4.2–R4.7): the candidate
// revision of the current template, current/update revision selection with rollback
// renumbering and collision counting, the templates of currentSet/updateSet, and history
// truncation.
import { APPS_V1BETA1, LABEL_CONTROLLER_REVISION_HASH, type StatefulSet } from '@kruise-ts/api';
import {
  type Action,
  type ControllerRevisionPlan,
  newControllerRevision,
  type ObjectRef,
  planControllerRevisions,
  revisionsToTruncate,
  revisionTemplate,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { Reasons } from './types';

/** The outcome of revision selection (R4.3–R4.5; core's {@link ControllerRevisionPlan}). */
export type StatefulSetRevisionPlan = ControllerRevisionPlan;

/** The reference of a ControllerRevision. */
export function revisionRef(r: ControllerRevision): ObjectRef {
  const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'ControllerRevision', name: r.metadata?.name ?? '' };
  if (r.metadata?.namespace !== undefined) ref.namespace = r.metadata.namespace;
  if (r.metadata?.uid !== undefined) ref.uid = r.metadata.uid;
  return ref;
}

/**
 * R4.2: the revision of the set's current template: data `{"spec":{"template":{…,"$patch":"replace"}}}`
 * (only the template is versioned), name `<set>-<hash>` (hash over the data and the collision
 * count), labels = template labels (+ `controller.kubernetes.io/hash`), annotations = the set's,
 * controller ref to the set (`apps.kruise.io/v1beta1`).
 */
export function candidateRevision(
  set: StatefulSet,
  revisionNumber: number,
  collisionCount: number,
): ControllerRevision {
  const annotations = set.metadata.annotations;
  return newControllerRevision({
    parent: { ...set, apiVersion: APPS_V1BETA1, kind: 'StatefulSet' },
    template: set.spec.template,
    revision: revisionNumber,
    collisionCount,
    ...(annotations && Object.keys(annotations).length > 0 ? { annotations } : {}),
  });
}

/**
 * R4.3–R4.5 `getStatefulSetRevisions`. With revisions sorted by number (R4.3) and
 * `next = highest + 1`:
 * - the highest-numbered revision has the template's data → it is the update revision;
 * - an older one does (rollback) → the most recent equal revision is renumbered to `next`;
 * - none does → a new revision `next` is created; a name taken by a revision with other data
 *   bumps the collision count until the name is free.
 *
 * The current revision is the one named `status.currentRevision`, else the update revision.
 *
 * Example (upstream `TestStatefulSetControl_getSetRevisions`): revisions {rev0 #1, rev1 #2,
 * rev2 #3} and the template of rev1 → still 3 revisions, update = rev1 renumbered to #4,
 * current = rev0 (from the status).
 */
export function getStatefulSetRevisions(
  set: StatefulSet,
  owned: readonly ControllerRevision[],
): StatefulSetRevisionPlan {
  return planControllerRevisions(owned, {
    candidateFor: (next, collisions) => candidateRevision(set, next, collisions),
    collisionCount: set.status?.collisionCount ?? 0,
    currentRevisionName: set.status?.currentRevision,
    // the rollback: only the revision number changes, sent as a merge patch
    reuse: (old, next) => ({
      revision: { ...old, revision: next },
      action: {
        verb: 'patch',
        target: revisionRef(old),
        patchType: 'merge',
        patch: { revision: next },
        reason: Reasons.UpdateRevision,
      },
    }),
  });
}

/**
 * R4.7: the template `currentSet` / `updateSet` stamp pods from — the revision's stored template,
 * or the set's own template when the revision carries no readable data.
 */
export function templateOfRevision(rev: ControllerRevision, fallback: PodTemplateSpec): PodTemplateSpec {
  return revisionTemplate(rev) ?? fallback;
}

/**
 * R4.6 history truncation: live = current, update and every revision named by a pod's
 * `controller-revision-hash`; non-live revisions beyond `revisionHistoryLimit` (default 10) are
 * deleted oldest first.
 *
 * Example: limit 2, revisions #1–#5, pods at #5, current #4 → non-live #1–#3 → delete #1.
 */
export function truncateHistory(
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
  currentName: string,
  updateName: string,
): Action[] {
  const limit = set.spec.revisionHistoryLimit ?? 10;
  // no more revisions than the limit: none can be in excess, whichever are live
  if (revisions.length <= Math.max(0, limit)) return [];
  const live = new Set<string>([currentName, updateName]);
  for (const p of pods) {
    const r = p.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    if (r) live.add(r);
  }
  return revisionsToTruncate(revisions, live, limit).map((r) => ({
    verb: 'delete' as const,
    target: revisionRef(r),
    reason: Reasons.TruncateHistory,
  }));
}
