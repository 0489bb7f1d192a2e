// The Update step (docs/reference/cloneset.md §1.2, §9, §10): refresh every pod, then choose,
// order and limit the candidates and update each one in place or by recreation.
import {
  type CloneSet,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_POD_TEMPLATE_HASH,
  LABEL_SPECIFIED_DELETE,
  LifecycleStates,
} from '@kruise-ts/api';
import {
  cachedInPlaceUpdateSpec,
  cloneSetRevisionAdapter,
  extend,
  type FeatureGates,
  type InPlaceCache,
  type InPlaceUpdateOptions,
  inPlaceRefresh,
  inPlaceUpdate,
  lifecycleUpdateAction,
  mergePodChangeHints,
  type PodChangeHint,
  setPodLifecycleState,
  setPodPreparingUpdate,
  sortUpdateIndexesByPriority,
  sortUpdateIndexesByScatter,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { CloneSetCache } from './cache';
import type { PodFacts } from './facts';
import { refreshLifecycle } from './lifecycle';
import { limitUpdateIndexes } from './limiter';
import { lazyUpdateOrder, sortIndexesForUpdate } from './order';
import { podPatchAction } from './podPatch';
import { hashEquals, podLifecycleState, shortHashOf } from './predicates';
import { diffsFor } from './scale';
import { requeue, type SyncState } from './sync';
import { Reasons } from './types';

/** The outcome of the Update step. */
export interface UpdateResult {
  /** Set when Update fails (FailedUpdate condition). */
  error?: string;
}

/**
 * Where the lifecycle refresh (§11: core's `refreshPodLifecycle`, the state label, timestamp
 * annotation, hook finalizers and the KruisePodReady / Ready conditions of `markPodNotReady`)
 * and the `pod-template-hash` fix (a label) may change a pod.
 */
export const LIFECYCLE_REFRESH_CHANGES: PodChangeHint = Object.freeze({
  metadata: Object.freeze({ labels: true, annotations: true, finalizers: true }),
  status: Object.freeze({ conditions: true }),
});

/**
 * The union of an in-place refresh's changes and the lifecycle's, kept in the CloneSet cache per
 * (frozen) core hint.
 */
function refreshChanges(memo: CloneSetCache['refreshChanges'], inPlace: PodChangeHint): PodChangeHint {
  let h = memo.get(inPlace);
  if (h === undefined) {
    h = mergePodChangeHints(inPlace, LIFECYCLE_REFRESH_CHANGES);
    memo.set(inPlace, h);
  }
  return h;
}

/** What {@link refreshPod} returns: the pod it should become and where it may differ. */
interface RefreshResult {
  pod: Pod;
  delaySeconds?: number;
  error?: string;
  /** Where `pod` may differ from the listed pod (absent: anywhere), for the merge patch. */
  changes?: PodChangeHint;
}

/**
 * §1.2 step 1 for the pod at list position `i`: the in-place refresh (§10.4), the lifecycle
 * refresh transition (§11), and the `pod-template-hash` fix for pods created before Kruise
 * v1.1 (the short hash of `controller-revision-hash`). Returns the pod it should become (the
 * same object when unchanged). The caller skips pods whose `facts.refreshNoop(i)` holds; a pod
 * whose `facts.inPlaceRefreshNoop(i)` holds skips the in-place part (its state annotation is not
 * decoded).
 *
 * Example: a pod in lifecycle PreparingNormal without a preNormal hook becomes Normal (a label
 * and the lifecycle timestamp annotation change).
 */
function refreshPod(state: SyncState, i: number): RefreshResult {
  const pod = state.pods[i];
  const inPlaceRefreshNoop = state.facts.inPlaceRefreshNoop(i);
  const r = inPlaceRefreshNoop
    ? { pod, changed: false }
    : inPlaceRefresh(pod, {
        now: state.nowStr,
        featureGates: state.gates,
        revisionAdapter: cloneSetRevisionAdapter,
        cache: state.cache.inPlace,
      });
  if (r.error !== undefined) return { pod, error: r.error };
  let p = refreshLifecycle(r.pod, {
    lifecycle: state.cs.spec.lifecycle,
    updateRevision: state.updateRevision.metadata?.name ?? '',
    featureGates: state.gates,
    now: state.nowStr,
    cache: state.cache.inPlace,
  });
  const labels = p.metadata?.labels ?? {};
  if (!Object.hasOwn(labels, LABEL_POD_TEMPLATE_HASH)) {
    const value = shortHashOf(labels[LABEL_CONTROLLER_REVISION_HASH] ?? '');
    p = withTemplateHashLabel(p, value);
  }
  // where p may differ from pod, for the merge patch (no hint from core: the full diff)
  const changes = !r.changed
    ? LIFECYCLE_REFRESH_CHANGES
    : r.changes !== undefined
      ? refreshChanges(state.cache.refreshChanges, r.changes)
      : undefined;
  const out: RefreshResult = { pod: p };
  if (r.delaySeconds !== undefined) out.delaySeconds = r.delaySeconds;
  if (changes !== undefined) out.changes = changes;
  return out;
}

/**
 * The pod with a `pod-template-hash` label added: `{ ...p, metadata: { ...labels + the label } }`
 * (core's `extend` is that spread). Example: a pod labelled `controller-revision-hash:
 * sample-7f6d4` and no template hash gets `pod-template-hash: 7f6d4`. Exported for the
 * change-hint test.
 */
export function withTemplateHashLabel(p: Pod, value: string): Pod {
  const labels: Record<string, string> = extend(p.metadata?.labels);
  labels[LABEL_POD_TEMPLATE_HASH] = value;
  return extend(p, { metadata: extend(p.metadata, { labels }) });
}

/**
 * §9.2 candidates: with `updateNum > 0` the pods not on the update revision, with
 * `updateNum < 0` the pods on it; among them a PreparingDelete pod is never a candidate, an
 * Updated pod always is (even in a grace period), any other only without the in-place grace
 * annotation. List positions, in list order.
 */
export function updateCandidates(facts: PodFacts, updateNum: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < facts.length; i++) {
    const onUpdate = facts.updated(i);
    if (updateNum > 0 ? onUpdate : !onUpdate) continue;
    const s = facts.state(i);
    if (s === LifecycleStates.PreparingDelete) continue;
    if (s !== LifecycleStates.Updated && facts.inPlaceGrace(i)) continue; // hasInPlaceUpdateGrace(pod)
    out.push(i);
  }
  return out;
}

/**
 * §9.3 order: Kubernetes' active-pods order (§9.3.1), then the priority sort (§9.3.2, when the
 * strategy has a term), the scatter sort (§9.3.3, non-empty strategy and ≥ 2 candidates), and
 * finally a stable move of PreparingUpdate pods to the front (§9.3.4).
 */
export function orderUpdateCandidates(state: SyncState, candidates: readonly number[]): Iterable<number> {
  const us = state.cs.spec.updateStrategy ?? {};
  const isPreparingUpdate = (i: number) => state.facts.state(i) === LifecycleStates.PreparingUpdate;
  const ps = us.priorityStrategy;
  const hasPriority = !!ps && ((ps.weightPriority?.length ?? 0) > 0 || (ps.orderPriority?.length ?? 0) > 0);
  const hasScatter = !!us.scatterStrategy && us.scatterStrategy.length > 0 && candidates.length >= 2;
  // without priority or scatter the order is produced lazily, bucket by bucket
  if (!hasPriority && !hasScatter) {
    return lazyUpdateOrder(state.pods, state.facts, candidates, isPreparingUpdate);
  }
  let order = sortIndexesForUpdate(state.pods, candidates);
  if (hasPriority) order = sortUpdateIndexesByPriority(state.pods, order, ps);
  if (hasScatter) order = sortUpdateIndexesByScatter(state.pods, order, us.scatterStrategy);
  const first: number[] = [];
  const rest: number[] = [];
  for (const i of order) (isPreparingUpdate(i) ? first : rest).push(i);
  return first.length === 0 ? order : [...first, ...rest];
}

/** The revision a pod is on: the first revision (history order) whose name `hashEquals` it (§9.5). */
export function oldRevisionOf(
  pod: Pod,
  revisions: readonly ControllerRevision[],
): ControllerRevision | undefined {
  return revisions.find((r) => hashEquals(pod, r.metadata?.name ?? ''));
}

/**
 * §9.5 / §10.3: update one pod towards `target`. In-place types try the in-place protocol
 * (with the lifecycle steps of §10.3); when in-place is impossible InPlaceOnly fails and
 * anything else recreates: the pod is only labelled `apps.kruise.io/specified-delete=true`
 * (quirk 7); the next Scale pass deletes it within `deleteReadyLimit`.
 */
export function updatePod(state: SyncState, pod: Pod, target: ControllerRevision): UpdateResult {
  const us = state.cs.spec.updateStrategy ?? {};
  const type = us.type ?? 'ReCreate';
  const name = pod.metadata?.name ?? '';
  const targetName = target.metadata?.name ?? '';
  if (type === 'InPlaceIfPossible' || type === 'InPlaceOnly') {
    const oldRev = oldRevisionOf(pod, state.revisions);
    const opts = state.inPlaceUpdateOptions;
    if (canUpdateInPlace(oldRev, target, opts)) {
      const lifecycle = state.cs.spec.lifecycle;
      switch (lifecycleUpdateAction(pod, lifecycle)) {
        case 'PreparingUpdate':
          pushPatch(state, pod, setPodPreparingUpdate(pod, lifecycle, state.nowStr), Reasons.InPlaceUpdate);
          return {};
        case 'wait':
          return {};
        case 'notAllowed':
          return { error: `not allowed to update pod ${name} in state ${podLifecycleState(pod)}` };
        case 'updateNow':
          break;
      }
      const res = inPlaceUpdate(pod, oldRev, target, opts);
      if (res.pod) pushPatch(state, pod, res.pod, Reasons.InPlaceUpdate, res.changes);
      if (res.error !== undefined) return { error: res.error };
      if (res.inPlaceUpdate) {
        state.rec.event(
          'Normal',
          'SuccessfulUpdatePodInPlace',
          `successfully update pod ${name} in-place(revision ${targetName})`,
        );
        if (res.delaySeconds !== undefined) requeue(state, res.delaySeconds);
        return {};
      }
    }
    if (type === 'InPlaceOnly')
      return { error: `find Pod ${name} update strategy is InPlaceOnly but can not update in-place` };
  }
  const labels = pod.metadata?.labels ?? {};
  if (!Object.hasOwn(labels, LABEL_SPECIFIED_DELETE)) {
    const next: Pod = {
      ...pod,
      metadata: { ...pod.metadata, labels: { ...labels, [LABEL_SPECIFIED_DELETE]: 'true' } },
    };
    pushPatch(state, pod, next, Reasons.RecreateUpdate);
    state.rec.event(
      'Normal',
      'SuccessfulUpdatePodReCreate',
      `successfully update pod ${name} by recreating(revision ${targetName})`,
    );
  }
  return {};
}

/**
 * The options of §10.3's `inPlaceUpdate` for one reconcile; the eligibility check of §10.1 reads
 * the same. Besides the gates, the strategy's grace period and `now`, they carry the extra
 * mutator that sets lifecycle `Updating`, and `updateSpecCache`, the reconcile's UpdateSpecs by
 * (old revision, target) pair: 2,000 pods moving from one revision to the next share one pair,
 * so the two revision texts are diffed once.
 */
export function inPlaceUpdateOptionsFor(options: {
  cs: CloneSet;
  gates: FeatureGates;
  /** `now` as RFC 3339. */
  now: string;
  /** The CloneSet cache's in-place part. */
  cache: InPlaceCache;
}): InPlaceUpdateOptions {
  const { cs, gates, now, cache } = options;
  const us = cs.spec.updateStrategy ?? {};
  return {
    featureGates: gates,
    gracePeriodSeconds: us.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    ignoreVolumeClaimTemplatesHashDiff: us.type === 'InPlaceOnly',
    now,
    revisionAdapter: cloneSetRevisionAdapter,
    extraMutator: (p) => setPodLifecycleState(p, LifecycleStates.Updating, now, false),
    extraMutatorChanges: UPDATING_MUTATOR_CHANGES,
    updateSpecCache: new Map(),
    cache,
  };
}

/**
 * Where the `Updating` mutator writes: core's `setPodLifecycleState` without `markPodNotReady`
 * sets the state label and the lifecycle timestamp annotation, nothing else.
 */
const UPDATING_MUTATOR_CHANGES: PodChangeHint = Object.freeze({
  metadata: Object.freeze({ labels: true, annotations: true }),
});

/** §10.1 `CanUpdateInPlace`, from the reconcile's UpdateSpec of the (old revision, target) pair. */
function canUpdateInPlace(
  oldRev: ControllerRevision | undefined,
  target: ControllerRevision,
  opts: InPlaceUpdateOptions,
): boolean {
  return cachedInPlaceUpdateSpec(opts.updateSpecCache, oldRev, target, opts) !== undefined;
}

function pushPatch(state: SyncState, prev: Pod, next: Pod, reason: string, changes?: PodChangeHint): void {
  const action = podPatchAction(prev, next, reason, changes);
  if (action) state.rec.act(action);
}

/**
 * One Update pass (§1.2): refresh every pod (return if any was patched), stop if paused,
 * compute the diffs with hash equality, stop if `updateNum == 0`, then candidates (§9.2),
 * order (§9.3), limiter (§9.4) and per-pod update (§9.5). The first error stops the pass.
 */
export function updateCloneSet(state: SyncState): UpdateResult {
  let patched = false;
  for (let i = 0; i < state.pods.length; i++) {
    if (state.facts.refreshNoop(i)) continue;
    const r = refreshPod(state, i);
    if (r.error !== undefined) return { error: r.error };
    if (r.delaySeconds !== undefined) requeue(state, r.delaySeconds);
    const action = podPatchAction(state.pods[i], r.pod, Reasons.LifecycleTransition, r.changes);
    if (action) {
      state.rec.act(action);
      patched = true;
    }
  }
  if (patched) return {};
  if (state.cs.spec.updateStrategy?.paused) return {};
  const diffs = diffsFor(state, (i) => state.facts.updated(i));
  if (diffs.updateNum === 0) return {};
  const toUpdate = diffs.updateNum > 0;
  const target = toUpdate ? state.updateRevision : state.currentRevision;
  // lazy: the limiter starts this sequence only when its budget allows an update at all
  const ordered = lazily(() => orderUpdateCandidates(state, updateCandidates(state.facts, diffs.updateNum)));
  const accepted = limitUpdateIndexes({
    diffs,
    candidates: ordered,
    facts: state.facts,
    targetRevision: target.metadata?.name ?? '',
  });
  for (const idx of accepted) {
    const r = updatePod(state, state.pods[idx], target);
    if (r.error !== undefined) return r;
  }
  return {};
}

/** The sequence `make()` returns, built only when the first element is asked for. */
function* lazily<T>(make: () => Iterable<T>): Generator<T> {
  yield* make();
}
