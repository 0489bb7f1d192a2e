// The slots of one round (docs/reference/statefulset.md R3.7, §5 step 2), built from what was
// observed: every observed pod in range, and a stand-in new pod (R6.9) for the lowest missing
// ordinals only — as many as the round can create, plus one. The other missing ordinals are
// counted, not built: the rules that read them (the unavailable set R8.4, the update order
// R9.1–R9.5) take them by number. A set of 2,147,483,647 replicas thus costs a round what its
// observed pods and its burst cost.
import { isPodUpdate } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { newPodStub } from './identity';
import { desiredUpTo, inRange, ordinalOf, type ReplicaRange } from './ordinals';
import { currentRevisionNeededFromCounts } from './revisionChoice';
import type { RoundState } from './round';

/** One slot the round works on: a desired ordinal with its observed pod or a stand-in. */
export interface Slot {
  /** `ordinal − start`, the index the dense slot array of R3.7 would give it. */
  index: number;
  ordinal: number;
  pod: Pod;
  /** A stand-in for a pod that does not exist yet (§5 step 2). */
  isNew: boolean;
}

/**
 * The slots of a round and what stands for the slots that were not built.
 *
 * Example: replicas 1,000, no pods, a burst of 2 → stand-ins for ordinals 0, 1 and 2 (`slots`),
 * `missing` 1,000, `built` 3: ordinals 3–999 are the 997 counted ones.
 */
export interface SlotLayout {
  range: ReplicaRange;
  /** Observed in-range pods and stand-ins, ascending by ordinal. */
  slots: Slot[];
  /** Observed pods with an ordinal ≥ 0 outside the range, highest ordinal first (R3.8). */
  condemned: Pod[];
  /** Ordinals of the observed in-range pods, ascending. */
  observedOrdinals: number[];
  /** Desired ordinals without an observed pod. */
  missing: number;
  /** How many of them got a stand-in: the lowest `built` missing ordinals. */
  built: number;
  /**
   * R6.9 rule 4 (unordered update): the missing ordinals below this rank (ascending) get the
   * current revision, the others the update revision.
   */
  currentMissing: number;
  /**
   * The stand-ins a counted ordinal would get, one per revision, named after the lowest counted
   * ordinal (absent when every missing ordinal has a stand-in). Their labels differ from the other
   * counted ones' only in the pod-name label.
   */
  counted?: { current: Pod; update: Pod };
}

/**
 * §5 step 2 without the dense array: slots for the observed in-range pods (two pods of one ordinal,
 * `web-1` and `web-01`: the later one in the list, as the array assignment of R3.7 keeps), the
 * condemned pods, and stand-ins for the lowest `maxNew` missing ordinals, each at the revision
 * R6.9 gives it while the slots are filled in ascending order.
 *
 * The work is linear in the pods, the stand-ins and the reserved intervals met on the way.
 */
export function layoutSlots(state: RoundState, maxNew: number): SlotLayout {
  const { set, range } = state;
  const currentName = state.currentRevision.metadata?.name ?? '';
  const updateName = state.updateRevision.metadata?.name ?? '';
  const byOrdinal = new Map<number, Pod>();
  const condemned: Pod[] = [];
  for (const p of state.pods) {
    const o = ordinalOf(p.metadata?.name);
    if (o < 0) continue;
    if (inRange(range, o)) byOrdinal.set(o, p);
    else condemned.push(p);
  }
  condemned.sort((a, b) => ordinalOf(b.metadata?.name) - ordinalOf(a.metadata?.name));
  const observedOrdinals = [...byOrdinal.keys()].sort((a, b) => a - b);
  const desired = desiredUpTo(range, range.end - 1);
  const missing = Math.max(0, desired - observedOrdinals.length);
  const built = Math.min(missing, Math.max(0, maxNew));

  const unordered = !!set.spec.updateStrategy?.rollingUpdate?.unorderedUpdate;
  let notUpdated = 0;
  if (unordered) {
    for (const o of observedOrdinals)
      if (!isPodUpdate(byOrdinal.get(o) as Pod, updateName, state.gates)) notUpdated++;
  }
  const notUpdatedObserved = notUpdated;
  const statusCurrentReplicas = set.status?.currentReplicas ?? 0;
  const stub = (o: number, current: boolean): Pod =>
    newPodStub(
      set,
      current ? state.currentTemplate : state.updateTemplate,
      current ? currentName : updateName,
      o,
    );

  // Observed and missing ordinals merged in ascending order; reserved intervals jumped over.
  const slots: Slot[] = [];
  let next = 0; // the next observed ordinal to place
  let made = 0;
  let o = range.start;
  let firstCounted: number | undefined;
  while (o < range.end) {
    const r = range.reserved.intervalOf(o);
    if (r) {
      o = r.hi + 1;
      continue;
    }
    if (next < observedOrdinals.length && observedOrdinals[next] === o) {
      slots.push({ index: o - range.start, ordinal: o, pod: byOrdinal.get(o) as Pod, isNew: false });
      next++;
      o++;
      continue;
    }
    if (made >= built) {
      // Past the last stand-in: place the remaining observed pods, remember the first counted ordinal.
      firstCounted ??= o;
      if (next >= observedOrdinals.length) break;
      o = observedOrdinals[next];
      continue;
    }
    // `before` = desired ordinals below o, all of them filled by now (R6.9 rule 3).
    const current = currentRevisionNeededFromCounts(
      set,
      { ordinal: o, start: range.start, statusCurrentReplicas },
      desiredUpTo(range, o - 1),
      notUpdated,
    );
    const pod = stub(o, current);
    slots.push({ index: o - range.start, ordinal: o, pod, isNew: true });
    made++;
    if (unordered && !isPodUpdate(pod, updateName, state.gates)) notUpdated++;
    o++;
  }

  // Rule 4 over all missing ordinals: stand-ins are current while the not-updated count stays
  // below the partition, and a current stand-in adds one to it unless it counts as updated.
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  let currentMissing = 0;
  if (unordered && notUpdatedObserved < partition) {
    const probe = stub(range.start, true);
    currentMissing = isPodUpdate(probe, updateName, state.gates)
      ? missing
      : Math.min(partition - notUpdatedObserved, missing);
  }
  const layout: SlotLayout = {
    range,
    slots,
    condemned,
    observedOrdinals,
    missing,
    built: made,
    currentMissing,
  };
  if (made < missing && firstCounted !== undefined)
    layout.counted = { current: stub(firstCounted, true), update: stub(firstCounted, false) };
  return layout;
}

/** How many observed in-range pods have an ordinal of at most `ordinal` (binary search). */
function observedUpTo(layout: SlotLayout, ordinal: number): number {
  const list = layout.observedOrdinals;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= ordinal) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Missing ordinals without a stand-in (they all count as unavailable, R8.4). */
export function countedSlots(layout: SlotLayout): number {
  return layout.missing - layout.built;
}

/**
 * The counted (not built) missing ordinals above `ordinal`, split by the revision R6.9 rule 4
 * gives them; with `ordinal` below `start`, all of them.
 *
 * Example: 10 missing, 3 built, the first 5 current: above ordinal −1 → 2 current, 5 update.
 */
export function countedAbove(layout: SlotLayout, ordinal: number): { current: number; update: number } {
  // missing ordinals at or below `ordinal`: their ranks are below this one
  const rank = Math.max(0, desiredUpTo(layout.range, ordinal) - observedUpTo(layout, ordinal));
  const from = Math.max(layout.built, rank);
  return {
    current: Math.max(0, layout.currentMissing - from),
    update: Math.max(0, layout.missing - Math.max(from, layout.currentMissing)),
  };
}

/** A set's desired ordinal count (R3.5), read from its range. */
export function desiredCount(range: ReplicaRange): number {
  return desiredUpTo(range, range.end - 1);
}
