// Per-pod facts computed in one pass over the pods and shared by every step of a
// reconcile (diffs of Scale and Update, limiter, candidates, status), so a 100k-pod
// reconcile reads each pod's labels and conditions at most once (and not at all for a pod
// object an earlier reconcile listed, when the reconcile has a cache: ownership.ts).
import {
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_LIFECYCLE_STATE,
  type LifecycleState,
  LifecycleStates,
} from '@kruise-ts/api';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import type { PodClassification } from './diffs';
import {
  isInPlaceRefreshNoopWith,
  isRefreshNoopState,
  PodBits,
  type PodContentFacts,
  readPodContentFacts,
} from './podContent';
import { revisionLabelMatcher, specifiedDeleteNamesOf, timeMillis } from './predicates';

// Per-pod loops read these local copies of imported constants: under vitest's module runner
// every read of an imported binding is a getter call (measurable at 100k pods); same values.
const IPU_READY = CONDITION_INPLACE_UPDATE_READY;
const LIFECYCLE_LABEL = LABEL_LIFECYCLE_STATE;
const { Normal, PreparingDelete, PreparingUpdate } = LifecycleStates;
const { READY, SPECIFIED_LABEL } = PodBits;
const POD_REFRESH_NOOP = PodBits.REFRESH_NOOP;
const POD_GRACE_KEY = PodBits.GRACE_KEY;
const POD_IN_PLACE_REFRESH_NOOP = PodBits.IN_PLACE_REFRESH_NOOP;

const UPDATED = 1;
const SPECIFIED = 2;
const UPDATE_READY = 4;
const AVAILABLE = 8;
const REFRESH_NOOP = 16;
const GRACE_KEY = 32;
const IN_PLACE_REFRESH_NOOP = 64;

/**
 * What the rules of §4 say about each pod at `now`, stored column-wise (one flag byte, one
 * order bucket, one lifecycle state and the pod's memoised content facts per pod), so the later
 * steps (candidates, update order, limiter, status) answer from the table instead of reading
 * the pods again.
 */
export class PodFacts {
  private readonly flags: Uint8Array;
  private readonly buckets: Uint8Array;
  private readonly states: LifecycleState[];
  private readonly contents: PodContentFacts[];
  constructor(readonly length: number) {
    this.flags = new Uint8Array(length);
    this.buckets = new Uint8Array(length);
    this.states = new Array(length);
    this.contents = new Array(length);
  }
  /** @internal */
  set(i: number, state: LifecycleState, flags: number, bucket = 0, content?: PodContentFacts): void {
    this.states[i] = state;
    this.flags[i] = flags;
    this.buckets[i] = bucket;
    if (content !== undefined) this.contents[i] = content;
  }
  /** @internal The memoised content facts of the pod (podContent.ts), when the table was built from them. */
  content(i: number): PodContentFacts | undefined {
    return this.contents[i];
  }
  /** `hashEquals(pod, updateRevision)` (§4.3). */
  updated(i: number): boolean {
    return (this.flags[i] & UPDATED) !== 0;
  }
  /** The lifecycle state (`""` when absent). */
  state(i: number): LifecycleState {
    return this.states[i];
  }
  /** Specified delete (§4.4). */
  specified(i: number): boolean {
    return (this.flags[i] & SPECIFIED) !== 0;
  }
  /** `updateReady(pod, 0)`: status `readyReplicas` (§13). */
  updateReady(i: number): boolean {
    return (this.flags[i] & UPDATE_READY) !== 0;
  }
  /** `available(pod, minReadySeconds)` (§4.2). */
  available(i: number): boolean {
    return (this.flags[i] & AVAILABLE) !== 0;
  }
  /** The Update refresh cannot change this pod (`isRefreshNoop`). */
  refreshNoop(i: number): boolean {
    return (this.flags[i] & REFRESH_NOOP) !== 0;
  }
  /** The in-place part of the refresh cannot change this pod (`isInPlaceRefreshNoop`). */
  inPlaceRefreshNoop(i: number): boolean {
    return (this.flags[i] & IN_PLACE_REFRESH_NOOP) !== 0;
  }
  /** The pod carries an in-place grace annotation key (core's `hasInPlaceUpdateGrace`, §9.2). */
  inPlaceGrace(i: number): boolean {
    return (this.flags[i] & GRACE_KEY) !== 0;
  }
  /** The update-order bucket of rules 1–3 of §9.3.1 (podContent.ts `leadingBucketOf`). */
  orderBucket(i: number): number {
    return this.buckets[i];
  }
}

/**
 * Computes the facts of every pod, in pod order. Each pod's own content is read once
 * (`readPodContentFacts`); what depends on this reconcile — the update revision,
 * `podsToDelete`, `minReadySeconds` and `now` — is applied here to those facts. `contents`,
 * when given, holds each pod's content facts (same order; the listing step already has them,
 * from the cache for the pods it listed before).
 */
export function computePodFacts(
  pods: readonly Pod[],
  updateRevision: string,
  isSpecifiedDelete: (pod: Pod) => boolean,
  minReadySeconds: number,
  nowMs: number,
  contents?: readonly PodContentFacts[],
): PodFacts {
  const onUpdate = revisionLabelMatcher(updateRevision);
  // a predicate made by specifiedDeleteChecker is answered from the memoised label and name
  const podsToDelete = specifiedDeleteNamesOf(isSpecifiedDelete);
  const minReadyMs = minReadySeconds * 1000;
  const readySinceMs = memoizedTimeMillis(); // `updateReady`'s timeMillis, each distinct text once
  const out = new PodFacts(pods.length);
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const f = contents !== undefined ? contents[i] : readPodContentFacts(pod);
    const bits = f.bits;
    const state = f.state;
    const ready = (bits & READY) !== 0;
    const available =
      ready &&
      (state === '' || state === Normal) &&
      (minReadySeconds === 0 || readySinceMs(f.readySince) + minReadyMs < nowMs);
    const specified =
      podsToDelete === undefined
        ? isSpecifiedDelete(pod)
        : (bits & SPECIFIED_LABEL) !== 0 || podsToDelete?.has(f.name) === true;
    out.set(
      i,
      state,
      (onUpdate(f.revisionLabel) ? UPDATED : 0) |
        (specified ? SPECIFIED : 0) |
        (ready ? UPDATE_READY : 0) |
        (available ? AVAILABLE : 0) |
        ((bits & POD_REFRESH_NOOP) !== 0 ? REFRESH_NOOP : 0) |
        ((bits & POD_GRACE_KEY) !== 0 ? GRACE_KEY : 0) |
        ((bits & POD_IN_PLACE_REFRESH_NOOP) !== 0 ? IN_PLACE_REFRESH_NOOP : 0),
      f.bucket,
      f,
    );
  }
  return out;
}

/**
 * `timeMillis` (predicates.ts) with a memo per distinct text, for one pass over many pods (their
 * Ready times repeat); absent, zero or unparsable → NaN, which fails every `<` comparison just
 * as `updateReady` fails such a pod.
 */
function memoizedTimeMillis(): (t: string | null | undefined) => number {
  const parsed = new Map<string, number>();
  return (t) => {
    if (!t) return Number.NaN;
    let v = parsed.get(t);
    if (v === undefined) {
      v = timeMillis(t) ?? Number.NaN;
      parsed.set(t, v);
    }
    return v;
  };
}

/**
 * A cheap test that the refresh of §1.2 step 1 cannot change the pod, so it is skipped: the
 * in-place part cannot change it ({@link isInPlaceRefreshNoop}), the lifecycle state has no
 * refresh transition (`""`, Normal, PreparingDelete), and the `pod-template-hash` label is present.
 */
export function isRefreshNoop(pod: Pod): boolean {
  const labels = pod.metadata?.labels;
  return (
    isRefreshNoopState(labels, (labels?.[LIFECYCLE_LABEL] ?? '') as LifecycleState) &&
    isInPlaceRefreshNoop(pod)
  );
}

/**
 * A cheap test that the in-place refresh (§10.4, core's `inPlaceRefresh`) cannot change the pod,
 * so the JSON decoding of its state annotation is skipped: no grace annotation; a state
 * annotation, if any, without pending batches (`"next…"` keys), so R2.5.2 either stops or falls
 * through to R2.5.3; and the `InPlaceUpdateReady` condition, if the pod has the gate, already
 * True with empty reason and message (R2.1.6: no write). Deviation: an unparsable state annotation
 * on such a pod is not reported.
 */
export function isInPlaceRefreshNoop(pod: Pod): boolean {
  const conds = pod.status?.conditions;
  let ipu: PodCondition | undefined;
  if (conds) {
    for (let k = 0; k < conds.length; k++) {
      if (conds[k].type === IPU_READY) {
        ipu = conds[k];
        break;
      }
    }
  }
  return isInPlaceRefreshNoopWith(pod, ipu);
}

/**
 * Rule D2 over precomputed facts. `preparingUpdateAsUpdate` selects the Scale predicate (a
 * PreparingUpdate pod counts as new, §4.3); otherwise plain hash equality.
 */
export function classifyFacts(facts: PodFacts, preparingUpdateAsUpdate: boolean): PodClassification {
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
    const state = facts.state(i);
    const isNew = facts.updated(i) || (preparingUpdateAsUpdate && state === PreparingUpdate);
    if (isNew) c.newCount++;
    else c.oldCount++;
    if (state === PreparingDelete) {
      if (isNew) c.newPreDel++;
      else c.oldPreDel++;
      continue;
    }
    if (isNew) c.newActive++;
    else c.oldActive++;
    if (facts.specified(i)) {
      if (isNew) c.newToDelete++;
      else c.oldToDelete++;
    } else if (!facts.available(i)) {
      if (isNew) c.newUnavail++;
      else c.oldUnavail++;
    }
  }
  return c;
}
