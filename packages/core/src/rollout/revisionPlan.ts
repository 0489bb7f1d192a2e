// One reconcile's revision plan for a workload that keeps ControllerRevisions (CloneSet: cloneset.md §12,
// Advanced StatefulSet R4.4): sort the owned revisions, choose the update revision with
// {@link chooseUpdateRevision}, write it (create, or the rollback's renumbering), and find the
// current revision. The controllers differ only in how a rollback is written.
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Action } from '../contract/actions';
import {
  chooseUpdateRevision,
  nextRevisionNumber,
  revisionObject,
  sortControllerRevisions,
} from './revision';

/** What {@link planControllerRevisions} returns. */
export interface ControllerRevisionPlan {
  /** The revisions in history order, with the update revision's write applied. */
  revisions: ControllerRevision[];
  updateRevision: ControllerRevision;
  /** The revision named by `currentRevisionName`, else the update revision. */
  currentRevision: ControllerRevision;
  collisionCount: number;
  /** The revision write to send (none when the newest revision already matches). */
  actions: Action[];
}

/** Options of {@link planControllerRevisions}. */
export interface PlanControllerRevisionsOptions {
  /** The candidate revision for the current template, numbered `next`, named with `collisionCount`. */
  candidateFor(next: number, collisionCount: number): ControllerRevision;
  /** `status.collisionCount`. */
  collisionCount: number;
  /** `status.currentRevision`. */
  currentRevisionName?: string;
  /**
   * A rollback: the older revision `old` equals the template; returns it renumbered to `next` (and
   * whatever else the controller refreshes) and the action that writes it.
   */
  reuse(
    old: ControllerRevision,
    next: number,
    collisionCount: number,
  ): { revision: ControllerRevision; action: Action };
}

/**
 * Plans the revisions of one reconcile. Example: revisions #1 (template A) and #2 (B), the
 * template back to A → `reuse` renumbers #1 to #3 (the controller's action), the revisions are
 * re-sorted to [#2, #3], the update revision is #3 and the current one is whatever the status
 * names (else #3). A new template C → a `create` action for the candidate numbered #3.
 */
export function planControllerRevisions(
  owned: readonly ControllerRevision[],
  opts: PlanControllerRevisionsOptions,
): ControllerRevisionPlan {
  const sorted = sortControllerRevisions(owned);
  const next = nextRevisionNumber(sorted);
  const choice = chooseUpdateRevision(sorted, (c) => opts.candidateFor(next, c), opts.collisionCount);
  const { collisionCount } = choice;
  const actions: Action[] = [];
  let updateRevision: ControllerRevision;
  let revisions = sorted;
  if (choice.kind === 'latest') updateRevision = choice.revision;
  else if (choice.kind === 'reuse') {
    const old = choice.old;
    const r = opts.reuse(old, next, collisionCount);
    updateRevision = r.revision;
    actions.push(r.action);
    revisions = sortControllerRevisions(sorted.map((x) => (x === old ? updateRevision : x)));
  } else {
    updateRevision = choice.revision;
    actions.push({
      verb: 'create',
      object: revisionObject(updateRevision),
      reason: 'CreateRevision',
    });
    revisions = [...sorted, updateRevision];
  }
  const name = opts.currentRevisionName;
  const currentRevision =
    (name ? revisions.find((r) => r.metadata?.name === name) : undefined) ?? updateRevision;
  return { revisions, updateRevision, currentRevision, collisionCount, actions };
}
