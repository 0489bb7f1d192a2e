// reconcileCloneSet: the pipeline of docs/reference/cloneset.md §1 as one pure function — defaults
// and validation, ownership, PVC cleanup, revisions, Scale or Update, status, podsToDelete
// clean-up, history truncation and the requeue time.
import {
  type CloneSet,
  type CloneSetCondition,
  type CloneSetStatus,
  setDefaultsCloneSet,
} from '@kruise-ts/api';
import {
  applyFeatureGateDependencies,
  Burst,
  freezeFeatureGates,
  type InputShape,
  invalid,
  type ObjectRef,
  parseTime,
  REQUEUE_NOW,
  ReconcileRecorder,
  type ReconcileResult,
  resolveBurstReplicas,
  resolveFeatureGates,
  toRFC3339,
  withDistinctObserved,
  withWellFormedInput,
} from '@kruise-ts/core';
import { createCloneSetCache } from './cache';
import { computePodFacts } from './facts';
import { cleanupPVCs, isOwnedBy, listPods } from './ownership';
import { resolveParams } from './params';
import { podsToDeleteOf, scalingExcludesPreparingDelete } from './predicates';
import { planRevisions, templateOf, truncateHistory } from './revisions';
import { scaleCloneSet } from './scale';
import { calculateStatus, statusNeedsWrite } from './status';
import { requeue, type SyncState } from './sync';
import {
  type CloneSetControllerState,
  Reasons,
  type ReconcileCloneSetInput,
  type ReconcileCloneSetOptions,
} from './types';
import { inPlaceUpdateOptionsFor, updateCloneSet } from './update';
import { validateCloneSet } from './validation';

/** The reference of the CloneSet itself (events, status, spec patches). */
export function cloneSetRef(cs: CloneSet): ObjectRef {
  const ref: ObjectRef = {
    apiVersion: cs.apiVersion || 'apps.kruise.io/v1alpha1',
    kind: cs.kind || 'CloneSet',
    name: cs.metadata?.name ?? '',
  };
  if (cs.metadata?.namespace !== undefined) ref.namespace = cs.metadata.namespace;
  if (cs.metadata?.uid !== undefined) ref.uid = cs.metadata.uid;
  return ref;
}

function emptyStatus(): CloneSetStatus {
  return { replicas: 0, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 0, updatedReadyReplicas: 0 };
}

/**
 * One reconcile of one CloneSet (docs/reference/cloneset.md §1), as a pure function of the observed
 * objects, `now`, the feature gates and a seed:
 *
 * 1. defaults (`setDefaultsCloneSet`) and {@link validateCloneSet}; an invalid CloneSet gets a
 *    Warning event, its errors, and no other action;
 * 2. owned active pods (orphans are never adopted; pods whose labels left the selector are
 *    released), owned non-terminating PVCs, `disablePVCReuse` cleanup (§7.4);
 * 3. revisions (§12): create the update revision or renumber it on rollback; collisionCount;
 * 4. Sync (skipped while the CloneSet is being deleted): Scale (§7, §8); only if Scale changed
 *    nothing, Update (§9, §10) — scale and update never happen in the same reconcile;
 * 5. status from the pods as listed (before this reconcile's actions, §13), written only when a
 *    tracked field changed; names of gone pods dropped from `podsToDelete`; history truncated;
 * 6. `requeueAfterSeconds`: `minReadySeconds` while available ≠ ready, in-place grace periods;
 *    the shortest wins; 0 when the burst (`options.burstReplicas`, default 500 pods created or
 *    deleted per reconcile) left pods to create or delete.
 *
 * `options.cache` ({@link createCloneSetCache}) carries what one reconcile learnt about unchanged
 * pod objects to the next; without it the result is the same, computed from scratch.
 *
 * An object listed twice in `pods`, `revisions`, `pvcs` or `nodes` counts once (the copy with the
 * highest resourceVersion), and the actions start with one `DuplicateObserved` Warning event.
 * An observed object that does not fit its kind's schema (`metadata.labels: null`) is skipped,
 * and the actions start with one `MalformedObserved` Warning event naming it and the field
 * (docs/reference/core.md §10.1; `options.structureCache` makes the check cheap); an input that is not an
 * object, or lists that are not arrays, get field errors and no actions.
 *
 * Example: the sample CloneSet (5 replicas, no pods) gives one revision `create`, five pod
 * `create`s (`sample-xxxxx`, lifecycle PreparingNormal) with their `SuccessfulCreate` events,
 * and an `updateStatus` with `replicas: 0`.
 */
export function reconcileCloneSet(
  input: ReconcileCloneSetInput,
  options: ReconcileCloneSetOptions = {},
): ReconcileResult<CloneSetStatus, CloneSetControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options.structureCache,
    (i) => cloneSetRef(i.cloneSet),
    (errors) => ({ actions: [], status: emptyStatus(), errors }),
    (i) =>
      withDistinctObserved(
        i,
        OBSERVED_LISTS,
        (d) => cloneSetRef(d.cloneSet),
        (d) => reconcileDistinct(d, options),
        options.structureCache,
      ),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'cloneSet',
  lists: { pods: 'Pod', revisions: 'ControllerRevision', pvcs: 'PersistentVolumeClaim', nodes: 'Node' },
  required: ['pods'],
};

/** The observed lists of the input, each reduced to one copy per object first (core `dedupeObserved`). */
const OBSERVED_LISTS = ['pods', 'revisions', 'pvcs', 'nodes'] as const;

/** {@link reconcileCloneSet} on an input whose observed lists name each object once. */
function reconcileDistinct(
  input: ReconcileCloneSetInput,
  options: ReconcileCloneSetOptions,
): ReconcileResult<CloneSetStatus, CloneSetControllerState> {
  const original = input.cloneSet;
  // v1.8.2 defaults for missing gates, then the dependency rules (KruiseDaemon off turns
  // InPlaceUpdateEnvFromMetadata off, §15); frozen so per-pod core calls skip re-resolving
  const gates = freezeFeatureGates(applyFeatureGateDependencies(resolveFeatureGates(options.featureGates)));
  const csRef = cloneSetRef(original);
  const previousStatus = original.status ?? emptyStatus();
  const nowDate = parseTime(input.now);
  const rec = new ReconcileRecorder<CloneSetCondition>(csRef);
  if (nowDate === null)
    return rec.result(previousStatus, { errors: [invalid('now', input.now, 'must be an RFC 3339 time')] });
  const cs = setDefaultsCloneSet(original, {
    featureGates: { TemplateNoDefaults: gates.TemplateNoDefaults },
  });
  const errors = validateCloneSet(cs, undefined, { featureGates: gates });
  if (errors.length > 0) {
    const message = errors.map((e) => `${e.field}: ${e.detail}`).join('; ');
    return rec.event('Warning', Reasons.FailedValidation, message).result(previousStatus, { errors });
  }
  const nowStr = toRFC3339(nowDate);
  const nowMs = nowDate.getTime();
  const ns = cs.metadata?.namespace ?? '';

  // §1 steps 4–7
  const cache = options.cache ?? createCloneSetCache();
  const listed = listPods(cs, input.pods, cache);
  let pvcs = (input.pvcs ?? []).filter((p) => isOwnedBy(p, cs) && !p.metadata?.deletionTimestamp);
  if (cs.spec.scaleStrategy?.disablePVCReuse) {
    const r = cleanupPVCs(cs, pvcs, [...listed.active, ...listed.released], listed.inactive);
    rec.act(...r.actions);
    pvcs = r.pvcs;
  }
  rec.act(...listed.releaseActions);

  // §1 step 8
  const owned = (input.revisions ?? []).filter((r) => isOwnedBy(r, cs));
  const plan = planRevisions(cs, owned);
  rec.act(...plan.actions);

  const namesIn = (objs: readonly { metadata?: { name?: string; namespace?: string } }[]) => {
    let set: Set<string> | undefined;
    return () => {
      if (set === undefined) {
        set = new Set<string>();
        for (const o of objs) if ((o.metadata?.namespace ?? '') === ns) set.add(o.metadata?.name ?? '');
      }
      return set;
    };
  };
  const facts = computePodFacts(listed.active, {
    updateRevision: plan.updateRevision.metadata?.name ?? '',
    podsToDelete: podsToDeleteOf(cs),
    minReadySeconds: cs.spec.minReadySeconds ?? 0,
    nowMs,
    contents: listed.activeContents,
  });

  const state: SyncState = {
    cs,
    pods: listed.active,
    facts,
    pvcs,
    usedPodNames: namesIn(input.pods),
    usedPvcNames: namesIn(input.pvcs ?? []),
    revisions: plan.revisions,
    currentRevision: plan.currentRevision,
    updateRevision: plan.updateRevision,
    currentTemplate: templateOf(plan.currentRevision, cs.spec.template),
    updateTemplate: templateOf(plan.updateRevision, cs.spec.template),
    nodes: input.nodes ?? [],
    gates,
    params: resolveParams(cs),
    excludePreparingDelete: scalingExcludesPreparingDelete(cs, options.scalingExcludePreparingDelete),
    nowMs,
    nowStr,
    seed: options.seed ?? 0,
    burst: new Burst(resolveBurstReplicas(options.burstReplicas)),
    rec,
    cache,
    inPlaceUpdateOptions: inPlaceUpdateOptionsFor({ cs, gates, now: nowStr, cache: cache.inPlace }),
  };

  // §1 step 12
  if (!cs.metadata?.deletionTimestamp) {
    const scale = scaleCloneSet(state);
    if (scale.error !== undefined) rec.setCondition(failedCondition('FailedScale', scale.error, nowStr));
    if (!scale.modified) {
      const update = updateCloneSet(state);
      if (update.error !== undefined) rec.setCondition(failedCondition('FailedUpdate', update.error, nowStr));
    }
  }

  // §1 step 13
  const status = calculateStatus(cs, listed.active, {
    updateRevision: plan.updateRevision.metadata?.name ?? '',
    currentRevision: plan.currentRevision.metadata?.name ?? '',
    collisionCount: plan.collisionCount,
    nowMs,
    conditions: rec.conditions,
    facts,
  });
  if (statusNeedsWrite(original.status, status)) {
    rec.act({ verb: 'updateStatus', target: csRef, status, reason: Reasons.UpdateStatus });
  }

  // §1 step 14
  const podsToDelete = cs.spec.scaleStrategy?.podsToDelete ?? [];
  if (podsToDelete.length > 0) {
    const present = new Set(listed.active.map((p) => p.metadata?.name ?? ''));
    const kept = podsToDelete.filter((n) => present.has(n));
    if (kept.length !== podsToDelete.length) {
      rec.act({
        verb: 'patch',
        target: csRef,
        patchType: 'merge',
        patch: { spec: { scaleStrategy: { podsToDelete: kept.length > 0 ? kept : null } } },
        reason: Reasons.PodsToDeleteCleanup,
      });
    }
  }

  // §1 step 15
  rec.act(
    ...truncateHistory(
      cs,
      plan.revisions,
      listed.active,
      plan.currentRevision.metadata?.name ?? '',
      plan.updateRevision.metadata?.name ?? '',
    ),
  );

  // §1 step 16
  const minReadySeconds = cs.spec.minReadySeconds ?? 0;
  if (minReadySeconds > 0 && status.availableReplicas !== status.readyReplicas)
    requeue(state, minReadySeconds);

  // The burst stopped a create or delete: the rest is the next reconcile's, at once.
  if (state.burst.limited) rec.requeueAfter(REQUEUE_NOW);
  return rec.result(status);
}

function failedCondition(
  type: 'FailedScale' | 'FailedUpdate',
  message: string,
  now: string,
): CloneSetCondition {
  return { type, status: 'True', lastTransitionTime: now, message };
}
