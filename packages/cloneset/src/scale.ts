// The Scale step (docs/reference/cloneset.md §1.1): PreparingDelete cancellation, diffs with the
// Scale predicate, creation, PreparingDelete and specified deletes, then scale-in.
import { LifecycleStates } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { classifyFacts, diffsFromCounts } from './diffs';
import { choosePodsToDelete, deletePods, filterByDeleteReadyLimit, managePreparingDelete } from './scaleDown';
import { createPods } from './scaleUp';
import type { SyncState } from './sync';
import { type CloneSetDiffs, Reasons } from './types';

/** The outcome of the Scale step. */
export interface ScaleResult {
  /** Something was created, deleted or patched: Update is skipped this reconcile. */
  modified: boolean;
  /** Set when Scale fails (FailedScale condition). */
  error?: string;
  /** The diffs computed with the Scale predicate (absent when Scale returned before them). */
  diffs?: CloneSetDiffs;
}

/**
 * The diffs of §6 over `state.pods`, counting as new the pods for which `isNew(i)` holds: the
 * Scale path's {@link scaleIsNew} or the Update path's hash equality (`facts.updated`).
 */
export function diffsFor(state: SyncState, isNew: (index: number) => boolean): CloneSetDiffs {
  const c = classifyFacts(state.facts, isNew, (i) => state.facts.specified(i));
  const updateName = state.updateRevision.metadata?.name ?? '';
  const currentName = state.currentRevision.metadata?.name ?? '';
  return diffsFromCounts(state.params, c, state.pods.length, {
    rollbackAllowed: state.gates.CloneSetPartitionRollback && updateName !== currentName,
    excludePreparingDelete: state.excludePreparingDelete,
  });
}

/**
 * The Scale path's `isPodUpdate` (§4.3) by list position: `hashEquals(pod, updateRevision)`, or,
 * with the PreparingUpdateAsUpdate gate on, a pod in lifecycle PreparingUpdate. Example: an old
 * pod waiting in PreparingUpdate for its in-place update counts as new for scaling when the gate
 * is on, so a scale-in does not pick it as an old pod.
 */
export function scaleIsNew(state: SyncState): (index: number) => boolean {
  const { facts, gates } = state;
  return (i) =>
    facts.updated(i) || (gates.PreparingUpdateAsUpdate && facts.state(i) === LifecycleStates.PreparingUpdate);
}

/**
 * One Scale pass (§1.1):
 * 1. error if `spec.replicas` is unset;
 * 2. collect specified-delete and PreparingDelete pods, `numToDelete` = distinct names;
 * 3. cancel PreparingDelete where replicas allow (§8.1) — return if patched;
 * 4. diffs with `isPodUpdate` (honours PreparingUpdateAsUpdate);
 * 5. `scaleUpNum > 0`: create `scaleUpLimit` pods and return (modified only if one was created;
 *    no deletion runs in this pass either way, quirk 12);
 * 6. delete (or keep hooked) PreparingDelete pods — return if changed;
 * 7. specified-delete pods not in PreparingDelete, within `deleteReadyLimit` — return if changed;
 * 8. `scaleDownNum > 0` and `numToDelete == 0`: choose (§8.3), limit, delete.
 */
export function scaleCloneSet(state: SyncState): ScaleResult {
  if (state.cs.spec.replicas === undefined || state.cs.spec.replicas === null) {
    return { modified: false, error: 'spec.replicas is nil' };
  }
  // specified-delete and PreparingDelete pods, by list position; numToDelete counts distinct names
  const specified: number[] = [];
  const preparingDelete: number[] = [];
  const names = new Set<string>();
  for (let i = 0; i < state.pods.length; i++) {
    const sd = state.facts.specified(i);
    const pd = state.facts.state(i) === LifecycleStates.PreparingDelete;
    if (sd) specified.push(i);
    if (pd) preparingDelete.push(i);
    if (sd || pd) names.add(state.pods[i].metadata?.name ?? '');
  }
  const numToDelete = names.size;
  if (managePreparingDelete(state, preparingDelete, numToDelete)) return { modified: true };

  const isNew = scaleIsNew(state);
  const diffs = diffsFor(state, isNew);

  if (diffs.scaleUpNum > 0) {
    if (diffs.scaleUpNum > diffs.scaleUpLimit) {
      state.rec.event(
        'Normal',
        'ScaleUpLimited',
        `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${diffs.scaleUpLimit}`,
      );
    }
    const created = createPods(state, diffs.scaleUpLimit, diffs.scaleUpNumOldRevision);
    return { modified: created > 0, diffs };
  }

  if (
    preparingDelete.length > 0 &&
    deletePods(state, podsAt(state, preparingDelete), Reasons.PreparingDelete)
  ) {
    return { modified: true, diffs };
  }

  const specifiedNotPD = specified.filter((i) => state.facts.state(i) !== LifecycleStates.PreparingDelete);
  if (specifiedNotPD.length > 0) {
    const deletable = filterByDeleteReadyLimit(state, specifiedNotPD, diffs.deleteReadyLimit);
    if (deletable.length > 0 && deletePods(state, podsAt(state, deletable), Reasons.SpecifiedDelete))
      return { modified: true, diffs };
  }

  if (diffs.scaleDownNum > 0 && numToDelete === 0) {
    const chosen = choosePodsToDelete(state, isNew, diffs);
    const deletable = filterByDeleteReadyLimit(state, chosen, diffs.deleteReadyLimit);
    if (deletable.length > 0 && deletePods(state, podsAt(state, deletable), Reasons.ScaleDown))
      return { modified: true, diffs };
  }
  return { modified: false, diffs };
}

/** The pods at the given list positions. */
function podsAt(state: SyncState, indexes: readonly number[]): Pod[] {
  return indexes.map((i) => state.pods[i]);
}
