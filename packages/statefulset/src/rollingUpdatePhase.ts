// The rolling-update phase (docs/reference/statefulset.md §8–§10): gating (R8.1–R8.3), the unavailable
// set (R8.4), specified deletion (R8.5), candidate order (§9) and acting on each candidate
// (R10.1) by in-place update or recreation — over the slots the round built (slots.ts), with the
// missing ordinals it only counted taken in by number.
import { getPodRevision, isSpecifiedDelete, legacyValueFromIntOrPercent } from '@kruise-ts/core';
import { inPlaceUpdatePod } from './inPlace';
import { isHealthy, isTerminating, readyLongEnough } from './predicates';
import type { PhaseOutcome } from './replicaPhase';
import {
  deleteProcedure,
  podUpdateCompleted,
  type RoundState,
  recordFailure,
  refreshPod,
  timedWait,
} from './round';
import { countedSlots, type SlotLayout } from './slots';
import { Reasons } from './types';
import { orderSlotsToUpdate } from './updateOrder';

/** The two counts the rolling update lowers as it acts (R8.5, R10.1 step 6). */
export interface MutableCounts {
  currentReplicas: number;
  updatedReplicas: number;
}

/**
 * R8.3 the update budget: 1 without `rollingUpdate`; otherwise `max(legacy(maxUnavailable ?? 1,
 * spec.replicas, round down), 1)` — every string is a percentage for the legacy helper.
 *
 * Examples: `"50%"` of 5 → 2; `"10%"` of 5 → 0 → 1; `"99%"` of 3 → 2; the bare string `"2"` of
 * 5 is 2 % → 0 → 1.
 */
export function updateMaxUnavailable(
  maxUnavailable: number | string | undefined,
  replicas: number,
): { value: number; error?: undefined } | { value?: undefined; error: string } {
  try {
    return { value: Math.max(legacyValueFromIntOrPercent(maxUnavailable ?? 1, replicas, false), 1) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * R8.4 the unavailable set U: the names of built slot pods that count as unavailable — not
 * healthy, an unfinished in-place update (R10.8), or not yet available (minReadySeconds) — and
 * new pod objects (stand-ins) count too; condemned pods never do. The missing ordinals the round
 * only counted are new pod objects as well: they are in U by number (`counted`), never by name.
 */
export class UnavailableSet {
  readonly names = new Set<string>();

  constructor(readonly counted: number) {}

  /** |U|. */
  get size(): number {
    return this.names.size + this.counted;
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  add(name: string): void {
    this.names.add(name);
  }
}

/** R8.4 over a slot layout (see {@link UnavailableSet}). */
export function unavailableSet(state: RoundState, layout: SlotLayout): UnavailableSet {
  const out = new UnavailableSet(countedSlots(layout));
  for (const s of layout.slots) {
    const p = s.pod;
    const name = p.metadata?.name ?? '';
    if (s.isNew || !isHealthy(p)) {
      out.add(name);
      continue;
    }
    // healthy: lifecycle Normal, running and ready, so available once ready for long enough (§1)
    const a = readyLongEnough(p, state.minReadySeconds, state.nowMs);
    if (!a.available) {
      state.rec.requeueAfter(timedWait(a.waitSeconds));
      out.add(name);
      continue;
    }
    if (!podUpdateCompleted(state, p)) out.add(name);
  }
  return out;
}

function fail(state: RoundState, message: string): PhaseOutcome {
  recordFailure(state, 'FailedUpdatePod', message);
  return { exit: true, error: message };
}

/**
 * §8–§10 one rolling-update pass (not for OnDelete):
 *
 * 1. R8.1 outstanding in-place update expectations for the update revision → skip.
 * 2. R8.2 refresh every observed pod; if any needed a lifecycle transition → skip the rest.
 * 3. R8.3 `paused` → skip; the budget `maxUnavailable` (a bad string → error).
 * 4. R8.4 the unavailable set U; R8.5 specified deletes, highest slot first: a pod outside U is
 *    only deleted while `|U| < maxUnavailable`; each handled pod joins U.
 * 5. §9 candidates; R10.1 for each: already at the update revision → skip; `|U| ≥ max` and not
 *    in U → stop; handled or terminating → nothing; else in place (§10.2) or recreate (R11.2);
 *    it joins U and `currentReplicas` drops when it was at the current revision.
 *
 * A deletion the round's burst refuses (R8.5 or a recreation) leaves the pod as it is, but the
 * pod still joins U as if it were going down now: the walk never takes down more pods than the
 * budget allows, and the next round deletes it.
 *
 * Example (§R8.5): pods 0 ready, 1 and 2 unready, 3 and 4 ready, all specified-delete,
 * maxUnavailable 3: U = {1, 2}; pod 4 deleted (U = {1, 2, 4}); pod 3 skipped; pods 2 and 1 deleted.
 */
export function rollingUpdate(state: RoundState, layout: SlotLayout, counts: MutableCounts): PhaseOutcome {
  const slots = layout.slots;
  const updateName = state.updateRevision.metadata?.name ?? '';
  const currentName = state.currentRevision.metadata?.name ?? '';
  if (Object.values(state.expectations).some((rev) => rev === updateName)) return { exit: false }; // R8.1
  let lifecycleChanged = false;
  for (const p of state.pods) {
    const r = refreshPod(state, p); // R8.2
    if (r.error !== undefined) return fail(state, r.error);
    if (r.lifecycleChanged) lifecycleChanged = true;
  }
  if (lifecycleChanged) return { exit: false };
  const ru = state.set.spec.updateStrategy?.rollingUpdate;
  let maxUnavailable = 1; // R8.3
  if (ru) {
    if (ru.paused) return { exit: false };
    const m = updateMaxUnavailable(ru.maxUnavailable, state.set.spec.replicas ?? 1);
    if (m.error !== undefined) return fail(state, m.error);
    maxUnavailable = m.value;
  }
  const unavailable = unavailableSet(state, layout); // R8.4
  const handled = new Set<string>();
  for (let i = slots.length - 1; i >= 0; i--) {
    const p = slots[i].pod; // R8.5
    if (slots[i].isNew || !isSpecifiedDelete(p)) continue;
    const name = p.metadata?.name ?? '';
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) continue;
    handled.add(name);
    if (deleteProcedure(state, p, Reasons.SpecifiedDelete).deleted) {
      const rev = getPodRevision(p);
      if (rev === currentName) counts.currentReplicas--;
      else if (rev === updateName) counts.updatedReplicas--;
    }
    unavailable.add(name);
  }
  const candidates = orderSlotsToUpdate(ru, updateName, state.set.spec.replicas ?? 1, layout, state.gates);
  for (const idx of candidates) {
    const target = slots[idx].pod; // R10.1
    const name = target.metadata?.name ?? '';
    const rev = getPodRevision(target);
    if (rev === updateName) continue;
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) break;
    // A pod object created in this very round is left for the next round (kruise-ts deviation).
    if (slots[idx].isNew || handled.has(name) || isTerminating(target)) continue;
    const inPlace = inPlaceUpdatePod(state, target);
    if (inPlace.error !== undefined) return fail(state, inPlace.error);
    let deleted = false;
    if (!inPlace.inPlacing) {
      if (ru && ru.podUpdatePolicy === 'InPlaceOnly') {
        return fail(state, `pod ${name} update strategy is InPlaceOnly but can not update in-place`); // R10.7
      }
      deleted = deleteProcedure(state, target, Reasons.RecreateUpdate).deleted;
    }
    unavailable.add(name);
    if ((inPlace.inPlacing || deleted) && rev === currentName) counts.currentReplicas--;
  }
  return { exit: false };
}
