// ControllerRevisions of a DaemonSet (docs/reference/daemonset.md §12): the current revision and its
// hash `H`, the old revisions, de-duplication, rollback renumbering and history cleanup.
import { type KubeObject, LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import {
  type Action,
  canonicalJSON,
  getRevisionData,
  labelSelectorMatcher,
  makeRevisionData,
  newControllerRevision,
  type ObjectRef,
  type RevisionData,
  resolveRevisionNameCollision,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { byteCompare } from './budget';
import { DEFAULT_REVISION_HISTORY_LIMIT, Reasons } from './constants';
import { controllerRefOf, daemonSetControllerRef, podRef, refersToDaemonSet } from './nodePods';
import { podRevision } from './predicates';
import type { DaemonSet } from './types';

/** What §12 decided for this sync. */
export interface RevisionPlan {
  /** Current revision hash `H` (its `controller-revision-hash` label). */
  hash: string;
  /** The current revision (as it will be after the actions). */
  current: ControllerRevision;
  /** Old revisions, in input order. */
  old: ControllerRevision[];
  /** `status.collisionCount` after this sync. */
  collisionCount: number;
  /** Revision create/patch/delete and pod relabel actions, in order. */
  actions: Action[];
  /** Pod name → new hash label for pods relabelled to the kept duplicate (§12.3). */
  relabelled: Map<string, string>;
}

/** The ObjectRef of a ControllerRevision. */
export function revisionRef(rev: ControllerRevision): ObjectRef {
  const ref: ObjectRef = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    name: rev.metadata?.name ?? '',
  };
  if (rev.metadata?.namespace !== undefined) ref.namespace = rev.metadata.namespace;
  if (rev.metadata?.uid !== undefined) ref.uid = rev.metadata.uid;
  return ref;
}

/** §12.1: revision data `{"spec":{"template":{…template…,"$patch":"replace"}}}`. */
export function daemonSetRevisionData(ds: DaemonSet): RevisionData {
  return makeRevisionData(ds.spec.template);
}

/** The `controller-revision-hash` label of a revision (its name when unlabelled, §12.2). */
export function revisionHash(rev: ControllerRevision): string {
  return rev.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? rev.metadata?.name ?? '';
}

/** Highest `revision` number, 0 for none. */
function maxRevision(revs: readonly ControllerRevision[]): number {
  return revs.reduce((m, r) => Math.max(m, r.revision ?? 0), 0);
}

/**
 * §12.2–12.4 `constructHistory`. Claims the DaemonSet's revisions (owned and matching the
 * selector; matching orphans are adopted), labels unlabelled ones with their name, splits
 * them into the revisions whose data equals the DaemonSet's (current candidates) and the old
 * ones, then: none matching → create `<ds>-<hash>` with `revision = max(old) + 1` (a name
 * taken by different data bumps `collisionCount` and tries again); several → keep the
 * highest `revision`, relabel pods of the others to its hash and delete the others; the kept
 * one is renumbered to `max(old) + 1` when lower (rollback).
 *
 * Example: revisions r1 (revision 1, template A) and r2 (revision 2, template B) with the
 * DaemonSet back at template A → r1 is current and is renumbered to 3.
 */
export function constructHistory(
  ds: DaemonSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
): RevisionPlan {
  const actions: Action[] = [];
  const ns = ds.metadata.namespace;
  const owned: ControllerRevision[] = [];
  const selects = labelSelectorMatcher(ds.spec.selector);
  for (const rev of revisions) {
    if (ns !== undefined && rev.metadata?.namespace !== undefined && rev.metadata.namespace !== ns) continue;
    if (!selects(rev.metadata?.labels ?? {})) continue;
    const ref = controllerRefOf(rev.metadata);
    if (ref) {
      if (refersToDaemonSet(ref, ds)) owned.push(rev);
      continue;
    }
    if (rev.metadata?.deletionTimestamp) continue;
    const owners = [...(rev.metadata?.ownerReferences ?? []), daemonSetControllerRef(ds)];
    actions.push({
      verb: 'patch',
      target: revisionRef(rev),
      patchType: 'merge',
      patch: { metadata: { ownerReferences: owners } },
      reason: Reasons.UpdateRevision,
    });
    owned.push({ ...rev, metadata: { ...rev.metadata, ownerReferences: owners } });
  }
  // §12.2 revisions lacking the hash label get it set to their name.
  const labelled = owned.map((rev) => {
    if (rev.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] !== undefined) return rev;
    const name = rev.metadata?.name ?? '';
    actions.push({
      verb: 'patch',
      target: revisionRef(rev),
      patchType: 'merge',
      patch: { metadata: { labels: { [LABEL_CONTROLLER_REVISION_HASH]: name } } },
      reason: Reasons.UpdateRevision,
    });
    return {
      ...rev,
      metadata: {
        ...rev.metadata,
        labels: { ...rev.metadata?.labels, [LABEL_CONTROLLER_REVISION_HASH]: name },
      },
    };
  });

  const wanted = canonicalJSON(daemonSetRevisionData(ds));
  const matching: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (const rev of labelled) (canonicalJSON(getRevisionData(rev)) === wanted ? matching : old).push(rev);
  const nextRevision = maxRevision(old) + 1;
  let collisionCount = ds.status?.collisionCount ?? 0;
  const relabelled = new Map<string, string>();
  let current: ControllerRevision;

  if (matching.length === 0) {
    // §12.3 a name clash: core's collision step, with data-only equality; every given revision
    // blocks a name, and one holding equal data is used as is.
    const choice = resolveRevisionNameCollision(
      revisions,
      (collisions) => newDaemonSetRevision(ds, collisions, nextRevision),
      collisionCount,
      (a, b) => canonicalJSON(getRevisionData(a)) === canonicalJSON(getRevisionData(b)),
    );
    collisionCount = choice.collisionCount;
    current = choice.revision;
    if (choice.kind === 'create')
      actions.push({
        verb: 'create',
        // a created revision is the candidate newDaemonSetRevision built, with apiVersion, kind and metadata
        object: current as ControllerRevision & KubeObject,
        reason: Reasons.CreateRevision,
      });
  } else {
    const sorted = [...matching].sort(byRevisionThenName);
    current = sorted[sorted.length - 1];
    const keepHash = revisionHash(current);
    for (const dup of sorted.slice(0, -1)) {
      const dupHash = revisionHash(dup);
      for (const pod of pods) {
        if (podRevision(pod) !== dupHash || dupHash === keepHash || relabelled.has(pod.metadata?.name ?? ''))
          continue;
        relabelled.set(pod.metadata?.name ?? '', keepHash);
        actions.push({
          verb: 'patch',
          target: podRef(pod),
          patchType: 'merge',
          patch: { metadata: { labels: { [LABEL_CONTROLLER_REVISION_HASH]: keepHash } } },
          reason: Reasons.RelabelPod,
        });
      }
      actions.push({ verb: 'delete', target: revisionRef(dup), reason: Reasons.DeleteRevision });
    }
    if ((current.revision ?? 0) < nextRevision) {
      actions.push({
        verb: 'patch',
        target: revisionRef(current),
        patchType: 'merge',
        patch: { revision: nextRevision },
        reason: Reasons.UpdateRevision,
      });
      current = { ...current, revision: nextRevision };
    }
  }
  return { hash: revisionHash(current), current, old, collisionCount, actions, relabelled };
}

/**
 * Ascending `revision` (unset counts as 0), ties by name so the order is fixed: §12.3 keeps the
 * last of the matching revisions, §12.5 deletes old ones from the first.
 */
function byRevisionThenName(a: ControllerRevision, b: ControllerRevision): number {
  return (a.revision ?? 0) - (b.revision ?? 0) || byteCompare(a.metadata?.name ?? '', b.metadata?.name ?? '');
}

/**
 * §12.3 a new revision `<ds>-<hash>`: labels = template labels + `controller-revision-hash`,
 * annotations = the DaemonSet's, owner reference to the DaemonSet.
 */
export function newDaemonSetRevision(
  ds: DaemonSet,
  collisionCount: number,
  revision: number,
): ControllerRevision {
  return newControllerRevision({
    parent: ds,
    template: ds.spec.template,
    revision,
    collisionCount,
    ...(ds.metadata.annotations ? { annotations: ds.metadata.annotations } : {}),
    hashLabelKey: LABEL_CONTROLLER_REVISION_HASH,
  });
}

/**
 * §12.5 history cleanup: `toKill = |old| − revisionHistoryLimit` (default 10); old revisions
 * are deleted in ascending `revision` order, skipping those whose hash a current pod
 * carries. Example: limit 2, old revisions 1..5 with a pod still on revision 2 → delete 1, 3, 4.
 */
export function cleanupHistory(
  ds: DaemonSet,
  old: readonly ControllerRevision[],
  pods: Iterable<Pod>,
): Action[] {
  const limit = ds.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  let toKill = old.length - limit;
  if (toKill <= 0) return [];
  const live = new Set<string>();
  for (const pod of pods) live.add(podRevision(pod));
  const actions: Action[] = [];
  const sorted = [...old].sort(byRevisionThenName);
  for (const rev of sorted) {
    if (toKill <= 0) break;
    if (live.has(revisionHash(rev))) continue;
    actions.push({ verb: 'delete', target: revisionRef(rev), reason: Reasons.DeleteRevision });
    toKill--;
  }
  return actions;
}
