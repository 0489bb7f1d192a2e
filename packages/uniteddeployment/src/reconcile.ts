// The UnitedDeployment reconcile (docs/reference/uniteddeployment.md §2): revisions, discovery, the adaptive
// step, allocation, partitions, provisioning and updating subset workloads (§7), status (§10) and
// the requeue delay (§11), as one pure function returning actions.
import type { KubeObject, UnitedDeploymentStatus } from '@kruise-ts/api';
import {
  formatFieldError,
  type InputShape,
  parseTime,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  withDistinctObserved,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { adaptiveSettings, manageUnschedulableStatus } from './adaptive';
import {
  allocateSubsetReplicas,
  type ExistingSubset,
  isAdaptive,
  type UnschedulableStatus,
} from './allocator';
import {
  listSubsetWorkloads,
  provisionSubsets,
  type SubsetPlan,
  sameNamespace,
  updateSubsets,
  workloadRef,
} from './manage';
import {
  claimObjects,
  convertToSubset,
  indexPods,
  isPodActive,
  type ObservedSubset,
  podsOfWorkload,
} from './observe';
import { calcNextPartitions } from './partitions';
import { udOwnerReference } from './render';
import { manageRevisions } from './revisions';
import {
  CONDITION_SUBSET_FAILURE,
  CONDITION_SUBSET_PROVISIONED,
  CONDITION_SUBSET_UPDATED,
  calculateStatus,
  ensureSubsetStatuses,
  removeUDCondition,
  setUDCondition,
  statusUnchanged,
} from './status';
import type { UDCondition, UDStatus, UnitedDeploymentObject } from './types';
import { validateUnitedDeployment } from './validation';
import { LABEL_SUBSET_NAME, type SubsetKind, templateKindOf } from './workloads';

/** Input of {@link reconcileUnitedDeployment} (docs/architecture.md). */
export interface ReconcileUnitedDeploymentInput {
  unitedDeployment: UnitedDeploymentObject;
  /** Workloads of the four subset kinds in the namespace, plus the ReplicaSets of Deployment subsets. */
  subsets: KubeObject[];
  pods: Pod[];
  revisions?: ControllerRevision[];
  now: string | Date;
  /** The previous result's `controllerState` (the requeue store of §11). */
  controllerState?: UnitedDeploymentControllerState;
}

/**
 * What upstream keeps in memory between reconciles: the requeue-duration store of §11. A reconcile
 * that fails before its end does not hand its requested delays to the queue; they stay in the store
 * (here: `requeueAt`, an absolute RFC 3339 instant) and count in the next reconcile.
 */
export interface UnitedDeploymentControllerState {
  requeueAt?: string;
  /** The adaptive verdicts of the last reconcile, per existing subset (informational). */
  unschedulable?: Record<string, UnschedulableStatus>;
}

/** The status as the API type: count fields a never-written status lacks read as 0 / "". */
function asStatus(s: UDStatus): UnitedDeploymentStatus {
  return {
    replicas: 0,
    readyReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    currentRevision: '',
    ...s,
  } as UnitedDeploymentStatus;
}

/**
 * §11: records a requested delay on the reconcile's recorder, where the smallest wins. Only a
 * positive, finite delay counts (a delay already over asks for nothing), rounded up to the
 * millisecond; rounding each request up keeps the smallest request's rounding, since rounding up
 * never reorders two delays.
 */
function requestDelay(rec: ReconcileRecorder, seconds: number): void {
  if (seconds > 0 && Number.isFinite(seconds)) rec.requeueAfter(Math.ceil(seconds * 1000) / 1000);
}

/** §11: the instant the recorded delay ends, kept in the state when a reconcile fails before its end. */
function requeueAt(rec: ReconcileRecorder, nowMs: number): string | undefined {
  const s = rec.requeueAfterSeconds;
  return s === undefined ? undefined : new Date(nowMs + s * 1000).toISOString();
}

/**
 * Reconciles one UnitedDeployment (§2). Pure: returns the actions a controller would issue (revision
 * writes, subset creates/updates/deletes, stuck-pod deletes, the status write), the status, the
 * requeue delay (§11) and the controller state. Never throws; an invalid object (§1.4) yields its
 * field errors and no action but a Warning event; an allocation error (§4) a Warning event and no
 * workload change; failures during provisioning or updating leave the status unwritten (Q5).
 *
 * A subset workload, pod or revision listed twice counts once (the copy with the highest
 * resourceVersion), and the actions start with one `DuplicateObserved` Warning event.
 *
 * Example: a new UD with replicas 10 and subsets a, b (statefulSetTemplate) → one ControllerRevision
 * create, two StatefulSet creates with 5 replicas each, and a status write with
 * `subsetReplicas {a: 5, b: 5}` and `SubsetProvisioned=True`.
 */
export function reconcileUnitedDeployment(
  input: ReconcileUnitedDeploymentInput,
  options?: ReconcileOptions,
): ReconcileResult<UnitedDeploymentStatus, UnitedDeploymentControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => refOf(i.unitedDeployment),
    (errors) => ({
      actions: [],
      status: {
        readyReplicas: 0,
        replicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        currentRevision: '',
      },
      errors,
    }),
    (screened) =>
      withDistinctObserved(
        screened,
        OBSERVED_LISTS,
        (i) => (i.unitedDeployment?.metadata ? refOf(i.unitedDeployment) : undefined),
        reconcileDistinct,
        options?.structureCache,
      ),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'unitedDeployment',
  lists: { subsets: subsetKind, pods: 'Pod', revisions: 'ControllerRevision' },
  required: ['subsets', 'pods'],
  times: ['now'],
};

/**
 * The schema a subset workload is checked against: the Kruise kinds' own; an apps/v1 workload
 * (StatefulSet, Deployment, ReplicaSet), which checkStructure has no schema for, by its metadata.
 */
function subsetKind(obj: Record<string, unknown>): string | undefined {
  const group = typeof obj.apiVersion === 'string' ? obj.apiVersion.split('/')[0] : '';
  return group === 'apps.kruise.io' && typeof obj.kind === 'string' ? obj.kind : undefined;
}

/** The observed lists of the input, each reduced to one copy per object first (core `dedupeObserved`). */
const OBSERVED_LISTS = ['subsets', 'pods', 'revisions'] as const;

/** {@link reconcileUnitedDeployment} on an input whose observed lists name each object once. */
function reconcileDistinct(
  input: ReconcileUnitedDeploymentInput,
): ReconcileResult<UnitedDeploymentStatus, UnitedDeploymentControllerState> {
  const ud = input.unitedDeployment;
  const oldStatus: UDStatus = ud.status ?? {};
  const prevState: UnitedDeploymentControllerState = input.controllerState ?? {};
  const now = input.now;
  const nowMs = parseTime(now)?.getTime() ?? 0;
  const udRef = refOf(ud);
  // the actions and events in the order issued, and the §11 requeue-duration store
  const rec = new ReconcileRecorder(udRef);
  if (ud.metadata.deletionTimestamp) return rec.result(asStatus(oldStatus), { controllerState: prevState });
  const errors = validateUnitedDeployment(ud);
  if (errors.length > 0) {
    const message = errors.map(formatFieldError).join('; ');
    return rec
      .event('Warning', 'InvalidSpec', message)
      .result(asStatus(oldStatus), { errors, controllerState: prevState });
  }

  if (prevState.requeueAt)
    requestDelay(rec, ((parseTime(prevState.requeueAt)?.getTime() ?? Number.NaN) - nowMs) / 1000);
  const unschedulable: Record<string, UnschedulableStatus> = {};
  // a failed step: a Warning event, no status write, and the delays asked for so far kept for the
  // next reconcile (§11)
  const fail = (
    reason: string,
    message: string,
  ): ReconcileResult<UnitedDeploymentStatus, UnitedDeploymentControllerState> => {
    rec.event('Warning', reason, message);
    const at = requeueAt(rec, nowMs);
    return rec.result(asStatus(oldStatus), {
      controllerState: { ...(at ? { requeueAt: at } : {}), unschedulable },
    });
  };

  // 3. subset status entries; 4. revisions; 5. kind.
  const subsetStatuses = ensureSubsetStatuses(ud);
  const kind = templateKindOf(ud.spec.template) as SubsetKind;
  const revisions = manageRevisions(ud, kind, input.revisions ?? []);
  rec.act(...revisions.actions);
  const expectedRevision = revisions.updatedRevision.metadata?.name ?? '';

  // 6. discovery (§7.1).
  const owner = udOwnerReference(ud);
  const ofKind = listSubsetWorkloads(ud, input.subsets, kind);
  const claim = claimObjects(ud, owner, ud.spec.selector, ofKind, {
    adopt: 'AdoptSubset',
    release: 'ReleaseSubset',
  });
  rec.act(...claim.actions);
  const unlabeled = claim.claimed.find((w) => !w.metadata.labels?.[LABEL_SUBSET_NAME]);
  if (unlabeled) {
    return fail(
      'DiscoverSubsetsFailed',
      `${kind} ${unlabeled.metadata.name} has no ${LABEL_SUBSET_NAME} label`,
    );
  }
  const replicaSets = input.subsets.filter((o) => o.kind === 'ReplicaSet' && sameNamespace(ud, o));
  const podIndex = indexPods(input.pods);
  const nameToSubset = new Map<string, ObservedSubset>();
  for (const w of claim.claimed) {
    const name = w.metadata.labels![LABEL_SUBSET_NAME];
    if (nameToSubset.has(name)) {
      if (!w.metadata.deletionTimestamp) {
        rec.act({ verb: 'delete', target: workloadRef(w), reason: 'DeleteDuplicateSubset' });
      }
      continue;
    }
    nameToSubset.set(
      name,
      convertToSubset(kind, w, podsOfWorkload(kind, w, podIndex, replicaSets), expectedRevision),
    );
  }

  // 7. Adaptive: the unschedulable-status step for every existing subset (§5.2).
  const adaptive = isAdaptive(ud);
  const settings = adaptiveSettings(ud.spec.topology?.scheduleStrategy?.adaptive);
  if (adaptive) {
    for (const [name, s] of nameToSubset) {
      const i = subsetStatuses.findIndex((e) => e.name === name);
      const r = manageUnschedulableStatus({
        subsetStatus: i >= 0 ? subsetStatuses[i] : undefined,
        workloadStatus: s.status,
        pods: s.pods,
        now,
        settings,
      });
      if (i >= 0 && r.subsetStatus) subsetStatuses[i] = r.subsetStatus;
      unschedulable[name] = r.unschedulableStatus;
      for (const d of r.requeueAfterSeconds) requestDelay(rec, d);
    }
  }

  // 8. allocation (§4); 9. partitions (§6).
  // E2's `running` starts from the subset's active pods rather than the workload's status.replicas,
  // which lags the pods the workload just created or deleted (README, Differences from OpenKruise, item 3).
  const existing: Record<string, ExistingSubset> = {};
  for (const [name, s] of nameToSubset) {
    existing[name] = {
      specReplicas: s.spec.replicas,
      status: {
        replicas: adaptive ? s.pods.filter(isPodActive).length : s.status.replicas,
        readyReplicas: s.status.readyReplicas,
        unschedulableStatus: unschedulable[name] ?? { unschedulable: false, pendingPods: 0 },
      },
    };
  }
  const allocation = allocateSubsetReplicas(ud, existing);
  if ('error' in allocation) return fail('AllocateReplicasFailed', allocation.error);
  const nextReplicas = allocation.replicas;
  const nextPartitions = calcNextPartitions(ud, nextReplicas);

  // 10. provisioning (§7.2).
  let conditions: UDCondition[] = [...(oldStatus.conditions ?? [])];
  const plan: SubsetPlan = { ud, kind, owner, expectedRevision, nextReplicas, nextPartitions, nameToSubset };
  const provision = provisionSubsets(plan, input.subsets);
  rec.act(...provision.actions);
  const provisionErrors = provision.errors;
  if (provisionErrors.length > 0) {
    // Q5: SubsetProvisioned=False/Error is built upstream but never persisted.
    return fail('ProvisionSubsetsFailed', provisionErrors.join('; '));
  }
  if (provision.provisioned)
    conditions = setUDCondition(conditions, { type: CONDITION_SUBSET_PROVISIONED, status: 'True' }, now);
  if (provision.created && adaptive) requestDelay(rec, settings.rescheduleCriticalSeconds); // §5.4 item 2

  // 10. updates (§7.3).
  const update = updateSubsets(plan);
  rec.act(...update.actions);
  const updateErrors = update.errors;
  if (updateErrors.length > 0) {
    if (adaptive && update.scalingUp) requestDelay(rec, settings.rescheduleCriticalSeconds); // §5.4 item 3
    return fail('UpdateSubsetsFailed', updateErrors.join('; '));
  }
  if (update.updated)
    conditions = setUDCondition(conditions, { type: CONDITION_SUBSET_UPDATED, status: 'True' }, now);
  conditions = removeUDCondition(conditions, CONDITION_SUBSET_FAILURE);

  // 11. status (§10) and requeue (§11).
  const next = calculateStatus(ud, {
    base: { ...oldStatus, subsetStatuses },
    subsets: [...nameToSubset.values()],
    nextReplicas,
    nextPartitions,
    currentRevision: revisions.currentRevision.metadata?.name ?? '',
    expectedRevision,
    conditions,
  });
  let status = oldStatus;
  if (!statusUnchanged(ud, oldStatus, next)) {
    status =
      ud.metadata.generation !== undefined ? { ...next, observedGeneration: ud.metadata.generation } : next;
    rec.act({ verb: 'updateStatus', target: udRef, status, reason: 'UpdateStatus' });
  }
  return rec.result(asStatus(status), {
    controllerState: { unschedulable } satisfies UnitedDeploymentControllerState,
  });
}
