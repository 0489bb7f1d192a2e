// The revision a new pod gets (docs/reference/statefulset.md R6.9, `isCurrentRevisionNeeded`), read
// from the slot array by index exactly as given (it is not necessarily laid out by ordinal), and
// exact revision equality (§15). Which pods a rolling update visits (§9) is updateOrder.ts.
import type { StatefulSet } from '@kruise-ts/api';
import { type FeatureGates, getPodRevision, isPodUpdate } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { ordinalOf } from './ordinals';

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

/** Exact revision equality used by status and "already updated" skipping (§15). */
export function isAtRevision(pod: Pod | null | undefined, revision: string): boolean {
  return getPodRevision(pod) === revision;
}
