// The Scale step (docs/reference/cloneset.md §1.1): PreparingDelete cancellation, diffs with the
// Scale predicate, creation, PreparingDelete and specified deletes, then scale-in.
import { LifecycleStates } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { diffsFromCounts } from './diffs';
import { classifyFacts } from './facts';
import { podLifecycleState } from './predicates';
import { choosePodsToDelete, deletePods, filterByDeleteReadyLimit, managePreparingDelete } from './scaleDown';
import { createPods } from './scaleUp';
import { emitEvent, type SyncState } from './sync';
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
 * The diffs of §6 over `state.pods`: with the Scale predicate (`preparingUpdateAsUpdate` =
 * the PreparingUpdateAsUpdate gate) or, with `false`, the Update path's hash equality.
 */
export function diffsFor(state: SyncState, preparingUpdateAsUpdate: boolean): CloneSetDiffs {
  const c = classifyFacts(state.facts, preparingUpdateAsUpdate);
  const updateName = state.updateRevision.metadata?.name ?? '';
  const currentName = state.currentRevision.metadata?.name ?? '';
  return diffsFromCounts(state.params, c, state.pods.length, {
    rollbackAllowed: state.gates.CloneSetPartitionRollback && updateName !== currentName,
    excludePreparingDelete: state.excludePreparingDelete,
  });
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
  const specified: Pod[] = [];
  const preparingDelete: Pod[] = [];
  const names = new Set<string>();
  const PREPARING_DELETE = LifecycleStates.PreparingDelete; // read once, not per pod
  for (let i = 0; i < state.pods.length; i++) {
    const pod = state.pods[i];
    const sd = state.facts.specified(i);
    const pd = state.facts.state(i) === PREPARING_DELETE;
    if (sd) specified.push(pod);
    if (pd) preparingDelete.push(pod);
    if (sd || pd) names.add(pod.metadata?.name ?? '');
  }
  const numToDelete = names.size;
  if (managePreparingDelete(state, preparingDelete, numToDelete)) return { modified: true };

  const puau = state.gates.PreparingUpdateAsUpdate;
  const diffs = diffsFor(state, puau);

  if (diffs.scaleUpNum > 0) {
    if (diffs.scaleUpNum > diffs.scaleUpLimit) {
      emitEvent(
        state,
        'Normal',
        'ScaleUpLimited',
        `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${diffs.scaleUpLimit}`,
      );
    }
    const created = createPods(state, diffs.scaleUpLimit, diffs.scaleUpNumOldRevision);
    return { modified: created > 0, diffs };
  }

  if (preparingDelete.length > 0 && deletePods(state, preparingDelete, Reasons.PreparingDelete)) {
    return { modified: true, diffs };
  }

  const specifiedNotPD = specified.filter((p) => podLifecycleState(p) !== LifecycleStates.PreparingDelete);
  if (specifiedNotPD.length > 0) {
    const deletable = filterByDeleteReadyLimit(specifiedNotPD, diffs.deleteReadyLimit);
    if (deletable.length > 0 && deletePods(state, deletable, Reasons.SpecifiedDelete))
      return { modified: true, diffs };
  }

  if (diffs.scaleDownNum > 0 && numToDelete === 0) {
    const isUpdated = (i: number) =>
      state.facts.updated(i) || (puau && state.facts.state(i) === LifecycleStates.PreparingUpdate);
    const chosen = choosePodsToDelete(state, isUpdated, diffs.scaleDownNum, diffs.scaleDownNumOldRevision);
    const deletable = filterByDeleteReadyLimit(chosen, diffs.deleteReadyLimit);
    if (deletable.length > 0 && deletePods(state, deletable, Reasons.ScaleDown))
      return { modified: true, diffs };
  }
  return { modified: false, diffs };
}
