// `calculateDiffs`: the rollout math of docs/reference/cloneset.md §6 (rules D1–D10), each rule
// as a named helper so tests and readers can find it by the spec's words.

import type { CloneSet } from '@kruise-ts/api';
import { checkStructure, LifecycleStates } from '@kruise-ts/api';
import { type InputShape, KruiseError, resolveFeatureGates, screenObservedInput } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { computePodFacts, type PodFacts } from './facts';
import { type ResolvedParams, resolveParams } from './params';
import { podsToDeleteOf, scalingExcludesPreparingDelete, toMillis } from './predicates';
import type { CalculateDiffsContext, CloneSetDiffs } from './types';

/** The counts of rule D2. */
export interface PodClassification {
  newCount: number;
  newActive: number;
  oldCount: number;
  oldActive: number;
  newUnavail: number;
  oldUnavail: number;
  newToDelete: number;
  oldToDelete: number;
  newPreDel: number;
  oldPreDel: number;
}

/** All-zero diffs. */
export function emptyDiffs(): CloneSetDiffs {
  return {
    scaleUpNum: 0,
    scaleUpNumOldRevision: 0,
    scaleDownNum: 0,
    scaleDownNumOldRevision: 0,
    scaleUpLimit: 0,
    deleteReadyLimit: 0,
    useSurge: 0,
    useSurgeOldRevision: 0,
    updateNum: 0,
    updateMaxUnavailable: 0,
  };
}

/**
 * Rule D2 over the fact table: split the pods into new and old with `isNew` (by list
 * position); within each group a PreparingDelete pod is *preDeleting*, any other is *active*;
 * an active pod is *toDelete* if `isSpecified` (specified delete, §4.4: `facts.specified`),
 * otherwise *unavailable* if not `available(pod, minReadySeconds)`. A pod that is both toDelete
 * and unavailable counts only as toDelete.
 *
 * `isNew` is the predicate of the caller's path: the Update path's `hashEquals` (§4.3,
 * `facts.updated`), or the Scale path's, where a PreparingUpdate pod also counts as new under the
 * PreparingUpdateAsUpdate gate. Example: three pods on the update revision, one of them
 * PreparingDelete and one not ready → newCount 3, newPreDel 1, newActive 2, newUnavail 1.
 */
export function classifyFacts(
  facts: PodFacts,
  isNew: (index: number) => boolean,
  isSpecified: (index: number) => boolean,
): PodClassification {
  const c: PodClassification = {
    newCount: 0,
    newActive: 0,
    oldCount: 0,
    oldActive: 0,
    newUnavail: 0,
    oldUnavail: 0,
    newToDelete: 0,
    oldToDelete: 0,
    newPreDel: 0,
    oldPreDel: 0,
  };
  for (let i = 0; i < facts.length; i++) {
    const isNewPod = isNew(i);
    if (isNewPod) c.newCount++;
    else c.oldCount++;
    if (facts.state(i) === LifecycleStates.PreparingDelete) {
      if (isNewPod) c.newPreDel++;
      else c.oldPreDel++;
      continue;
    }
    if (isNewPod) c.newActive++;
    else c.oldActive++;
    if (isSpecified(i)) {
      if (isNewPod) c.newToDelete++;
      else c.oldToDelete++;
    } else if (!facts.available(i)) {
      if (isNewPod) c.newUnavail++;
      else c.oldUnavail++;
    }
  }
  return c;
}

/**
 * Rule D2 (`classifyFacts`) for a list of pods and per-pod predicates: the fact table of
 * the pods, classified with `isNew(pod)` and `isSpecifiedDelete(pod)`.
 */
export function classifyPods(
  pods: readonly Pod[],
  isNew: (pod: Pod) => boolean,
  isSpecifiedDelete: (pod: Pod) => boolean,
  minReadySeconds: number,
  nowMs: number,
): PodClassification {
  const facts = computePodFacts(pods, {
    updateRevision: '',
    podsToDelete: new Set(),
    minReadySeconds,
    nowMs,
  });
  return classifyFacts(
    facts,
    (i) => isNew(pods[i]),
    (i) => isSpecifiedDelete(pods[i]),
  );
}

/** The inputs of rule D5 ({@link surgeRule}). */
export interface SurgeInput {
  /** maxSurge of D1. */
  maxSurge: number;
  /** maxUnavailable of D1. */
  maxUnavailable: number;
  /** PreparingDelete plus unavailable pods, both revisions (D3). */
  totalUnavailable: number;
  /** Active specified-delete pods on the update revision and on older ones (D2). */
  newToDelete: number;
  oldToDelete: number;
  /** The update diffs of D3 after D4. */
  updateOldDiff: number;
  updateNewDiff: number;
}

/**
 * Rule D5: the surge to use this round. `scaleSurge` covers specified deletes that would break
 * the unavailability budget; `updateSurge` keeps capacity while the two update diffs have
 * opposite signs. The larger wins, capped at maxSurge.
 *
 * Example (§6.1 step 1): maxSurge 1, updateOldDiff 2, updateNewDiff -2, no deletes:
 * updateSurge = 2 (new side, so not old) → useSurge = min(1, 2) = 1, useSurgeOldRevision 0.
 */
export function surgeRule(input: SurgeInput): { useSurge: number; useSurgeOldRevision: number } {
  const {
    maxSurge,
    maxUnavailable,
    totalUnavailable,
    newToDelete,
    oldToDelete,
    updateOldDiff,
    updateNewDiff,
  } = input;
  if (maxSurge <= 0) return { useSurge: 0, useSurgeOldRevision: 0 };
  let scaleSurge = 0;
  let scaleOldSurge = 0;
  const toDel = newToDelete + oldToDelete;
  if (toDel > 0) {
    scaleSurge = Math.min(Math.max(totalUnavailable + toDel - maxUnavailable, 0), toDel);
    scaleOldSurge = Math.max(scaleSurge - newToDelete, 0);
  }
  let updateSurge = 0;
  let updateOldSurge = 0;
  if ((updateOldDiff > 0 && updateNewDiff < 0) || (updateOldDiff < 0 && updateNewDiff > 0)) {
    if (Math.abs(updateOldDiff) <= Math.abs(updateNewDiff)) {
      updateSurge = Math.abs(updateOldDiff);
      if (updateOldDiff < 0) updateOldSurge = updateSurge;
    } else {
      updateSurge = Math.abs(updateNewDiff);
      if (updateNewDiff > 0) updateOldSurge = updateSurge;
    }
  }
  if (scaleSurge >= updateSurge) {
    const useSurge = Math.min(maxSurge, scaleSurge);
    return { useSurge, useSurgeOldRevision: Math.min(useSurge, scaleOldSurge) };
  }
  const useSurge = Math.min(maxSurge, updateSurge);
  return { useSurge, useSurgeOldRevision: Math.min(useSurge, updateOldSurge) };
}

/**
 * The pure math of §6 over counts already classified (rules D3–D9); `calculateDiffs` is this
 * plus the classification of D2.
 */
export function diffsFromCounts(
  params: ResolvedParams,
  c: PodClassification,
  podCount: number,
  opts: { rollbackAllowed: boolean; excludePreparingDelete: boolean },
): CloneSetDiffs {
  const { replicas: R, partition, maxUnavailable, scaleMaxUnavailable, maxSurge } = params;
  const N = podCount;
  const res = emptyDiffs();
  // D3
  let updateOldDiff = c.oldActive - partition;
  let updateNewDiff = c.newActive - (R - partition);
  const totalUnavailable = c.newPreDel + c.oldPreDel + c.newUnavail + c.oldUnavail;
  // D4: no rollback unless the gate allows it and the revisions differ
  if (!opts.rollbackAllowed) {
    updateOldDiff = Math.max(updateOldDiff, 0);
    updateNewDiff = Math.min(updateNewDiff, 0);
  }
  // D5
  const surge = surgeRule({
    maxSurge,
    maxUnavailable,
    totalUnavailable,
    newToDelete: c.newToDelete,
    oldToDelete: c.oldToDelete,
    updateOldDiff,
    updateNewDiff,
  });
  res.useSurge = surge.useSurge;
  res.useSurgeOldRevision = surge.useSurgeOldRevision;
  // D6 (with D10)
  let curTotal = N;
  let curOld = c.oldCount;
  if (opts.excludePreparingDelete) {
    curTotal -= c.newPreDel + c.oldPreDel;
    curOld -= c.oldPreDel;
  }
  const expTotal = R + res.useSurge;
  const expOld = partition + res.useSurgeOldRevision;
  // D7
  if (expTotal - curTotal > 0) {
    res.scaleUpNum = expTotal - curTotal;
    res.scaleUpNumOldRevision = Math.max(expOld - curOld, 0);
    res.scaleUpLimit = Math.min(res.scaleUpNum, Math.max(scaleMaxUnavailable - totalUnavailable, 0));
  }
  // D8 (deleteReadyLimit uses the raw N even under D10)
  const toDelete = c.oldToDelete + c.newToDelete;
  if (curTotal - toDelete - expTotal > 0) {
    res.scaleDownNum = curTotal - toDelete - expTotal;
    res.scaleDownNumOldRevision = Math.max(curOld - c.oldToDelete - expOld, 0);
  }
  if (toDelete > 0 || res.scaleDownNum > 0) {
    res.deleteReadyLimit = Math.max(maxUnavailable + (N - R) - totalUnavailable, 0);
  }
  // D9
  res.updateNum = Math.abs(updateOldDiff) <= Math.abs(updateNewDiff) ? updateOldDiff : 0 - updateNewDiff;
  if (res.updateNum !== 0) res.updateMaxUnavailable = updateMaxUnavailable(maxUnavailable, N, R);
  return res;
}

/**
 * The update limiter's budget of unavailable pods (docs/reference/cloneset.md §6, rule D9).
 *
 * The budget counts surge pods as head-room: with 10 replicas, maxUnavailable 2 and
 * 3 surge pods already created, 13 pods exist, so up to 2 + (13 - 10) = 5 may be
 * unavailable at once. With fewer pods than replicas it can be negative (§6.3: 0 + 3 - 5 = -2).
 */
export function updateMaxUnavailable(maxUnavailable: number, podCount: number, replicas: number): number {
  return maxUnavailable + podCount - replicas;
}

/**
 * `calculateDiffs` (docs/reference/cloneset.md §6): how many pods to create, delete and update, and
 * the budgets that bound them, for the given pods (the active owned pods).
 *
 * Worked example (§6.1 step 1): R=5, partition 3, maxUnavailable 1, maxSurge 1, five old
 * ready pods. D3: updateOldDiff = 5 - 3 = 2, updateNewDiff = 0 - (5 - 3) = -2. D5: the diffs
 * have opposite signs, updateSurge = 2 → useSurge = min(1, 2) = 1, all new. D6: expTotal = 6,
 * curTotal = 5. D7: scaleUpNum 1, scaleUpNumOldRevision = max(3 + 0 - 5, 0) = 0 (a new pod).
 * D9: updateNum = 2, updateMaxUnavailable = 1 + 5 - 5 = 1.
 *
 * `ctx.isPodUpdate` defaults to `hashEquals` (the Update path). Feature gates: D4 applies unless
 * `CloneSetPartitionRollback` is on and the two revisions differ. D10 is the
 * `scalingExcludePreparingDelete` flag or the CloneSet label.
 */
export function calculateDiffs(
  cloneSet: CloneSet,
  pods: readonly Pod[],
  ctx: CalculateDiffsContext,
): CloneSetDiffs {
  // The boundary (docs/reference/core.md §10.1): a CloneSet whose shape is wrong, or whose
  // int-or-percent fields do not parse, has nothing to roll out; a pod that does not fit a Pod is
  // not counted, as a reconcile skips it.
  if (checkStructure('CloneSet', cloneSet, { admission: true }).length > 0) return emptyDiffs();
  const screened = screenObservedInput({ pods }, DIFFS_SHAPE, ctx?.structureCache);
  if (screened.errors.length > 0) return emptyDiffs();
  try {
    return checkedDiffs(cloneSet, screened.input.pods, ctx ?? {});
  } catch (e) {
    if (e instanceof KruiseError) return emptyDiffs();
    throw e;
  }
}

const DIFFS_SHAPE: InputShape = { lists: { pods: 'Pod' }, required: ['pods'] };

/** {@link calculateDiffs} of a CloneSet and pods that fit their schemas. */
function checkedDiffs(cloneSet: CloneSet, pods: readonly Pod[], ctx: CalculateDiffsContext): CloneSetDiffs {
  const params = resolveParams(cloneSet);
  const gates = resolveFeatureGates(ctx.featureGates);
  const updateRevision = ctx.updateRevision;
  const facts = computePodFacts(pods, {
    updateRevision,
    podsToDelete: podsToDeleteOf(cloneSet),
    minReadySeconds: cloneSet.spec?.minReadySeconds ?? 0,
    nowMs: toMillis(ctx.now),
  });
  const isPodUpdate = ctx.isPodUpdate;
  const c = classifyFacts(
    facts,
    isPodUpdate ? (i) => isPodUpdate(pods[i], updateRevision) : (i) => facts.updated(i),
    (i) => facts.specified(i),
  );
  return diffsFromCounts(params, c, pods.length, {
    rollbackAllowed: gates.CloneSetPartitionRollback && ctx.updateRevision !== ctx.currentRevision,
    excludePreparingDelete: scalingExcludesPreparingDelete(cloneSet, ctx.scalingExcludePreparingDelete),
  });
}
