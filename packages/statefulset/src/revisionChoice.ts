// Revision choices made over the slot array (docs/reference/statefulset.md R6.9, §9): which revision a
// new pod gets (`isCurrentRevisionNeeded`) and which pods a rolling update visits, in which
// order (`sortPodsToUpdate`, ordered and unordered with priority). Both read the slot array by
// index exactly as given (it is not necessarily laid out by ordinal).
import type { RollingUpdateStatefulSetStrategy, StatefulSet } from '@kruise-ts/api';
import { type FeatureGates, getPodRevision, isPodUpdate, sortUpdateIndexesByPriority } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { ordinalOf } from './ordinals';
import { isTerminating } from './predicates';

/** A slot array (R3.7): index `i` stands for ordinal `start + i`; `null` is an empty (reserved) slot. */
export type Slots = ReadonlyArray<Pod | null | undefined>;

/** Inputs of {@link isCurrentRevisionNeeded}. */
export interface RevisionNeedContext {
  /** Ordinal of the new pod. */
  ordinal: number;
  /** First ordinal of the range (R3.4). */
  start: number;
  /** `status.currentReplicas` as stored at the start of the round (rule 2). */
  statusCurrentReplicas: number;
  updateRevision: string;
  featureGates?: Partial<FeatureGates>;
}

/**
 * R6.9 `isCurrentRevisionNeeded`: is the new pod at `ordinal` built from the current revision?
 *
 * 1. `updateStrategy.type` not `RollingUpdate` (OnDelete) → no (update revision).
 * 2. no `rollingUpdate` → yes iff `ordinal < start + status.currentReplicas`.
 * 3. ordered: `before` = non-empty slots in `slots[0 .. k)` (`k = ordinal − start`); yes iff
 *    `before + 1 ≤ partition` — the first `partition` non-reserved ordinals stay current.
 * 4. unordered: `notUpdated` = non-empty slots other than the one of this ordinal whose pod is
 *    not updated (R9.4, short-hash compare); yes iff `notUpdated < partition`.
 *
 * Worked example (upstream "ReservedId 1, partition 2"): slots `[∅, ∅, ss-2, ss-3]`, reserved
 * {1}, ordinal 0 → before = 0, 0 + 1 ≤ 2 → current.
 */
export function isCurrentRevisionNeeded(set: StatefulSet, slots: Slots, ctx: RevisionNeedContext): boolean {
  const k = ctx.ordinal - ctx.start;
  let before = 0;
  for (let i = 0; i < k && i < slots.length; i++) if (slots[i]) before++;
  let notUpdated = 0;
  const unordered = !!set.spec.updateStrategy?.rollingUpdate?.unorderedUpdate;
  if (unordered) {
    for (const pod of slots) {
      if (!pod || ordinalOf(pod.metadata?.name) === ctx.ordinal) continue;
      if (!isPodUpdate(pod, ctx.updateRevision, ctx.featureGates)) notUpdated++;
    }
  }
  return currentRevisionNeededFromCounts(set, ctx, before, notUpdated);
}

/**
 * R6.9 with the two slot counts already known: `before` (non-empty slots below the new pod's
 * index) and `notUpdated` (other non-empty slots not updated per R9.4). The round keeps both as
 * running counts while it fills the empty slots in ascending order, so scaling up N pods stays
 * linear.
 */
export function currentRevisionNeededFromCounts(
  set: StatefulSet,
  ctx: Pick<RevisionNeedContext, 'ordinal' | 'start' | 'statusCurrentReplicas'>,
  before: number,
  notUpdated: number,
): boolean {
  const us = set.spec.updateStrategy;
  if ((us?.type ?? '') !== 'RollingUpdate') return false; // rule 1
  const ru = us?.rollingUpdate;
  if (!ru) return ctx.ordinal < ctx.start + ctx.statusCurrentReplicas; // rule 2
  const partition = ru.partition ?? 0;
  if (!ru.unorderedUpdate) return before + 1 <= partition; // rule 3
  return notUpdated < partition; // rule 4
}

/**
 * R9.1–R9.5 `sortPodsToUpdate`: the slot indexes a rolling update visits, in order.
 *
 * Ordered (no `unorderedUpdate`): from the highest index down to `partition` (inclusive),
 * skipping empty slots, at most `replicas − partition` entries. Unordered: all non-empty slots
 * from the highest index down, split into group A (terminating, or updated per R9.4) and group
 * B (the rest, priority-sorted when a strategy is set, ties → higher index first); A then B,
 * cut to `replicas − partition`.
 *
 * Examples (upstream `TestSortPodsToUpdate`): 3 pods, no partition → `[2, 1, 0]`; replicas 10,
 * partition 6, slots `[r0,r0,r0,∅,r0,r0,r0,r1,r1,r0,∅,r0]` → `[8, 7, 11, 9]`.
 */
export function sortPodsToUpdate(
  rollingUpdate: RollingUpdateStatefulSetStrategy | null | undefined,
  updateRevision: string,
  totalReplicas: number,
  slots: Slots,
  featureGates?: Partial<FeatureGates>,
): number[] {
  const partition = rollingUpdate?.partition ?? 0;
  const maxUpdate = totalReplicas - partition;
  if (maxUpdate <= 0) return [];
  const out: number[] = [];
  if (!rollingUpdate?.unorderedUpdate) {
    for (let i = slots.length - 1; i >= partition && out.length < maxUpdate; i--) if (slots[i]) out.push(i);
    return out;
  }
  const groupA: number[] = [];
  const groupB: number[] = [];
  for (let i = slots.length - 1; i >= 0; i--) {
    const pod = slots[i];
    if (!pod) continue;
    if (isTerminating(pod) || isPodUpdate(pod, updateRevision, featureGates)) groupA.push(i);
    else groupB.push(i);
  }
  const strategy = rollingUpdate.unorderedUpdate.priorityStrategy;
  const sortedB = strategy
    ? sortUpdateIndexesByPriority(slots as (Pod | null | undefined)[], groupB, strategy)
    : groupB;
  return [...groupA, ...sortedB].slice(0, maxUpdate);
}

/** Exact revision equality used by status and "already updated" skipping (§15). */
export function isAtRevision(pod: Pod | null | undefined, revision: string): boolean {
  return getPodRevision(pod) === revision;
}
