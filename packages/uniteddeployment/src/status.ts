// UnitedDeployment status (docs/reference/uniteddeployment.md §10): the counts over discovered subsets,
// subsetReplicas, revisions, currentPartitions, conditions, labelSelector, and the write-skip rule.
import { jsonEqual, labelSelectorAsString, toRFC3339 } from '@kruise-ts/core';
import type { SubsetStatusEntry } from './adaptive';
import type { ObservedSubset } from './observe';
import type { UDCondition, UDStatus, UnitedDeploymentObject } from './types';

/** UD condition types (§7.2, §7.3, §10). */
export const CONDITION_SUBSET_PROVISIONED = 'SubsetProvisioned';
export const CONDITION_SUBSET_UPDATED = 'SubsetUpdated';
export const CONDITION_SUBSET_FAILURE = 'SubsetFailure';

/**
 * Sets a UD condition (§10): same type with the same status and reason → unchanged (the message is
 * not updated); same status, other reason → replaced but the old lastTransitionTime is kept;
 * otherwise replaced with `lastTransitionTime = now`. Returns a new list.
 */
export function setUDCondition(
  conditions: readonly UDCondition[] | undefined,
  cond: Omit<UDCondition, 'lastTransitionTime'>,
  now: string | Date,
): UDCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === cond.type);
  const old = i >= 0 ? list[i] : undefined;
  if (old && old.status === cond.status && (old.reason ?? '') === (cond.reason ?? '')) return list;
  const next: UDCondition = { type: cond.type, status: cond.status };
  if (cond.reason) next.reason = cond.reason;
  if (cond.message) next.message = cond.message;
  next.lastTransitionTime = old && old.status === cond.status ? old.lastTransitionTime : toRFC3339(now);
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}

/** Removes a UD condition by type. */
export function removeUDCondition(
  conditions: readonly UDCondition[] | undefined,
  type: string,
): UDCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** §2 step 3: one `{name}` entry per topology subset, appended, never removed (Q6). */
export function ensureSubsetStatuses(ud: UnitedDeploymentObject): SubsetStatusEntry[] {
  const entries = [...(ud.status?.subsetStatuses ?? [])];
  const seen = new Set(entries.map((e) => e.name));
  for (const s of ud.spec.topology?.subsets ?? []) {
    if (seen.has(s.name)) continue;
    seen.add(s.name);
    entries.push({ name: s.name });
  }
  return entries;
}

/** Inputs of {@link calculateStatus}. */
export interface StatusInputs {
  /** The old status with subsetStatuses initialised and updated by the adaptive step. */
  base: UDStatus;
  /** Every discovered subset, including ones deleted in this reconcile (Q11). */
  subsets: readonly ObservedSubset[];
  nextReplicas: Record<string, number>;
  nextPartitions: Record<string, number>;
  currentRevision: string;
  expectedRevision: string;
  conditions: UDCondition[];
}

/**
 * §10: sums of workload `status.replicas`/`readyReplicas` and of the pod-based updated counts over
 * every discovered subset; `currentRevision` initialised to the current revision and moved to the
 * updated revision once `updatedReadyReplicas ≥ replicas`; `updateStatus`, `subsetReplicas`,
 * `labelSelector`. Example: subsets with 2+3 replicas, 5 updated-ready pods, updated ≠ current →
 * currentRevision becomes the updated revision.
 */
export function calculateStatus(ud: UnitedDeploymentObject, input: StatusInputs): UDStatus {
  const status: UDStatus = { ...input.base };
  let replicas = 0;
  let ready = 0;
  let updated = 0;
  let updatedReady = 0;
  for (const s of input.subsets) {
    replicas += s.status.replicas;
    ready += s.status.readyReplicas;
    updated += s.status.updatedReplicas;
    updatedReady += s.status.updatedReadyReplicas;
  }
  status.replicas = replicas;
  status.readyReplicas = ready;
  status.updatedReplicas = updated;
  status.updatedReadyReplicas = updatedReady;
  status.subsetReplicas = { ...input.nextReplicas };
  if (!status.currentRevision) status.currentRevision = input.currentRevision;
  status.updateStatus = {
    ...(status.updateStatus ?? {}),
    updatedRevision: input.expectedRevision,
    currentPartitions: { ...input.nextPartitions },
  };
  if (input.expectedRevision !== status.currentRevision && updatedReady >= replicas) {
    status.currentRevision = input.expectedRevision;
  }
  status.conditions = input.conditions;
  status.labelSelector = labelSelectorString(ud.spec.selector);
  return status;
}

/**
 * The write-skip rule (§10): no write when the counts, currentRevision, collisionCount and
 * labelSelector are equal, `generation == observedGeneration`, and subsetReplicas, updateStatus,
 * conditions and subsetStatuses are deep-equal (core's `jsonEqual`: key order ignored, a member
 * holding `undefined` counts as absent).
 */
export function statusUnchanged(ud: UnitedDeploymentObject, old: UDStatus, next: UDStatus): boolean {
  return (
    (old.replicas ?? 0) === (next.replicas ?? 0) &&
    (old.readyReplicas ?? 0) === (next.readyReplicas ?? 0) &&
    (old.updatedReplicas ?? 0) === (next.updatedReplicas ?? 0) &&
    (old.updatedReadyReplicas ?? 0) === (next.updatedReadyReplicas ?? 0) &&
    (old.currentRevision ?? '') === (next.currentRevision ?? '') &&
    (old.collisionCount ?? 0) === (next.collisionCount ?? 0) &&
    (old.labelSelector ?? '') === (next.labelSelector ?? '') &&
    (ud.metadata.generation ?? 0) === (old.observedGeneration ?? 0) &&
    jsonEqual(old.subsetReplicas ?? {}, next.subsetReplicas ?? {}) &&
    jsonEqual(old.updateStatus ?? null, next.updateStatus ?? null) &&
    jsonEqual(old.conditions ?? [], next.conditions ?? []) &&
    jsonEqual(old.subsetStatuses ?? [], next.subsetStatuses ?? [])
  );
}

/**
 * `status.labelSelector`: the selector's string form (e.g. `name=foo`); `""` for a selector that
 * does not parse (validation rejects those).
 */
export function labelSelectorString(selector: UnitedDeploymentObject['spec']['selector']): string {
  try {
    return labelSelectorAsString(selector);
  } catch {
    return '';
  }
}
