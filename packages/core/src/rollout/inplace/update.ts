// The in-place update protocol's two entry points (docs/reference/core.md §2): update (2.1) for a pod
// chosen to be updated, refresh (2.5) for every pod; plus the per-controller revision
// adapters (2.9). Both return the new pod; the caller turns it into actions.
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
  CONDITION_INPLACE_UPDATE_READY,
  type InPlaceUpdateSpec,
  type InPlaceUpdateState,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_POD_TEMPLATE_HASH,
} from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { type FeatureGates, resolveFeatureGates } from '../../contract/featureGates';
import { extend } from '../../json/objects';
import { type Now, timeOf, validNowText } from '../../kube/time';
import {
  hasReadinessGate,
  recomputeReadyInList,
  withConditions,
  writeGateCondition,
  writeGateConditionInList,
} from '../../pods/conditionEdits';
import { getPodRevision, isPodAtRevision, shortHash } from '../revision';
import {
  decodeInPlaceUpdateGrace,
  decodeInPlaceUpdateState,
  encodeInPlaceUpdateGrace,
  encodeInPlaceUpdateState,
  getInPlaceUpdateGraceText,
  getInPlaceUpdateStateText,
} from './annotations';
import type { InPlaceCache } from './cache';
import { cachedInPlaceUpdateSpec, type InPlaceUpdateSpecCache } from './calculate';
import { ANNOTATIONS, ANYWHERE, BATCH_CHANGES, CONDITIONS, changesOfUpdate } from './changes';
import { type CompletionCheckOptions, containersUpdateCompleted, needsBeUnready } from './completion';
import type { PodChangeHint } from './diff';
import { isEmptyMap } from './internal';
import { applyContainerBatch, patchSpecToPod } from './patch';

/** How a controller reads and writes a pod's revision (docs/reference/core.md 2.9). */
export interface RevisionAdapter {
  /** Is the pod at this revision string (`spec.revision`)? */
  isPodAtRevision(pod: Pod, revision: string): boolean;
  /** The pod labels with the revision written in (a new map). */
  writeRevision(
    labels: Readonly<Record<string, string>>,
    revision: string,
    featureGates?: FeatureGates,
  ): Record<string, string>;
}

/**
 * CloneSet: a pod is at a revision when its label equals the name or has the same short hash
 * (last `-` segment); writing sets `controller-revision-hash` to the full name (the short hash
 * with gate `CloneSetShortHash`) and `pod-template-hash` to the short hash.
 * Example: writing `web-6d4f` → `{controller-revision-hash: web-6d4f, pod-template-hash: 6d4f}`.
 */
export const cloneSetRevisionAdapter: RevisionAdapter = Object.freeze({
  isPodAtRevision: (pod: Pod, revision: string) => isPodAtRevision(pod, revision, { shortHashAware: true }),
  writeRevision: (
    labels: Readonly<Record<string, string>>,
    revision: string,
    featureGates?: FeatureGates,
  ) => {
    const out: Record<string, string> = extend(labels); // not a spread: ../objects.ts
    out[LABEL_CONTROLLER_REVISION_HASH] = featureGates?.CloneSetShortHash ? shortHash(revision) : revision;
    out[LABEL_POD_TEMPLATE_HASH] = shortHash(revision);
    return out;
  },
});

/** Advanced StatefulSet: exact label equality; writes `controller-revision-hash`. */
export const statefulSetRevisionAdapter: RevisionAdapter = Object.freeze({
  isPodAtRevision: (pod: Pod, revision: string) => getPodRevision(pod) === revision,
  writeRevision: (labels: Readonly<Record<string, string>>, revision: string) => {
    const out: Record<string, string> = extend(labels); // not a spread: ../objects.ts
    out[LABEL_CONTROLLER_REVISION_HASH] = revision;
    return out;
  },
});

/**
 * Advanced DaemonSet: like the StatefulSet adapter; the revision string is the revision's own
 * `controller-revision-hash` label (pass {@link daemonSetGetRevision} as `getRevision`).
 */
export const daemonSetRevisionAdapter: RevisionAdapter = statefulSetRevisionAdapter;

/** ADS `getRevision` (2.9): the revision's `controller-revision-hash` label. */
export function daemonSetGetRevision(revision: ControllerRevision): string {
  return revision.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
}

/** Options of {@link inPlaceUpdate} (docs/reference/core.md 2.1). */
export interface InPlaceUpdateOptions {
  now: Now;
  featureGates?: Partial<FeatureGates>;
  gracePeriodSeconds?: number;
  ignoreVolumeClaimTemplatesHashDiff?: boolean;
  /** Default: {@link statefulSetRevisionAdapter} (exact label equality). */
  revisionAdapter?: RevisionAdapter;
  /**
   * Runs after the revision labels are written (CloneSet/ASTS: lifecycle state `Updating`).
   * It must return a new pod (or its argument unchanged) and not mutate its argument.
   */
  extraMutator?: (pod: Pod) => Pod;
  getRevision?: (revision: ControllerRevision) => string;
  /**
   * Where `extraMutator` may change a pod (see {@link InPlaceUpdateResult.changes}); default:
   * anywhere in metadata, spec and status.
   */
  extraMutatorChanges?: PodChangeHint;
  /**
   * A memo of UpdateSpecs shared by the calls of one reconcile (see
   * {@link InPlaceUpdateSpecCache}); without it the spec is computed on every call.
   */
  updateSpecCache?: InPlaceUpdateSpecCache;
  /**
   * Remembers state texts and change hints across calls and reconciles ({@link InPlaceCache});
   * without it they are computed on every call, with the same results.
   */
  cache?: InPlaceCache;
}

/** Result of {@link inPlaceUpdate}. */
export interface InPlaceUpdateResult {
  /** False: the revisions do not allow it; the caller recreates (or fails for InPlaceOnly). */
  inPlaceUpdate: boolean;
  /** The new pod (never the input mutated); absent when nothing is to be written. */
  pod?: Pod;
  /** Requeue after this many seconds (the grace period, R2.1.4). */
  delaySeconds?: number;
  /** R2.1.5: an error with `inPlaceUpdate: true` — the caller must not recreate the pod. */
  error?: string;
  /** The computed UpdateSpec (§1). */
  updateSpec?: InPlaceUpdateSpec;
  /**
   * With `pod`: where it may differ from the input pod, for `diffPodForPatchHinted` (the
   * same patch as `diffPodForPatch`, without visiting the pod's untouched keys).
   */
  changes?: PodChangeHint;
}

/**
 * update (docs/reference/core.md 2.1): starts an in-place update of `pod` from `oldRevision` to
 * `newRevision`.
 *
 * R2.1.1 computes the UpdateSpec (§1; `undefined` → `{inPlaceUpdate: false}`). R2.1.2: if the
 * pod needs to leave service (2.2), `InPlaceUpdateReady` becomes
 * `{False, StartInPlaceUpdate, now}` (R2.1.6) and Ready is recomputed (R5.4). R2.1.3: the
 * revision labels are written by the adapter, the extra mutator runs, a fresh state
 * `{revision, updateTimestamp: now, update*}` is written (legacy key removed); with no grace
 * period the first container batch is applied at once (2.4), otherwise the spec waits in the
 * grace annotation. R2.1.4: `delaySeconds = graceSeconds` when a grace period is set.
 *
 * Example: grace 30 s, image change of `main` → labels at the new revision, state annotation
 * written, `apps.kruise.io/inplace-update-grace` =
 * `{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}`,
 * image unchanged yet, `delaySeconds: 30`.
 */
export function inPlaceUpdate(
  pod: Pod,
  oldRevision: ControllerRevision | undefined | null,
  newRevision: ControllerRevision,
  opts: InPlaceUpdateOptions,
): InPlaceUpdateResult {
  const gates = resolveFeatureGates(opts.featureGates);
  const spec = cachedInPlaceUpdateSpec(opts.updateSpecCache, oldRevision, newRevision, {
    featureGates: gates,
    gracePeriodSeconds: opts.gracePeriodSeconds ?? 0,
    ignoreVolumeClaimTemplatesHashDiff: opts.ignoreVolumeClaimTemplatesHashDiff ?? false,
    ...(opts.getRevision ? { getRevision: opts.getRevision } : {}),
  });
  if (!spec) return { inPlaceUpdate: false }; // R2.1.1
  const now = validNowText(opts.now); // parsed once; the canonical text formats for free below
  if (now === undefined)
    return { inPlaceUpdate: true, error: `invalid time ${String(opts.now)}`, updateSpec: spec };
  const adapter = opts.revisionAdapter ?? statefulSetRevisionAdapter;

  let statusPod = pod; // R2.1.2
  if (needsBeUnready(pod, spec, gates)) {
    // both writes on the condition list, so the pod and its status are copied once
    const before = pod.status?.conditions ?? [];
    const w = writeGateConditionInList(before, {
      type: CONDITION_INPLACE_UPDATE_READY,
      status: 'False',
      reason: 'StartInPlaceUpdate',
      lastTransitionTime: now,
    });
    if (w.written) {
      const after = recomputeReadyInList(w.list, pod.spec?.readinessGates, now);
      if (after !== before) statusPod = withConditions(pod, after as PodCondition[]);
    }
  }

  // R2.1.3: copy-on-write — only metadata, labels and annotations are new objects here;
  // patchSpecToPod copies the containers it changes. Copies by extend, not spreads (../../json/objects.ts).
  const meta0 = statusPod.metadata ?? {};
  let p: Pod = extend(statusPod, {
    metadata: extend(meta0, { labels: adapter.writeRevision(meta0.labels ?? {}, spec.revision, gates) }),
  });
  if (opts.extraMutator) p = opts.extraMutator(p);
  const annotations: Record<string, string> = extend(p.metadata?.annotations);
  p = extend(p, { metadata: extend(p.metadata, { annotations }) });
  const state: InPlaceUpdateState = {
    revision: spec.revision,
    updateTimestamp: now,
    lastContainerStatuses: null,
  };
  if (spec.updateEnvFromMetadata) state.updateEnvFromMetadata = true;
  if (!isEmptyMap(spec.containerResources)) state.updateResources = true;
  if (!isEmptyMap(spec.containerImages)) state.updateImages = true;
  // Without a grace period patchSpecToPod writes the final state (with its batch record) into
  // this slot at once, so the text is only encoded here when it stays; the slot is still taken
  // now so the key keeps its place in the annotation order.
  annotations[ANNOTATION_INPLACE_UPDATE_STATE] =
    spec.graceSeconds <= 0 ? '' : encodeInPlaceUpdateState(state, opts.cache);
  delete annotations[ANNOTATION_INPLACE_UPDATE_STATE_LEGACY];

  if (spec.graceSeconds <= 0) {
    // p, its metadata and annotations were copied just above: the batch writes into them
    const r = applyContainerBatch(p, spec, state, now, gates, true, opts.cache);
    if (r.error !== undefined) {
      return {
        inPlaceUpdate: true,
        error: r.error,
        updateSpec: spec,
        ...(statusPod !== pod ? { pod: statusPod } : {}),
      };
    }
    p = r.pod;
    delete p.metadata!.annotations![ANNOTATION_INPLACE_UPDATE_GRACE];
    delete p.metadata!.annotations![ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY];
  } else {
    annotations[ANNOTATION_INPLACE_UPDATE_GRACE] = encodeInPlaceUpdateGrace(spec);
  }
  const result: InPlaceUpdateResult = {
    inPlaceUpdate: true,
    pod: p,
    updateSpec: spec,
    changes: changesOfUpdate(spec, opts, spec.graceSeconds <= 0, statusPod !== pod, opts.cache),
  };
  if ((opts.gracePeriodSeconds ?? 0) > 0) result.delaySeconds = spec.graceSeconds; // R2.1.4
  return result;
}

/** Options of {@link inPlaceRefresh}. */
export interface InPlaceRefreshOptions extends CompletionCheckOptions {
  now: Now;
  /** Default: {@link statefulSetRevisionAdapter} (exact label equality). */
  revisionAdapter?: RevisionAdapter;
}

/** Result of {@link inPlaceRefresh}: the new pod (the same object when unchanged). */
export interface InPlaceRefreshResult {
  pod: Pod;
  changed: boolean;
  /** When changed: where the pod may differ from the input (see `InPlaceUpdateResult.changes`). */
  changes?: PodChangeHint;
  /** Requeue after this many seconds (grace-period remainder, rounded up). */
  delaySeconds?: number;
  error?: string;
}

/** An {@link inPlaceRefresh} result that keeps the pod (a plain function: it runs per pod). */
function unchangedResult(pod: Pod, extra?: Partial<InPlaceRefreshResult>): InPlaceRefreshResult {
  return extra === undefined ? { pod, changed: false } : { pod, changed: false, ...extra };
}

function withoutGrace(pod: Pod): Pod {
  const annotations = { ...(pod.metadata?.annotations ?? {}) };
  delete annotations[ANNOTATION_INPLACE_UPDATE_GRACE];
  delete annotations[ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY];
  return { ...pod, metadata: { ...(pod.metadata ?? {}), annotations } };
}

/**
 * refresh (docs/reference/core.md 2.5): one step of progress of an in-place update, run for every pod.
 *
 * R2.5.1: with a pending grace spec — if the pod is no longer at its revision the grace
 * annotations are dropped; while `now - updateTimestamp < graceSeconds` nothing changes and
 * `delaySeconds` is the remainder rounded up; afterwards the first batch is applied (2.4).
 * R2.5.2: with a state — once the current batch is complete (R2.6.2) and its containers are
 * ready, the next batch is applied (a resources-only remainder is never applied, D.3).
 * R2.5.3: otherwise a pod with the `InPlaceUpdateReady` gate gets the condition True.
 *
 * Example: state `updateTimestamp` 00:59:50, grace 5 s, now 01:00:00 → elapsed 10 s ≥ 5 s →
 * the image is patched and the grace annotation removed; at 00:59:52 → `delaySeconds: 3`.
 */
export function inPlaceRefresh(pod: Pod, opts: InPlaceRefreshOptions): InPlaceRefreshResult {
  const gates = resolveFeatureGates(opts.featureGates);
  const adapter = opts.revisionAdapter ?? statefulSetRevisionAdapter;
  const now = validNowText(opts.now); // parsed once per call
  if (now === undefined) return unchangedResult(pod, { error: `invalid time ${String(opts.now)}` });

  const graceText = getInPlaceUpdateGraceText(pod);
  if (graceText !== undefined) {
    const grace = decodeInPlaceUpdateGrace(graceText); // R2.5.1.1
    if (!grace.ok) return unchangedResult(pod, { error: grace.error });
    const stateText = getInPlaceUpdateStateText(pod);
    if (stateText === undefined)
      return unchangedResult(pod, { error: 'pod has an in-place grace spec but no in-place update state' });
    const state = decodeInPlaceUpdateState(stateText, opts.cache);
    if (!state.ok) return unchangedResult(pod); // R2.5.1.2, Appendix D.10
    const spec = grace.value;
    if (!adapter.isPodAtRevision(pod, spec.revision))
      return { pod: withoutGrace(pod), changed: true, changes: ANNOTATIONS }; // R2.5.1.3
    const since = state.value.updateTimestamp
      ? Date.parse(state.value.updateTimestamp)
      : Number.NEGATIVE_INFINITY;
    const elapsedMs = timeOf(opts.now) - (Number.isNaN(since) ? Number.NEGATIVE_INFINITY : since);
    const graceMs = spec.graceSeconds * 1000;
    if (elapsedMs < graceMs)
      return unchangedResult(pod, { delaySeconds: Math.ceil((graceMs - elapsedMs) / 1000) }); // R2.5.1.4
    const r = patchSpecToPod(pod, spec, state.value, now, gates, opts.cache); // R2.5.1.5
    if (r.error !== undefined) return unchangedResult(pod, { error: r.error });
    return {
      pod: withoutGrace(r.pod),
      changed: true,
      changes: spec.metaDataPatch ? ANYWHERE : BATCH_CHANGES,
    };
  }

  const stateText = getInPlaceUpdateStateText(pod);
  if (stateText !== undefined) {
    const decoded = decodeInPlaceUpdateState(stateText, opts.cache); // R2.5.2.1
    if (!decoded.ok) return unchangedResult(pod, { error: decoded.error });
    const state = decoded.value;
    const checkOpts = opts.featureGates === gates ? opts : { ...opts, featureGates: gates };
    if (!containersUpdateCompleted(pod, state, checkOpts).completed) return unchangedResult(pod); // R2.5.2.2
    const nextImagesOrMeta =
      !isEmptyMap(state.nextContainerImages) || !isEmptyMap(state.nextContainerRefMetadata);
    if (nextImagesOrMeta || !isEmptyMap(state.nextContainerResources)) {
      const statuses = pod.status?.containerStatuses ?? []; // R2.5.2.3a
      for (const name of state.preCheckBeforeNext?.containersRequiredReady ?? []) {
        if (statuses.find((cs) => cs.name === name)?.ready !== true) return unchangedResult(pod);
      }
      if (nextImagesOrMeta) {
        const spec = {
          // R2.5.2.3b
          containerImages: state.nextContainerImages ?? {},
          containerRefMetadata: state.nextContainerRefMetadata ?? {},
          containerResources: state.nextContainerResources ?? {},
          updateEnvFromMetadata: state.updateEnvFromMetadata === true,
        };
        const r = patchSpecToPod(pod, spec, state, now, gates, opts.cache);
        if (r.error !== undefined) return unchangedResult(pod, { error: r.error });
        return { pod: r.pod, changed: true, changes: BATCH_CHANGES };
      }
      // R2.5.2.3c (Appendix D.3): a resources-only remainder falls through.
    }
  }

  if (hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY)) {
    const w = writeGateCondition(pod, {
      // R2.5.3
      type: CONDITION_INPLACE_UPDATE_READY,
      status: 'True',
      lastTransitionTime: now,
    });
    return w.pod === pod ? unchangedResult(pod) : { pod: w.pod, changed: true, changes: CONDITIONS };
  }
  return unchangedResult(pod);
}
