// In-place update of one pod chosen by the rolling update (docs/reference/statefulset.md §10.2,
// R10.3–R10.7), through core's in-place protocol and lifecycle tables.
import { LABEL_LIFECYCLE_STATE, LifecycleStates } from '@kruise-ts/api';
import {
  cachedInPlaceUpdateSpec,
  getPodLifecycleState,
  getPodRevision,
  type InPlaceUpdateOptions,
  inPlaceUpdate,
  lifecycleUpdateAction,
  setPodLifecycleState,
  setPodPreparingUpdate,
  statefulSetRevisionAdapter,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { type RoundState, timedWait, workingPod, writePod } from './round';
import { Reasons } from './types';

/** Outcome of {@link inPlaceUpdatePod}: `inPlacing` = in-place in progress (the pod must not be recreated). */
export interface InPlaceOutcome {
  inPlacing: boolean;
  error?: string;
}

/** R10.3: in-place is attempted only with a `rollingUpdate` whose podUpdatePolicy is InPlaceIfPossible/InPlaceOnly. */
export function inPlaceAllowed(state: RoundState): boolean {
  const policy = state.set.spec.updateStrategy?.rollingUpdate?.podUpdatePolicy;
  return policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly';
}

/**
 * §10.2 `inPlaceUpdatePod` for target `pod` (observed) towards the update revision.
 *
 * R10.3 the old revision is the stored revision named by the pod's label (none → cannot);
 * R10.4 whether the revisions allow it is core's `calculateInPlaceUpdateSpec`; R10.5 by
 * lifecycle state: `""`/`PreparingNormal`/`Normal` hooked on `inPlaceUpdate` → `PreparingUpdate`
 * (in progress); `Updated` → `PreparingUpdate` with the hook's labels/finalizers (in progress);
 * `PreparingUpdate` still hooked → wait (in progress); otherwise R10.6 update now: revision label,
 * `Updating` (only for a pod that had a state label), the in-place state annotation, the image
 * patch (or the grace annotation), `InPlaceUpdateReady=False` for pods with that gate; any other
 * state is an error. An update expectation is recorded (R4.8).
 *
 * Example (upstream "preparingNormal->Updating"): revisions `c1: foo1` → `c1: foo2`, pod
 * `PreparingNormal` without an inPlaceUpdate hook → revision `rev_new`, image `foo2`, state
 * `Updating`, `InPlaceUpdateReady` False with reason `StartInPlaceUpdate`.
 */
export function inPlaceUpdatePod(state: RoundState, pod: Pod): InPlaceOutcome {
  if (!inPlaceAllowed(state)) return { inPlacing: false };
  const name = pod.metadata?.name ?? '';
  const ru = state.set.spec.updateStrategy?.rollingUpdate;
  const oldName = getPodRevision(pod);
  const oldRevision = state.revisions.find((r) => r.metadata?.name === oldName);
  const opts: InPlaceUpdateOptions = {
    now: state.nowStr,
    featureGates: state.gates,
    gracePeriodSeconds: ru?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    revisionAdapter: statefulSetRevisionAdapter,
    // the revisions' UpdateSpec is computed once per round and shared by their pods
    updateSpecCache: state.updateSpecs,
    cache: state.inPlaceCache,
  };
  // R10.4: the revisions' difference decides (the same spec inPlaceUpdate applies below)
  if (cachedInPlaceUpdateSpec(state.updateSpecs, oldRevision, state.updateRevision, opts) === undefined)
    return { inPlacing: false };
  const lifecycle = state.set.spec.lifecycle;
  switch (lifecycleUpdateAction(pod, lifecycle)) {
    case 'PreparingUpdate':
      writePod(
        state,
        pod,
        setPodPreparingUpdate(workingPod(state, pod), lifecycle, state.nowStr),
        Reasons.InPlaceUpdate,
      );
      return { inPlacing: true };
    case 'wait':
      return { inPlacing: true };
    case 'notAllowed':
      return {
        inPlacing: true,
        error: `not allowed to update pod ${name} in place in lifecycle state ${getPodLifecycleState(pod)}`,
      };
    case 'updateNow':
      break;
  }
  const hadState = Object.hasOwn(pod.metadata?.labels ?? {}, LABEL_LIFECYCLE_STATE);
  if (hadState)
    opts.extraMutator = (p: Pod) => setPodLifecycleState(p, LifecycleStates.Updating, state.nowStr, false);
  const res = inPlaceUpdate(workingPod(state, pod), oldRevision, state.updateRevision, opts);
  if (res.pod) writePod(state, pod, res.pod, Reasons.InPlaceUpdate);
  if (res.error !== undefined)
    return { inPlacing: true, error: `in-place update of pod ${name}: ${res.error}` };
  if (!res.inPlaceUpdate) return { inPlacing: false };
  state.rec.requeueAfter(timedWait(res.delaySeconds));
  const target = state.updateRevision.metadata?.name ?? '';
  state.expectations[name] = target;
  state.rec.event(
    'Normal',
    'SuccessfulUpdatePodInPlace',
    `successfully update pod ${name} in-place(revision ${target})`,
  );
  return { inPlacing: true };
}
