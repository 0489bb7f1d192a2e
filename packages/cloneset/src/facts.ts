// Per-pod facts computed in one pass over the pods and shared by every step of a
// reconcile (diffs of Scale and Update, limiter, candidates, status), so a 100k-pod
// reconcile reads each pod's labels and conditions once.
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_LIFECYCLE_STATE,
  LABEL_POD_TEMPLATE_HASH,
  type LifecycleState,
  LifecycleStates,
} from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodClassification } from './diffs';
import { podLifecycleState, revisionMatcher, updateReady } from './predicates';

// Per-pod loops read these local copies of imported constants: under vitest's module runner
// every read of an imported binding is a getter call (measurable at 100k pods); same values.
const GRACE = ANNOTATION_INPLACE_UPDATE_GRACE;
const GRACE_LEGACY = ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY;
const STATE = ANNOTATION_INPLACE_UPDATE_STATE;
const STATE_LEGACY = ANNOTATION_INPLACE_UPDATE_STATE_LEGACY;
const IPU_READY = CONDITION_INPLACE_UPDATE_READY;
const LIFECYCLE_LABEL = LABEL_LIFECYCLE_STATE;
const TEMPLATE_HASH_LABEL = LABEL_POD_TEMPLATE_HASH;
const { Normal, PreparingDelete, PreparingUpdate } = LifecycleStates;

const UPDATED = 1;
const SPECIFIED = 2;
const UPDATE_READY = 4;
const AVAILABLE = 8;
const REFRESH_NOOP = 16;

/**
 * What the rules of §4 say about each pod at `now`, stored column-wise (one flag byte and one
 * lifecycle state per pod) so that a 100k-pod reconcile allocates no per-pod object.
 */
export class PodFacts {
  private readonly flags: Uint8Array;
  private readonly states: LifecycleState[];
  constructor(readonly length: number) {
    this.flags = new Uint8Array(length);
    this.states = new Array(length);
  }
  /** @internal */
  set(i: number, state: LifecycleState, flags: number): void {
    this.states[i] = state;
    this.flags[i] = flags;
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
  /** The Update refresh cannot change this pod ({@link isRefreshNoop}). */
  refreshNoop(i: number): boolean {
    return (this.flags[i] & REFRESH_NOOP) !== 0;
  }
}

/**
 * Computes the facts of every pod, in pod order, in one pass (each pod's labels, annotations
 * and conditions are read while they are in cache).
 */
export function computePodFacts(
  pods: readonly Pod[],
  updateRevision: string,
  isSpecifiedDelete: (pod: Pod) => boolean,
  minReadySeconds: number,
  nowMs: number,
): PodFacts {
  const onUpdate = revisionMatcher(updateRevision);
  const out = new PodFacts(pods.length);
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const state = podLifecycleState(pod);
    const ready = updateReady(pod, 0, nowMs);
    const normal = state === '' || state === Normal;
    const available = normal && ready && (minReadySeconds === 0 || updateReady(pod, minReadySeconds, nowMs));
    out.set(
      i,
      state,
      (onUpdate(pod) ? UPDATED : 0) |
        (isSpecifiedDelete(pod) ? SPECIFIED : 0) |
        (ready ? UPDATE_READY : 0) |
        (available ? AVAILABLE : 0) |
        (isRefreshNoop(pod) ? REFRESH_NOOP : 0),
    );
  }
  return out;
}

/**
 * A cheap test that the refresh of §1.2 step 1 cannot change the pod, so it is skipped: the
 * in-place part cannot change it ({@link isInPlaceRefreshNoop}), the lifecycle state has no
 * refresh transition (`""`, Normal, PreparingDelete), and the `pod-template-hash` label is present.
 */
export function isRefreshNoop(pod: Pod): boolean {
  const labels = pod.metadata?.labels;
  if (!labels || !Object.hasOwn(labels, TEMPLATE_HASH_LABEL)) return false;
  const s = labels[LIFECYCLE_LABEL] ?? '';
  if (s !== '' && s !== Normal && s !== PreparingDelete) return false;
  return isInPlaceRefreshNoop(pod);
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
  const ann = pod.metadata?.annotations;
  if (ann) {
    if (ann[GRACE] || ann[GRACE_LEGACY]) return false;
    const st = ann[STATE] || ann[STATE_LEGACY];
    if (st?.includes('"next')) return false;
  }
  const gates = pod.spec?.readinessGates;
  if (gates) {
    for (let g = 0; g < gates.length; g++) {
      if (gates[g].conditionType !== IPU_READY) continue;
      const conds = pod.status?.conditions ?? [];
      let c: (typeof conds)[number] | undefined;
      for (let k = 0; k < conds.length; k++) {
        if (conds[k].type === IPU_READY) {
          c = conds[k];
          break;
        }
      }
      if (c?.status !== 'True' || (c.reason ?? '') !== '' || (c.message ?? '') !== '') return false;
    }
  }
  return true;
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
