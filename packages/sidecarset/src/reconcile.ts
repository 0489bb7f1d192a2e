// reconcileSidecarSet: one round of the SidecarSet update controller (docs/reference/sidecarset.md
// §5.1) as a pure function — matched pods, revisions, status, the hot-upgrade flip, and the
// in-place upgrade of the chosen pods.
import {
  DEFAULT_KRUISE_NAMESPACE,
  type KubeObject,
  type SidecarSet,
  type SidecarSetStatus,
  setDefaultsSidecarSet,
} from '@kruise-ts/api';
import {
  diffPodForPatch,
  type InputShape,
  invalid,
  type ObjectRef,
  parseTime,
  ReconcileRecorder,
  type ReconcileResult,
  toRFC3339,
  withDistinctObserved,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { SidecarSetAnnotationCache } from './annotationCache';
import { registerLatestRevision, truncateHistory } from './history';
import { getMatchingPods } from './matching';
import { PodFacts } from './predicates';
import { calculateSidecarSetStatus, statusNeedsWrite } from './status';
import { getNextUpgradePods } from './strategy';
import {
  Reasons,
  type ReconcileSidecarSetInput,
  type ReconcileSidecarSetOptions,
  type SidecarSetControllerState,
} from './types';
import {
  applyPatchPodMetadata,
  clonePodForUpdate,
  flipHotUpgradePod,
  setUpgradableCondition,
  upgradePodSidecars,
} from './update';
import { validateSidecarSet } from './validation';

/** The reference of the SidecarSet itself (events, status). */
export function sidecarSetRef(ss: SidecarSet): ObjectRef {
  const ref: ObjectRef = {
    apiVersion: ss.apiVersion || 'apps.kruise.io/v1alpha1',
    kind: ss.kind || 'SidecarSet',
    name: ss.metadata?.name ?? '',
  };
  if (ss.metadata?.uid !== undefined) ref.uid = ss.metadata.uid;
  return ref;
}

function podRef(pod: Pod): ObjectRef {
  const ref: ObjectRef = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '' };
  if (pod.metadata?.namespace !== undefined) ref.namespace = pod.metadata.namespace;
  if (pod.metadata?.uid !== undefined) ref.uid = pod.metadata.uid;
  return ref;
}

/**
 * A revision as the object an action writes. Revisions are API objects: a listed one comes from
 * the API server and a new one from newSidecarSetRevision, both with apiVersion, kind and metadata.
 */
function revisionObject(r: ControllerRevision): ControllerRevision & KubeObject {
  return r as ControllerRevision & KubeObject;
}

function emptyStatus(): SidecarSetStatus {
  return { matchedPods: 0, updatedPods: 0, readyPods: 0, updatedReadyPods: 0 };
}

/** What happened to one pod this round, for the patch reason. */
type PodWork = { copy: Pod; flipped: boolean; upgraded: boolean };

/**
 * One reconcile of one SidecarSet (docs/reference/sidecarset.md §5.1):
 *
 * 1. validation of the (defaulted) object's own spec; an invalid SidecarSet gets a Warning
 *    event, its errors and nothing else;
 * 2. matched pods (SS-5.2), in input order;
 * 3. the latest ControllerRevision (create / renumber / custom-version label) and history
 *    truncation (SS-5.3; a truncation shortfall is a Warning event, the round continues);
 * 4. status from the matched pods as listed (SS-5.4), written when a field changed;
 * 5. the hot-upgrade flip on every matched pod (SS-5.8.3), even when NotUpdate or paused;
 * 6. stop when `updateStrategy.type` is NotUpdate, all matched pods are updated, or paused;
 * 7. selection (SS-5.6): not-upgradable pods get `SidecarSetUpgradable=False`; the chosen pods are
 *    upgraded in place (SS-5.7: images only, hash entry, update state, patchPodMetadata) and get
 *    `SidecarSetUpgradable=True`.
 *
 * Each changed pod becomes one `patch` action (JSON merge patch of metadata, spec and status;
 * the status part goes to the status subresource).
 *
 * A pod, namespace or revision listed twice counts once (the copy with the highest
 * resourceVersion), and the actions start with one `DuplicateObserved` Warning event.
 *
 * Example (upstream `TestUpdateColdUpgradeSidecar`, round 1): two pods on `test-image:v1`, S on
 * `test-image:v2` with the default maxUnavailable 1 → status `2/0/2/0`, one `InPlaceUpdate` patch
 * setting `test-pod-1`'s sidecar image to v2 and its hash entry to S's hash.
 */
export function reconcileSidecarSet(
  input: ReconcileSidecarSetInput,
  options: ReconcileSidecarSetOptions = {},
): ReconcileResult<SidecarSetStatus, SidecarSetControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => sidecarSetRef(i.sidecarSet),
    (errors) => ({ actions: [], status: emptyStatus(), errors }),
    (screened) =>
      withDistinctObserved(
        screened,
        OBSERVED_LISTS,
        (i) => sidecarSetRef(i.sidecarSet),
        (i) => reconcileDistinct(i, options),
        options?.structureCache,
      ),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'sidecarSet',
  lists: { pods: 'Pod', namespaces: 'Namespace', revisions: 'ControllerRevision' },
  required: ['pods'],
};

/** The observed lists of the input, each reduced to one copy per object first (core `dedupeObserved`). */
const OBSERVED_LISTS = ['pods', 'namespaces', 'revisions'] as const;

/** {@link reconcileSidecarSet} on an input whose observed lists name each object once. */
function reconcileDistinct(
  input: ReconcileSidecarSetInput,
  options: ReconcileSidecarSetOptions,
): ReconcileResult<SidecarSetStatus, SidecarSetControllerState> {
  const ss = input.sidecarSet;
  const ref = sidecarSetRef(ss);
  const previous = ss.status ?? emptyStatus();
  const nowDate = parseTime(input.now);
  // the round's actions and events, in the order issued
  const rec = new ReconcileRecorder(ref);
  if (nowDate === null)
    return rec.result(previous, { errors: [invalid('now', input.now, 'must be an RFC 3339 time')] });
  const now = toRFC3339(nowDate);
  const kruiseNs = input.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  const errors = validateSidecarSet(setDefaultsSidecarSet(ss), undefined, {
    featureGates: options.featureGates,
    kruiseNamespace: kruiseNs,
    skipWhitelist: true,
    skipConflicts: true,
    skipRevisionLookup: true,
  });
  if (errors.length > 0) {
    const message = errors.map((e) => `${e.field}: ${e.detail}`).join('; ');
    return rec.event('Warning', Reasons.FailedValidation, message).result(previous, { errors });
  }

  // §5.1 step 1
  const matched = getMatchingPods(ss, input.pods, input.namespaces);

  // §5.1 step 2 (SS-5.3)
  const reg = registerLatestRevision(ss, input.revisions ?? [], kruiseNs);
  for (const r of reg.create)
    rec.act({ verb: 'create', object: revisionObject(r), reason: Reasons.CreateRevision });
  for (const r of reg.update)
    rec.act({ verb: 'update', object: revisionObject(r), reason: Reasons.UpdateRevision });
  const truncated = truncateHistory(ss, reg.revisions, matched);
  for (const r of truncated.delete) {
    const target: ObjectRef = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      name: r.metadata?.name ?? '',
    };
    if (r.metadata?.namespace !== undefined) target.namespace = r.metadata.namespace;
    rec.act({ verb: 'delete', target, reason: Reasons.TruncateHistory });
  }
  if (truncated.error !== undefined) {
    rec.event('Warning', Reasons.FailedTruncateHistory, truncated.error);
  }

  // §5.1 step 3 (SS-5.4)
  const latestName = reg.latest.metadata?.name ?? '';
  // without a cache from the caller, one for this round: pods injected together share one text
  const annotationCache = options.annotationCache ?? new SidecarSetAnnotationCache();
  const facts = new PodFacts(ss, annotationCache);
  const status = calculateSidecarSetStatus(ss, matched, latestName, reg.collisionCount, facts);
  if (statusNeedsWrite(ss.status, status)) {
    rec.act({ verb: 'updateStatus', target: ref, status, reason: Reasons.UpdateStatus });
  }

  // §5.1 step 5 (SS-5.8.3)
  const work = new Map<Pod, PodWork>();
  const workOf = (pod: Pod): PodWork => {
    let w = work.get(pod);
    if (!w) {
      w = { copy: clonePodForUpdate(pod), flipped: false, upgraded: false };
      work.set(pod, w);
    }
    return w;
  };
  if ((ss.spec?.containers ?? []).some((c) => c.upgradeStrategy?.upgradeType === 'HotUpgrade')) {
    for (const pod of matched) {
      const copy = clonePodForUpdate(pod);
      if (flipHotUpgradePod(copy, ss, now)) work.set(pod, { copy, flipped: true, upgraded: false });
    }
  }

  // §5.1 steps 6–9
  const us = ss.spec?.updateStrategy ?? {};
  if (us.type !== 'NotUpdate' && status.updatedPods < status.matchedPods && !us.paused) {
    // the selection sees the flipped copies; `original` leads a copy back to the listed pod
    const current = work.size === 0 ? matched : matched.map((p) => work.get(p)?.copy ?? p);
    const original = new Map<Pod, Pod>();
    for (const [pod, w] of work) original.set(w.copy, pod);
    const next = getNextUpgradePods(ss, current, facts);
    for (const p of next.notUpgradable)
      setUpgradableCondition(workOf(original.get(p) ?? p).copy, ss, false, now);
    for (const p of next.upgrade) {
      const w = workOf(original.get(p) ?? p);
      upgradePodSidecars(w.copy, ss, now, latestName, annotationCache);
      const err = applyPatchPodMetadata(w.copy, ss);
      if (err !== undefined) {
        rec.event(
          'Warning',
          Reasons.FailedPatchPodMetadata,
          `pod ${w.copy.metadata?.namespace ?? ''}/${w.copy.metadata?.name ?? ''}: ${err}`,
        );
      }
      setUpgradableCondition(w.copy, ss, true, now);
      w.upgraded = true;
    }
  }

  for (const pod of matched) {
    const w = work.get(pod);
    if (!w) continue;
    const patch = diffPodForPatch(pod, w.copy);
    if (Object.keys(patch).length === 0) continue;
    const reason = w.upgraded
      ? Reasons.InPlaceUpdate
      : w.flipped
        ? Reasons.HotUpgradeReset
        : Reasons.NotUpgradable;
    rec.act({ verb: 'patch', target: podRef(pod), patchType: 'merge', patch, reason });
  }
  return rec.result(status);
}
