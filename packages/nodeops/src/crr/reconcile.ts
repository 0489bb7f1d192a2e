// The ContainerRecreateRequest controller (docs/reference/daemon.md §9.1, §9.6): the controller side of
// the recreate protocol. It completes requests that time out or lose their pod, mirrors the
// pod's container statuses into an annotation for the daemon, marks the pod not ready when asked
// to, and cleans up (active label, not-ready mark, TTL). Killing containers is the daemon's job.
import {
  ANNOTATION_CRR_SYNC_CONTAINER_STATUSES,
  ANNOTATION_CRR_UNREADY_ACQUIRED,
  CONDITION_KRUISE_POD_READY,
  type ContainerRecreateRequest,
  type ContainerRecreateRequestStatus,
  FINALIZER_CRR_UNREADY_ACQUIRED,
  type KubeObject,
  LABEL_CRR_ACTIVE,
  LABEL_CRR_POD_UID,
} from '@kruise-ts/api';
import {
  type Action,
  addNotReadyKey,
  epochMsToRFC3339,
  type InputShape,
  invalid,
  type PodReadinessMessage,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  removeNotReadyKey,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { minDefined, nowMillis, seconds, timeMillis } from '../util';

/**
 * What the ContainerRecreateRequest controller keeps per request between reconciles
 * (`controllerState`): nothing. It hands back whatever it was given, so a shell may store the
 * result's field unread.
 */
export type ContainerRecreateRequestControllerState = undefined;

/** Input of {@link reconcileContainerRecreateRequest}. */
export interface ReconcileContainerRecreateRequestInput {
  containerRecreateRequest: ContainerRecreateRequest;
  /** The pod named `spec.podName` in the CRR's namespace, if it exists. */
  pod?: Pod;
  now: string | Date;
  controllerState?: ContainerRecreateRequestControllerState;
}

/** Options of {@link reconcileContainerRecreateRequest}. */
export interface ReconcileContainerRecreateRequestOptions extends ReconcileOptions {
  /** How long a new CRR may stay in phase `""` before it is completed (default 60 s). */
  daemonResponseTimeoutSeconds?: number;
}

/** §9.1 completion messages. */
export const MESSAGE_POD_GONE = 'pod has gone';
export const MESSAGE_DAEMON_TIMEOUT = 'daemon has not responded for a long time';
export const MESSAGE_DEADLINE = 'recreating has exceeded the activeDeadlineSeconds';

/** One entry of the `sync-container-statuses` annotation (Go field order). */
export interface SyncContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  containerID: string;
}

/** §9.6: the not-ready message a CRR writes: `{userAgent: ContainerRecreateRequest, key: "<ns>/<name>"}`. */
export function crrReadinessMessage(crr: ContainerRecreateRequest): PodReadinessMessage {
  return {
    userAgent: 'ContainerRecreateRequest',
    key: `${crr.metadata.namespace ?? ''}/${crr.metadata.name ?? ''}`,
  };
}

/**
 * §9.1 item 7: for each spec container, the pod's status of it, only if it is running and
 * started at or after the CRR's creation. Example: a container restarted after the CRR was
 * created → `[{"name":"app","ready":true,"restartCount":1,"containerID":"containerd://b"}]`.
 */
export function syncContainerStatuses(crr: ContainerRecreateRequest, pod: Pod): SyncContainerStatus[] {
  const created = timeMillis(crr.metadata.creationTimestamp) ?? 0;
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const out: SyncContainerStatus[] = [];
  for (const c of crr.spec.containers ?? []) {
    const s = statuses.find((x) => x.name === c.name);
    const started = timeMillis(s?.state?.running?.startedAt);
    if (!s || started === undefined || started < created) continue;
    out.push({
      name: s.name,
      ready: s.ready,
      restartCount: s.restartCount,
      containerID: s.containerID ?? '',
    });
  }
  return out;
}

const hasGate = (pod: Pod) =>
  (pod.spec?.readinessGates ?? []).some((g) => g.conditionType === CONDITION_KRUISE_POD_READY);

function podRef(pod: Pod) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: pod.metadata?.namespace,
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid,
  };
}

function finalizersPatch(crr: ContainerRecreateRequest, finalizers: string[], reason: string): Action {
  return {
    verb: 'patch',
    target: refOf(crr),
    patchType: 'merge',
    patch: { metadata: { finalizers } },
    reason,
  };
}

/** §9.6 item 2: remove the CRR's not-ready entry from the pod, then the finalizer. */
function releaseNotReady(crr: ContainerRecreateRequest, pod: Pod | undefined, now: string): Action[] {
  const actions: Action[] = [];
  if (pod && !pod.metadata?.deletionTimestamp && hasGate(pod)) {
    const next = removeNotReadyKey(pod, crrReadinessMessage(crr), now);
    if (next !== pod)
      actions.push({
        verb: 'updateStatus',
        target: podRef(pod),
        status: next.status,
        reason: 'ReleaseNotReady',
      });
  }
  const fins = (crr.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_CRR_UNREADY_ACQUIRED);
  actions.push(finalizersPatch(crr, fins, 'RemoveFinalizer'));
  return actions;
}

/** §9.6 item 1: mark the pod not ready (when it has the gate), then record the time. */
function acquireNotReady(crr: ContainerRecreateRequest, pod: Pod, now: string): Action[] {
  const actions: Action[] = [];
  if (hasGate(pod)) {
    const fins = crr.metadata.finalizers ?? [];
    if (!fins.includes(FINALIZER_CRR_UNREADY_ACQUIRED))
      actions.push(finalizersPatch(crr, [...fins, FINALIZER_CRR_UNREADY_ACQUIRED], 'AddFinalizer'));
    const next = addNotReadyKey(pod, crrReadinessMessage(crr), now);
    if (next !== pod)
      actions.push({
        verb: 'updateStatus',
        target: podRef(pod),
        status: next.status,
        reason: 'AcquireNotReady',
      });
  }
  actions.push({
    verb: 'patch',
    target: refOf(crr),
    patchType: 'merge',
    patch: { metadata: { annotations: { [ANNOTATION_CRR_UNREADY_ACQUIRED]: now } } },
    reason: 'AcquireNotReady',
  });
  return actions;
}

/**
 * Reconciles one ContainerRecreateRequest, controller side (docs/reference/daemon.md §9.1).
 *
 * 1. Deleting or completed: release the not-ready mark if the finalizer is there; stop if
 *    deleting; remove the `active` label; then delete after `ttlSecondsAfterFinished`.
 * 2. Complete (`phase Completed`, `completionTime`, message) when the pod is gone / deleting /
 *    replaced (`pod has gone`), when the phase is still `""` 60 s after creation, or when
 *    `activeDeadlineSeconds` has passed since creation.
 * 3. Not yet `Recreating` → requeue at the nearest deadline. Otherwise write the
 *    `sync-container-statuses` annotation when it changed, acquire not-ready when
 *    `unreadyGracePeriodSeconds` is set and not yet acquired, requeue at the nearest deadline.
 *
 * Example: created 10:00:00 with `activeDeadlineSeconds: 100`, phase Recreating at 10:00:40 →
 * annotation written, requeue after 60 s; at 10:01:40 → completed with
 * `recreating has exceeded the activeDeadlineSeconds`.
 */
export function reconcileContainerRecreateRequest(
  input: ReconcileContainerRecreateRequestInput,
  options: ReconcileContainerRecreateRequestOptions = {},
): ReconcileResult<ContainerRecreateRequestStatus, ContainerRecreateRequestControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => refOf(i.containerRecreateRequest as KubeObject),
    (errors) => ({ actions: [], status: {}, errors }),
    (screened) => reconcileContainerRecreateRequestChecked(screened, options),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'containerRecreateRequest',
  singles: { pod: 'Pod' },
};

/** {@link reconcileContainerRecreateRequest} on an input held to its shape. */
function reconcileContainerRecreateRequestChecked(
  input: ReconcileContainerRecreateRequestInput,
  options: ReconcileContainerRecreateRequestOptions,
): ReconcileResult<ContainerRecreateRequestStatus, ContainerRecreateRequestControllerState> {
  const crr = input.containerRecreateRequest;
  const prev: ContainerRecreateRequestStatus = crr?.status ?? {};
  // The state is handed back as given (the controller keeps none) on every path.
  const kept = { controllerState: input.controllerState };
  if (!crr?.metadata || !crr.spec) return { actions: [], status: prev, errors: [], ...kept };
  const rec = new ReconcileRecorder(refOf(crr));
  /** The result after the recorded actions, asking to run again `ms` from now (at least 1 ms). */
  const done = (status = prev, ms?: number) =>
    rec.requeueAfter(ms === undefined ? undefined : seconds(Math.max(ms, 1))).result(status, kept);
  const nowMs = nowMillis(input.now);
  if (nowMs === undefined)
    return rec.result(prev, { errors: [invalid('now', input.now, 'not a valid time')], ...kept });
  const now = epochMsToRFC3339(nowMs);
  const pod = input.pod;

  // 1. deleting or completed
  if (crr.metadata.deletionTimestamp || prev.phase === 'Completed') {
    if ((crr.metadata.finalizers ?? []).includes(FINALIZER_CRR_UNREADY_ACQUIRED))
      rec.act(...releaseNotReady(crr, pod, now));
    if (crr.metadata.deletionTimestamp) return done();
    if (LABEL_CRR_ACTIVE in (crr.metadata.labels ?? {})) {
      rec.act({
        verb: 'patch',
        target: refOf(crr),
        patchType: 'merge',
        patch: { metadata: { labels: { [LABEL_CRR_ACTIVE]: null } } },
        reason: 'RemoveActiveLabel',
      });
      // Upstream's label patch brings the TTL reconcile at once.
      return done(prev, 1000);
    }
    const ttl = crr.spec.ttlSecondsAfterFinished;
    const doneAt = timeMillis(prev.completionTime);
    if (ttl === undefined || ttl === null || doneAt === undefined) return done();
    const left = doneAt + ttl * 1000 - nowMs;
    if (left <= 0)
      return rec.act({ verb: 'delete', target: refOf(crr), reason: 'TTLExpired' }).result(prev, kept);
    return done(prev, left);
  }

  const complete = (message: string) => {
    const status: ContainerRecreateRequestStatus = {
      ...prev,
      phase: 'Completed',
      completionTime: now,
      message,
    };
    rec.act({ verb: 'updateStatus', target: refOf(crr), status, reason: 'Complete' });
    // Upstream's status write brings the cleanup reconcile at once.
    return done(status, 1000);
  };
  // 2.–5.
  if (
    !pod ||
    pod.metadata?.deletionTimestamp ||
    pod.metadata?.uid !== crr.metadata.labels?.[LABEL_CRR_POD_UID]
  )
    return complete(MESSAGE_POD_GONE);
  const created = timeMillis(crr.metadata.creationTimestamp) ?? nowMs;
  const phase = prev.phase ?? '';
  let responseLeft: number | undefined;
  if (phase === '') {
    responseLeft = created + (options.daemonResponseTimeoutSeconds ?? 60) * 1000 - nowMs;
    if (responseLeft <= 0) return complete(MESSAGE_DAEMON_TIMEOUT);
  }
  let deadlineLeft: number | undefined;
  const ads = crr.spec.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null) {
    deadlineLeft = created + ads * 1000 - nowMs;
    if (deadlineLeft <= 0) return complete(MESSAGE_DEADLINE);
  }
  const nearest = minDefined(responseLeft, deadlineLeft);
  if (phase !== 'Recreating') return done(prev, nearest);

  // 7.–9.
  const text = JSON.stringify(syncContainerStatuses(crr, pod));
  if (crr.metadata.annotations?.[ANNOTATION_CRR_SYNC_CONTAINER_STATUSES] !== text) {
    rec.act({
      verb: 'patch',
      target: refOf(crr),
      patchType: 'merge',
      patch: { metadata: { annotations: { [ANNOTATION_CRR_SYNC_CONTAINER_STATUSES]: text } } },
      reason: 'SyncContainerStatuses',
    });
  }
  const grace = crr.spec.strategy?.unreadyGracePeriodSeconds;
  if (grace !== undefined && grace !== null && !crr.metadata.annotations?.[ANNOTATION_CRR_UNREADY_ACQUIRED])
    rec.act(...acquireNotReady(crr, pod, now));
  return done(prev, nearest);
}

/**
 * §9.1 item 1: the CRRs a pod event enqueues — on the pod's deletion, the start of its deletion or
 * a change of `status.containerStatuses`, every uncompleted, non-deleting CRR of its namespace
 * whose `crr.apps.kruise.io/pod-uid` label is the pod's UID.
 */
export function containerRecreateRequestsForPodEvent(
  change: { type: 'added' | 'modified' | 'deleted'; old?: Pod; pod: Pod },
  crrs: readonly ContainerRecreateRequest[],
): ContainerRecreateRequest[] {
  const { type, old, pod } = change;
  const relevant =
    type === 'deleted' ||
    (type === 'modified' &&
      (!!pod.metadata?.deletionTimestamp !== !!old?.metadata?.deletionTimestamp ||
        JSON.stringify(pod.status?.containerStatuses ?? []) !==
          JSON.stringify(old?.status?.containerStatuses ?? [])));
  if (!relevant || !pod.metadata?.uid) return [];
  return crrs.filter(
    (c) =>
      c.metadata.namespace === pod.metadata?.namespace &&
      !c.metadata.deletionTimestamp &&
      c.status?.phase !== 'Completed' &&
      c.metadata.labels?.[LABEL_CRR_POD_UID] === pod.metadata?.uid,
  );
}
