// CloneSet status (docs/reference/cloneset.md §13): the counters computed from the pods listed
// at the start of the reconcile, the revision names, and the write rule.
import type { CloneSet, CloneSetCondition, CloneSetStatus } from '@kruise-ts/api';
import { labelSelectorAsString } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { computePodFacts, type PodFacts } from './facts';
import { resolvePartition } from './params';

/** What the status needs beyond the CloneSet and its pods. */
export interface StatusContext {
  updateRevision: string;
  /** The currentRevision of §12 (before promotion). */
  currentRevision: string;
  collisionCount?: number;
  nowMs: number;
  /** Conditions added in this reconcile (FailedScale / FailedUpdate). */
  conditions?: CloneSetCondition[];
  /** The fact table of `pods` when the caller has it (the reconcile does); otherwise computed here. */
  facts?: PodFacts;
}

/**
 * The status of docs/reference/cloneset.md §13, from the active owned pods.
 *
 * - `readyReplicas`: `updateReady(pod, 0)`, lifecycle state ignored (quirk 5);
 * - `availableReplicas`: `available(pod, minReadySeconds)` (lifecycle `""`/Normal required);
 * - `updated*`: pods that `hashEquals` the updateRevision;
 * - `expectedUpdatedReplicas = R - partition` (0 when the partition is invalid);
 * - `currentRevision` is promoted to the updateRevision when every pod is updated and the pod
 *   count equals `spec.replicas`, readiness not required (quirk 6).
 *
 * Example: R=3, partition 10 (clamped to 3), pods labelled `abc12` (Normal, ready),
 * `sample-abc12` (Updating, ready) and `sample-old99` (Normal, ready), updateRevision
 * `sample-abc12`: replicas 3, ready 3, available 2, updated 2, updatedReady 2,
 * updatedAvailable 1, expectedUpdated 0, currentRevision not promoted.
 */
export function calculateStatus(
  cloneSet: CloneSet,
  pods: readonly Pod[],
  ctx: StatusContext,
): CloneSetStatus {
  const minReadySeconds = cloneSet.spec?.minReadySeconds ?? 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  let updatedReady = 0;
  let updatedAvailable = 0;
  const facts =
    ctx.facts ??
    computePodFacts(pods, {
      updateRevision: ctx.updateRevision,
      podsToDelete: new Set(), // the status does not read specified delete
      minReadySeconds,
      nowMs: ctx.nowMs,
    });
  for (let i = 0; i < facts.length; i++) {
    const isUpdated = facts.updated(i);
    const isReady = facts.updateReady(i);
    const isAvailable = facts.available(i);
    if (isReady) ready++;
    if (isAvailable) available++;
    if (isUpdated) {
      updated++;
      if (isReady) updatedReady++;
      if (isAvailable) updatedAvailable++;
    }
  }
  const specReplicas = cloneSet.spec?.replicas;
  const partition = resolvePartition(cloneSet.spec?.updateStrategy?.partition, specReplicas);
  const expectedUpdatedReplicas = partition.error === undefined ? (specReplicas ?? 1) - partition.value : 0;
  let currentRevision = ctx.currentRevision;
  if (updated === pods.length && pods.length === specReplicas) currentRevision = ctx.updateRevision;
  const status: CloneSetStatus = {
    observedGeneration: cloneSet.metadata?.generation ?? 0,
    replicas: pods.length,
    readyReplicas: ready,
    availableReplicas: available,
    updatedReplicas: updated,
    updatedReadyReplicas: updatedReady,
    updatedAvailableReplicas: updatedAvailable,
    expectedUpdatedReplicas,
    updateRevision: ctx.updateRevision,
    currentRevision,
    labelSelector: selectorString(cloneSet),
  };
  if (ctx.collisionCount !== undefined) status.collisionCount = ctx.collisionCount;
  if (ctx.conditions && ctx.conditions.length > 0) status.conditions = ctx.conditions;
  return status;
}

/** `status.labelSelector` (§13): the canonical selector string, `""` when it cannot be rendered. */
function selectorString(cloneSet: CloneSet): string {
  try {
    return cloneSet.spec?.selector ? labelSelectorAsString(cloneSet.spec.selector) : '';
  } catch {
    return '';
  }
}

/**
 * The write rule of §13: write only when a tracked field differs — observedGeneration (only
 * when the new one is greater), the six counters, expectedUpdatedReplicas, updateRevision,
 * currentRevision and labelSelector. Conditions alone never cause a write.
 */
export function statusNeedsWrite(old: CloneSetStatus | undefined, next: CloneSetStatus): boolean {
  const o: Partial<CloneSetStatus> = old ?? {};
  if ((next.observedGeneration ?? 0) > (o.observedGeneration ?? 0)) return true;
  return (
    (o.replicas ?? 0) !== next.replicas ||
    (o.readyReplicas ?? 0) !== next.readyReplicas ||
    (o.availableReplicas ?? 0) !== next.availableReplicas ||
    (o.updatedReadyReplicas ?? 0) !== next.updatedReadyReplicas ||
    (o.updatedReplicas ?? 0) !== next.updatedReplicas ||
    (o.updatedAvailableReplicas ?? 0) !== (next.updatedAvailableReplicas ?? 0) ||
    (o.expectedUpdatedReplicas ?? 0) !== (next.expectedUpdatedReplicas ?? 0) ||
    (o.updateRevision ?? '') !== (next.updateRevision ?? '') ||
    (o.currentRevision ?? '') !== (next.currentRevision ?? '') ||
    (o.labelSelector ?? '') !== (next.labelSelector ?? '')
  );
}
