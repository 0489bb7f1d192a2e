// The rolling update's candidates (docs/reference/statefulset.md R9.1–R9.5, `sortPodsToUpdate`),
// written once over a slot layout (slots.ts): the round's layout holds the slots it built, and the
// missing ordinals it only counted never act in the update walk (they are not created yet) but
// hold places in the list and so decide where it is cut to `replicas − partition`: they are
// counted in, by number. A whole slot array (R3.7, the upstream function's input) is the layout
// in which every slot is built (`sortPodsToUpdate`).
import type { RollingUpdateStatefulSetStrategy } from '@kruise-ts/api';
import {
  type FeatureGates,
  hasPriorityTerms,
  isPodUpdate,
  sortUpdateIndexesByPriority,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { OrdinalSet } from './ordinalSet';
import { desiredUpTo } from './ordinals';
import { isTerminating } from './predicates';
import type { Slots } from './revisionChoice';
import { countedAbove, countedSlots, desiredCount, type Slot, type SlotLayout } from './slots';

/** Group A of R9.3: terminating or already updated (R9.4); group B: the rest. */
function inGroupA(pod: Pod, updateRevision: string, featureGates?: Partial<FeatureGates>): boolean {
  return isTerminating(pod) || isPodUpdate(pod, updateRevision, featureGates);
}

/**
 * R9.1–R9.5 over a slot layout: the positions in `layout.slots` a rolling update visits, in order.
 * Equal to `sortPodsToUpdate` over the full slot array of R3.7 with the positions mapped to slots,
 * the counted ordinals left out:
 *
 * - ordered: a slot at index ≥ `partition` is a candidate when fewer than `replicas − partition`
 *   desired ordinals lie above it (each one is a non-empty slot of the full array);
 * - unordered: group A (highest index first) then group B (by priority, ties to the higher index,
 *   or highest index first without terms), cut to `replicas − partition`; a counted ordinal is in
 *   the group its revision (R6.9 rule 4) puts it in, in group A above every built slot of lower
 *   index. In group B a counted ordinal is a current-revision stand-in, and those exist only while
 *   fewer than `partition` slots are not updated: group B then holds at most `partition` entries
 *   and the cut, the last `partition` entries of the list, removes all of it. Placing the counted
 *   ones first in group B is therefore exact, with no priority to compare.
 *
 * Example: replicas 1,000, partition 0, three observed pods at ordinals 0–2, a burst of 1 →
 * slots 0–2 (pods) and 3 (a stand-in), 996 counted ordinals above them: ordered, all four slots
 * are within the first 1,000 of the list → positions `[3, 2, 1, 0]`.
 */
export function orderSlotsToUpdate(
  rollingUpdate: RollingUpdateStatefulSetStrategy | null | undefined,
  updateRevision: string,
  totalReplicas: number,
  layout: SlotLayout,
  featureGates?: Partial<FeatureGates>,
): number[] {
  const partition = rollingUpdate?.partition ?? 0;
  const maxUpdate = totalReplicas - partition;
  if (maxUpdate <= 0) return [];
  const slots = layout.slots;
  const desired = desiredCount(layout.range);
  const out: number[] = [];
  if (!rollingUpdate?.unorderedUpdate) {
    for (let k = slots.length - 1; k >= 0; k--) {
      if (slots[k].index < partition) break;
      // The slots above this one in the full array: every desired ordinal above it.
      if (desired - desiredUpTo(layout.range, slots[k].ordinal) >= maxUpdate) break;
      out.push(k);
    }
    return out;
  }
  const builtA: number[] = [];
  const builtB: number[] = [];
  for (let k = slots.length - 1; k >= 0; k--)
    (inGroupA(slots[k].pod, updateRevision, featureGates) ? builtA : builtB).push(k);
  // Which group each revision of the counted ordinals falls in (none are counted: no matter).
  const counted = layout.counted;
  const currentInA = counted ? inGroupA(counted.current, updateRevision, featureGates) : false;
  const updateInA = counted ? inGroupA(counted.update, updateRevision, featureGates) : true;
  const countedA = (c: { current: number; update: number }) =>
    (currentInA ? c.current : 0) + (updateInA ? c.update : 0);
  builtA.forEach((k, j) => {
    if (j + countedA(countedAbove(layout, slots[k].ordinal)) < maxUpdate) out.push(k);
  });
  const strategy = rollingUpdate.unorderedUpdate.priorityStrategy;
  const sortedB = hasPriorityTerms(strategy)
    ? sortUpdateIndexesByPriority(
        slots.map((s) => s.pod),
        builtB,
        strategy,
      )
    : builtB;
  // All of group A, then the counted ordinals of group B (see above), then the built ones.
  const beforeB = builtA.length + countedSlots(layout);
  sortedB.forEach((k, j) => {
    if (beforeB + j < maxUpdate) out.push(k);
  });
  return out;
}

/**
 * R9.1–R9.5 `sortPodsToUpdate`: the slot indexes a rolling update visits, in order, over a whole
 * slot array read by index. The array is the layout of the range `[0, length)` whose empty slots
 * are reserved and whose other slots are all built, so the list is `orderSlotsToUpdate`'s.
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
  const built: Slot[] = [];
  const empty: number[] = [];
  for (let i = 0; i < slots.length; i++) {
    const pod = slots[i];
    if (pod) built.push({ index: i, ordinal: i, pod, isNew: false });
    else empty.push(i);
  }
  const layout: SlotLayout = {
    range: { start: 0, end: slots.length, reserved: OrdinalSet.of(empty) },
    slots: built,
    condemned: [],
    observedOrdinals: built.map((s) => s.ordinal),
    missing: 0,
    built: 0,
    currentMissing: 0,
  };
  return orderSlotsToUpdate(rollingUpdate, updateRevision, totalReplicas, layout, featureGates).map(
    (k) => built[k].index,
  );
}
