// CloneSet revisions (docs/reference/cloneset.md §12): choosing the update revision (reuse,
// rollback, create with collision count), the current revision, the templates of
// both, and history truncation.

import { ANNOTATION_CLONESET_VCT_HASH, type CloneSet, LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import {
  type Action,
  type ControllerRevisionPlan,
  hashVolumeClaimTemplates,
  newControllerRevision,
  type ObjectRef,
  planControllerRevisions,
  revisionObject,
  revisionsToTruncate,
  revisionTemplate,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { shortHashOf } from './predicates';
import { Reasons } from './types';

/** The outcome of §1 step 8 (core's {@link ControllerRevisionPlan}). */
export type RevisionPlan = ControllerRevisionPlan;

/** The reference of a ControllerRevision. */
export function revisionRef(r: ControllerRevision): ObjectRef {
  const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'ControllerRevision', name: r.metadata?.name ?? '' };
  if (r.metadata?.namespace !== undefined) ref.namespace = r.metadata.namespace;
  if (r.metadata?.uid !== undefined) ref.uid = r.metadata.uid;
  return ref;
}

/** Default `revisionHistoryLimit` (§2.1). */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** The candidate revision of the CloneSet's current spec (payload = template only). */
export function candidateRevision(
  cs: CloneSet,
  revisionNumber: number,
  collisionCount: number,
): ControllerRevision {
  const annotations: Record<string, string> = {
    ...(cs.metadata?.annotations ?? {}),
    [ANNOTATION_CLONESET_VCT_HASH]: hashVolumeClaimTemplates(cs.spec.volumeClaimTemplates),
  };
  return newControllerRevision({
    parent: cs,
    template: cs.spec.template,
    revision: revisionNumber,
    collisionCount,
    annotations,
  });
}

/**
 * Chooses the updateRevision (§12) from the owned revisions:
 * - the latest revision has the same payload: reuse it;
 * - an older one is equal: **rollback** — it gets the next revision number (and a refreshed
 *   VCT-hash annotation); its name, so the hash pods carry, stays the same;
 * - none is equal: create the candidate; on a name clash with different content the
 *   collisionCount goes up and the name is recomputed.
 * currentRevision is the revision named `status.currentRevision`, or the updateRevision.
 *
 * Example: history `[sample-a (1), sample-b (2)]`, the template changed back to a's:
 * `sample-a` is updated to revision 3 and becomes the updateRevision.
 */
export function planRevisions(cs: CloneSet, owned: readonly ControllerRevision[]): RevisionPlan {
  return planControllerRevisions(owned, {
    candidateFor: (next, collisions) => candidateRevision(cs, next, collisions),
    collisionCount: cs.status?.collisionCount ?? 0,
    currentRevisionName: cs.status?.currentRevision,
    // the rollback keeps the old name (the hash its pods carry) and refreshes the VCT hash
    reuse: (old, next, collisionCount) => {
      const vct =
        candidateRevision(cs, next, collisionCount).metadata?.annotations?.[ANNOTATION_CLONESET_VCT_HASH] ??
        '';
      const annotations = { ...(old.metadata?.annotations ?? {}) };
      if (annotations[ANNOTATION_CLONESET_VCT_HASH] !== vct) annotations[ANNOTATION_CLONESET_VCT_HASH] = vct;
      const revision: ControllerRevision = {
        ...old,
        metadata: { ...old.metadata, annotations },
        revision: next,
      };
      const action: Action = {
        verb: 'update',
        object: revisionObject(revision),
        reason: Reasons.UpdateRevision,
      };
      return { revision, action };
    },
  });
}

/** The pod template stored in a revision (§1 step 12: `currentCS` / `updateCS`); falls back to `fallback`. */
export function templateOf(rev: ControllerRevision, fallback: PodTemplateSpec): PodTemplateSpec {
  return revisionTemplate(rev) ?? fallback;
}

/**
 * History truncation (§12, §1 step 15): a revision is live if it is the current or update
 * revision or any listed pod `hashEquals` it; among the others, in history order, delete the
 * oldest until at most `revisionHistoryLimit` (default 10) remain.
 *
 * Pods are indexed once by full label and by short hash, so this is linear in pods.
 */
export function truncateHistory(
  cs: CloneSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
  currentName: string,
  updateName: string,
): Action[] {
  const limit = cs.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  if (revisions.length <= Math.max(0, limit)) return []; // nothing can exceed the limit: skip the pod scan
  const labels = new Set<string>();
  const shorts = new Set<string>();
  for (const pod of pods) {
    const l = pod.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
    if (labels.has(l)) continue;
    labels.add(l);
    shorts.add(shortHashOf(l));
  }
  const live = new Set<string>([currentName, updateName]);
  for (const r of revisions) {
    const name = r.metadata?.name ?? '';
    if (labels.has(name) || shorts.has(shortHashOf(name))) live.add(name);
  }
  return revisionsToTruncate(revisions, live, limit).map((r) => ({
    verb: 'delete' as const,
    target: revisionRef(r),
    reason: Reasons.TruncateHistory,
    ...(r.metadata?.uid ? { preconditions: { uid: r.metadata.uid } } : {}),
  }));
}
