// reconcileStatefulSet: one reconcile of an Advanced StatefulSet (docs/reference/statefulset.md §4–§13)
// as a pure function — version conversion and validation, pod and revision claiming,
// revision selection, the round itself, the status write decision, history truncation and
// the update expectations carried in controllerState. One ReconcileRecorder collects the actions,
// events and requeue delay of all of them, in that order, and builds the result.
import {
  APPS_V1BETA1,
  LABEL_CONTROLLER_REVISION_HASH,
  type StatefulSet,
  type StatefulSetCondition,
  type StatefulSetStatus,
  setDefaultsStatefulSet,
} from '@kruise-ts/api';
import {
  type Action,
  freezeFeatureGates,
  type InputShape,
  invalid,
  type ObjectRef,
  parseTime,
  ReconcileRecorder,
  type ReconcileResult,
  resolveFeatureGates,
  withDistinctObserved,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { playRound } from './control';
import { claimPods, claimRevisions, statusForVersion, toV1beta1 } from './ownership';
import { getStatefulSetRevisions, truncateHistory } from './revisions';
import { statusNeedsWrite } from './status';
import {
  Reasons,
  type ReconcileStatefulSetInput,
  type ReconcileStatefulSetOptions,
  type StatefulSetControllerState,
} from './types';
import { validateStatefulSet } from './validation';

/** The reference of the set itself (events, status). */
export function statefulSetRef(set: StatefulSet): ObjectRef {
  const ref: ObjectRef = {
    apiVersion: set.apiVersion || APPS_V1BETA1,
    kind: set.kind || 'StatefulSet',
    name: set.metadata?.name ?? '',
  };
  if (set.metadata?.namespace !== undefined) ref.namespace = set.metadata.namespace;
  if (set.metadata?.uid !== undefined) ref.uid = set.metadata.uid;
  return ref;
}

/** Records `actions` one by one: spreading 100k actions into one call would overflow the call stack. */
function actAll(rec: ReconcileRecorder<StatefulSetCondition>, actions: readonly Action[]): void {
  for (const a of actions) rec.act(a);
}

function emptyStatus(): StatefulSetStatus {
  return { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
}

/**
 * R4.8 at the start of a round: expectations for another revision are discarded, and a pod seen
 * at the expected revision ticks its entry off. kruise-ts also drops entries of pods that are
 * gone (Go would wait for its 5-minute expectation timeout).
 */
export function observeExpectations(
  expectations: Record<string, string> | undefined,
  pods: readonly Pod[],
  updateRevision: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const current = Object.entries(expectations ?? {}).filter(([, rev]) => rev === updateRevision);
  if (current.length === 0) return out;
  const byName = new Map(pods.map((p) => [p.metadata?.name ?? '', p]));
  for (const [name, rev] of current) {
    const pod = byName.get(name);
    if (!pod || pod.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] === rev) continue;
    out[name] = rev;
  }
  return out;
}

/**
 * One reconcile of an Advanced StatefulSet (`apps.kruise.io/v1beta1`; v1alpha1 is converted,
 * §2.3), as a pure function of the observed objects, `now` and the feature gates:
 *
 * 1. validation of the defaulted object ({@link validateStatefulSet}); an invalid set gets a
 *    Warning event and its errors, and nothing else happens;
 * 2. member pods and revisions claimed (R4.1): owned kept, orphans adopted, mismatches released;
 * 3. revisions (R4.3–R4.5): reuse, rollback renumbering, or create;
 * 4. the round (§5: replica, condemned and rolling-update phases), reading the set as stored —
 *    the controller does not re-apply defaults (§2.1);
 * 5. status written only when R13.3 says so; history truncated (R4.6); requeue after the
 *    shortest minReadySeconds / in-place grace wait (§16), or at once (0) when the round's burst
 *    (`options.burstReplicas`, default 500 pods created or deleted) left work undone.
 *
 * An object listed twice in `pods`, `revisions` or `pvcs` counts once (the copy with the highest
 * resourceVersion), and the actions start with one `DuplicateObserved` Warning event.
 *
 * Example: a new set `web` (replicas 3, OrderedReady, no pods) → a `create` of revision
 * `web-<hash>`, a `create` of pod `web-0` (lifecycle `Normal`) and an `updateStatus` with
 * `replicas: 0`, `currentRevision = updateRevision = web-<hash>`.
 */
export function reconcileStatefulSet(
  input: ReconcileStatefulSetInput,
  options: ReconcileStatefulSetOptions = {},
): ReconcileResult<StatefulSetStatus, StatefulSetControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => statefulSetRef(i.statefulSet),
    (errors) => ({ actions: [], status: emptyStatus(), errors }),
    (screened) =>
      withDistinctObserved(
        screened,
        OBSERVED_LISTS,
        (i) => statefulSetRef(i.statefulSet),
        (i) => reconcileDistinct(i, options),
        options?.structureCache,
      ),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'statefulSet',
  lists: { pods: 'Pod', revisions: 'ControllerRevision', pvcs: 'PersistentVolumeClaim' },
  required: ['pods'],
};

/** The observed lists of the input, each reduced to one copy per object first (core `dedupeObserved`). */
const OBSERVED_LISTS = ['pods', 'revisions', 'pvcs'] as const;

/** {@link reconcileStatefulSet} on an input whose observed lists name each object once. */
function reconcileDistinct(
  input: ReconcileStatefulSetInput,
  options: ReconcileStatefulSetOptions,
): ReconcileResult<StatefulSetStatus, StatefulSetControllerState> {
  const original = input.statefulSet;
  // resolved and frozen once: every per-pod call below reads it instead of resolving its own copy
  const gates = freezeFeatureGates(resolveFeatureGates(options.featureGates));
  const setRef = statefulSetRef(original);
  const previous = original.status ?? emptyStatus();
  if (parseTime(input.now) === null) {
    return { actions: [], status: previous, errors: [invalid('now', input.now, 'must be an RFC 3339 time')] };
  }
  const errors = validateStatefulSet(
    setDefaultsStatefulSet(original, {
      featureGates: {
        TemplateNoDefaults: gates.TemplateNoDefaults,
        StatefulSetAutoDeletePVC: gates.StatefulSetAutoDeletePVC,
        StatefulSetAutoResizePVCGate: gates.StatefulSetAutoResizePVCGate,
      },
    }),
    undefined,
    { featureGates: gates },
  );
  const rec = new ReconcileRecorder<StatefulSetCondition>(setRef);
  if (errors.length > 0) {
    const message = errors.map((e) => `${e.field}: ${e.detail}`).join('; ');
    return rec.event('Warning', Reasons.FailedValidation, message).result(previous, { errors });
  }
  const set = toV1beta1(original);
  const pods = claimPods(set, input.pods);
  actAll(rec, pods.actions);
  const owned = claimRevisions(set, input.revisions ?? []);
  actAll(rec, owned.actions);
  const plan = getStatefulSetRevisions(set, owned.revisions);
  actAll(rec, plan.actions);
  const currentName = plan.currentRevision.metadata?.name ?? '';
  const updateName = plan.updateRevision.metadata?.name ?? '';
  const expectations = observeExpectations(
    input.controllerState?.inPlaceUpdateExpectations,
    pods.pods,
    updateName,
  );

  // the round records into the same recorder: its events are about the set as given (setRef)
  const round = playRound(
    {
      set,
      pods: pods.pods,
      currentRevision: plan.currentRevision,
      updateRevision: plan.updateRevision,
      revisions: plan.revisions,
      collisionCount: plan.collisionCount,
      pvcs: input.pvcs ?? [],
      now: input.now,
      featureGates: gates,
      expectations,
      burstReplicas: options.burstReplicas,
    },
    rec,
  );
  const status = statusForVersion(original.apiVersion, round.status);
  if (statusNeedsWrite(original.status, status)) {
    rec.act({ verb: 'updateStatus', target: setRef, status, reason: Reasons.UpdateStatus });
  }
  actAll(rec, truncateHistory(set, plan.revisions, pods.pods, currentName, updateName));
  const result = rec.result<StatefulSetStatus, StatefulSetControllerState>(status);
  // the state is kept once there is something to carry, and from then on (R4.8)
  if (Object.keys(round.expectations).length > 0 || input.controllerState !== undefined)
    result.controllerState = { inPlaceUpdateExpectations: round.expectations };
  return result;
}
