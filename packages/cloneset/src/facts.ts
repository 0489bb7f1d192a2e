// The fact table: what the predicates of docs/reference/cloneset.md §4 say about each pod of one
// reconcile. Every rule that reads pods — the classification of §6 (rule D2), the Scale step
// (§7, §8), the Update step's candidates, order and limiter (§9) and the status (§13) — reads
// this table, so each predicate is written once, here or in podContent.ts, and each pod is read
// once per reconcile (and not at all when the CloneSet cache already holds its content facts).
import type { Pod } from 'kubernetes-types/core/v1.js';
import { PodBits, type PodContentFacts, readPodContentFacts } from './podContent';
import {
  isNormalState,
  isSpecifiedDelete,
  readyLongEnough,
  revisionLabelMatcher,
  timeMillis,
} from './predicates';

/** Bits of a row's reconcile-dependent flags (the rest is in the pod's content facts). */
const UPDATED = 1;
const SPECIFIED = 2;
const AVAILABLE = 4;

/** What {@link computePodFacts} needs beyond the pods: everything that depends on the reconcile. */
export interface PodFactsOptions {
  /** The update revision's name: `updated(i)` is `hashEquals(pod, updateRevision)` (§4.3). */
  updateRevision: string;
  /** `scaleStrategy.podsToDelete`: with the specified-delete label, specified delete (§4.4). */
  podsToDelete: ReadonlySet<string>;
  /** `spec.minReadySeconds` of `available(pod, minReadySeconds)` (§4.2). */
  minReadySeconds: number;
  /** `now`, in milliseconds since the epoch. */
  nowMs: number;
  /**
   * The pods' content facts in the same order, when the caller already has them (the listing
   * step takes them from the CloneSet cache); otherwise they are read from the pods.
   */
  contents?: readonly PodContentFacts[];
}

/**
 * The §4 answers for each pod of a list, by list position. A pod's own content (lifecycle
 * state, readiness, refresh no-op tests, update-order bucket) comes from its content facts; what
 * depends on the reconcile (the update revision, `podsToDelete`, `minReadySeconds`, `now`) is
 * one flag byte per pod.
 *
 * Example: with update revision `sample-new12` and `minReadySeconds` 0, a Running Ready pod
 * labelled `controller-revision-hash: new12` in lifecycle Normal answers `updated` (same short
 * hash), `updateReady`, `ready` and `available`; the same pod in PreparingUpdate answers
 * `updated` and `updateReady` only (§4.2: only `""` and Normal allow availability).
 */
export class PodFacts {
  readonly length: number;
  private readonly contents: readonly PodContentFacts[];
  private readonly flags: Uint8Array;
  /** @internal Made by {@link computePodFacts}. */
  constructor(contents: readonly PodContentFacts[], flags: Uint8Array) {
    this.length = contents.length;
    this.contents = contents;
    this.flags = flags;
  }
  /** The pod's content facts (podContent.ts). */
  content(i: number): PodContentFacts {
    return this.contents[i];
  }
  /** `hashEquals(pod, updateRevision)` (§4.3). */
  updated(i: number): boolean {
    return (this.flags[i] & UPDATED) !== 0;
  }
  /** The lifecycle state label as written (`""` when absent; any text, as podContent.ts reads it). */
  state(i: number): string {
    return this.contents[i].state;
  }
  /** Specified delete (§4.4). */
  specified(i: number): boolean {
    return (this.flags[i] & SPECIFIED) !== 0;
  }
  /** `updateReady(pod, 0)` (§4.1): status `readyReplicas` (§13). */
  updateReady(i: number): boolean {
    return (this.contents[i].bits & PodBits.READY) !== 0;
  }
  /** `ready(pod)` = `available(pod, 0)` (§4.2): the deletion limits of §8.2 and §8.3. */
  ready(i: number): boolean {
    return this.updateReady(i) && isNormalState(this.contents[i].state);
  }
  /** `available(pod, minReadySeconds)` (§4.2). */
  available(i: number): boolean {
    return (this.flags[i] & AVAILABLE) !== 0;
  }
  /** The Update refresh (§1.2 step 1) cannot change this pod (podContent.ts `REFRESH_NOOP`). */
  refreshNoop(i: number): boolean {
    return (this.contents[i].bits & PodBits.REFRESH_NOOP) !== 0;
  }
  /** The in-place part of that refresh (§10.4) cannot change this pod. */
  inPlaceRefreshNoop(i: number): boolean {
    return (this.contents[i].bits & PodBits.IN_PLACE_REFRESH_NOOP) !== 0;
  }
  /** The pod carries an in-place grace annotation key (core's `hasInPlaceUpdateGrace`, §9.2). */
  inPlaceGrace(i: number): boolean {
    return (this.contents[i].bits & PodBits.GRACE_KEY) !== 0;
  }
  /** The update-order bucket of rules 1–3 of §9.3.1 (podContent.ts `leadingBucketOf`). */
  orderBucket(i: number): number {
    return this.contents[i].bucket;
  }
}

/**
 * The fact table of `pods` (§4) for one reconcile. `specified` is §4.4: the specified-delete
 * label, or the pod's name in `podsToDelete`. `available` is §4.2 over the content facts:
 * update-ready at 0, lifecycle `""`/Normal, and with `minReadySeconds > 0` Ready strictly longer
 * than that; a missing or unparsable Ready time is never long enough.
 *
 * Example: `minReadySeconds` 30, a Ready Normal pod Ready since 00:00:00: at 00:00:30 it is
 * not available (not strictly after), at 00:00:31 it is.
 */
export function computePodFacts(pods: readonly Pod[], options: PodFactsOptions): PodFacts {
  const { podsToDelete, minReadySeconds, nowMs } = options;
  const contents = options.contents ?? pods.map(readPodContentFacts);
  const onUpdate = revisionLabelMatcher(options.updateRevision);
  const readySince = readyTimes();
  const flags = new Uint8Array(pods.length);
  for (let i = 0; i < pods.length; i++) {
    const f = contents[i];
    // the Ready time is read only when minReadySeconds asks for it
    const available =
      (f.bits & PodBits.READY) !== 0 &&
      isNormalState(f.state) &&
      (!(minReadySeconds > 0) || readyLongEnough(readySince(f.readySince), minReadySeconds, nowMs));
    flags[i] =
      (onUpdate(f.revisionLabel) ? UPDATED : 0) |
      (isSpecifiedDelete((f.bits & PodBits.SPECIFIED_LABEL) !== 0, f.name, podsToDelete) ? SPECIFIED : 0) |
      (available ? AVAILABLE : 0);
  }
  return new PodFacts(contents, flags);
}

/**
 * `timeMillis` (predicates.ts) of Ready times: `undefined` for an absent, zero or unparsable one.
 * The pods of a rollout share a few Ready times, so each distinct text is parsed once per table.
 */
function readyTimes(): (t: string | null | undefined) => number | undefined {
  const parsed = new Map<string, number | undefined>();
  return (t) => {
    if (!t) return undefined;
    if (!parsed.has(t)) parsed.set(t, timeMillis(t));
    return parsed.get(t);
  };
}
