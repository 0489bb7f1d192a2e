// The simulator's minimal batch/v1 Job controller — an APPROXIMATION of Kubernetes' Job
// controller, so an AdvancedCronJob whose template is a Job (docs/reference/advancedcronjob.md AC4) sees its
// children run and finish. The simulator's containers never exit on their own, so a pod "runs"
// for a while instead: a pod that has been Ready for `runSeconds` (default 10 s, annotation
// `sim.kruise-ts.io/job-run-seconds` on the Job) counts as succeeded; the controller adds it to
// `status.succeeded` and deletes it (the kubelet then stops it), so finished pods do not hold node
// capacity. Up to `parallelism` pods run at a time until `completions` have succeeded; then the
// Job gets the conditions `SuccessCriteriaMet` and `Complete` (True, reason `CompletionsReached`)
// and a `completionTime`. `activeDeadlineSeconds` fails the Job (`Failed`, `DeadlineExceeded`);
// `suspend: true` deletes the running pods and sets `Suspended`. At most 500 pods are created per
// reconcile (Kubernetes' `MaxPodCreateDeletePerSync`), then the Job asks to run again at once,
// so a `parallelism` of 2,147,483,647 starts 500 pods a reconcile. Not modelled: failed pods and
// `backoffLimit` (simulated pods never fail), Indexed completion mode, pod failure and success
// policies, `ttlSecondsAfterFinished`, the `batch.kubernetes.io/job-tracking` finalizer, API
// server defaulting and validation of Jobs (the selector is not generated; pods are found by
// their controller ownerReference).
import type { KubeObject } from '@kruise-ts/api';
import {
  type Action,
  canonicalJSON,
  DEFAULT_BURST_REPLICAS,
  isPodActive,
  isPodReady,
  JOB,
  POD,
  podReadySince,
  REQUEUE_NOW,
  type ReconcileResult,
  refOf,
  timeOf,
} from '@kruise-ts/core';
import type { Job, JobCondition, JobSpec, JobStatus } from 'kubernetes-types/batch/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { controlledOfKind } from './owned';
import { reconcileOfKind } from './reconcileOfKind';
import type { ControllerRegistration } from './registration';
import { deleteFirst } from './replicaset';

/** The annotation that sets how long a Job's pod runs (seconds Ready) before it counts as succeeded. */
export const JOB_RUN_SECONDS_ANNOTATION = 'sim.kruise-ts.io/job-run-seconds';
/** How long a Job's pod runs by default (seconds Ready). */
export const DEFAULT_JOB_RUN_SECONDS = 10;

/** The labels Kubernetes puts on a Job's pods. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const JOB_CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';

/** A Job's run time per pod: the annotation when it is a non-negative number, else the default. */
export function jobRunSeconds(job: Job): number {
  const v = Number(job.metadata?.annotations?.[JOB_RUN_SECONDS_ANNOTATION]);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_JOB_RUN_SECONDS;
}

const isTrue = (job: Job, type: string) =>
  (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** Whether a Job has finished: condition `Complete` or `Failed` with status True. */
export function isJobFinished(job: Job): boolean {
  return isTrue(job, 'Complete') || isTrue(job, 'Failed');
}

/** The pod a Job creates: its template plus the job-name / controller-uid labels, `<job>-` names. */
export function newJobPod(job: Job): Pod {
  const t = job.spec?.template ?? {};
  const name = job.metadata?.name ?? '';
  const uid = job.metadata?.uid ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(t.metadata ?? {}),
      generateName: `${name}-`,
      namespace: job.metadata?.namespace,
      labels: {
        ...(t.metadata?.labels ?? {}),
        [JOB_CONTROLLER_UID_LABEL]: uid,
        [JOB_NAME_LABEL]: name,
        'controller-uid': uid,
        'job-name': name,
      },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name,
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: t.spec ?? { containers: [] },
  } as Pod;
}

function condition(type: string, reason: string, message: string, now: string): JobCondition {
  return { type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason, message };
}

/** Adds a condition unless one of its type is already True. */
function withCondition(list: JobCondition[], c: JobCondition): JobCondition[] {
  if (list.some((x) => x.type === c.type && x.status === 'True')) return list;
  return [...list.filter((x) => x.type !== c.type), c];
}

/**
 * One Job reconcile from its controlled pods at `now`.
 *
 * Worked example (completions 3, parallelism 2, run 10 s): at 00:00 two pods are created; both
 * Ready since 00:05 → at 00:15 both count as succeeded (succeeded 2) and are deleted, and one more
 * pod is created (min(parallelism 2, 3 − 2 left) = 1); once it has been Ready for 10 s, succeeded
 * is 3 = completions → `Complete`, `completionTime` = now, so `kubectl get job` prints
 * `Complete   3/3`.
 */
export function reconcileJob(job: Job, owned: Pod[], now: string): ReconcileResult<JobStatus> {
  const spec: Partial<JobSpec> = job.spec ?? {};
  const prev = job.status ?? {};
  const actions: Action[] = [];
  const active = owned.filter((p) => isPodActive(p));
  const finished = isJobFinished(job);
  const nowMs = timeOf(now);
  let conditions = [...(prev.conditions ?? [])];
  let succeeded = prev.succeeded ?? 0;
  let running = active;
  let completionTime = prev.completionTime;
  let startTime = prev.startTime;
  let requeueAfterSeconds: number | undefined;
  let burstLimited = false;
  const requeue = (s: number) => {
    const v = Math.max(1, Math.ceil(s));
    requeueAfterSeconds = requeueAfterSeconds === undefined ? v : Math.min(requeueAfterSeconds, v);
  };
  const deleteAll = (pods: Pod[], reason: string) => {
    for (const p of pods) actions.push({ verb: 'delete', target: refOf(p as KubeObject), reason });
  };

  if (finished || job.metadata?.deletionTimestamp) {
    // A finished (or deleted) Job runs nothing any more.
    deleteAll(active, 'JobFinished');
    running = [];
  } else if (spec.suspend) {
    deleteAll(active, 'JobSuspended');
    running = [];
    conditions = withCondition(conditions, condition('Suspended', 'JobSuspended', 'Job suspended', now));
  } else {
    startTime ??= now;
    conditions = conditions.filter((c) => c.type !== 'Suspended');
    const completions = spec.completions ?? 1;
    const parallelism = Math.max(0, spec.parallelism ?? 1);
    const runMs = jobRunSeconds(job) * 1000;
    // A pod Ready for the run time has done its work: count it and stop it.
    const done: Pod[] = [];
    for (const p of active) {
      const since = isPodReady(p) ? podReadySince(p)?.getTime() : undefined;
      if (since === undefined) continue;
      if (since + runMs <= nowMs) done.push(p);
      else requeue((since + runMs - nowMs) / 1000);
    }
    succeeded += done.length;
    deleteAll(done, 'PodSucceeded');
    running = active.filter((p) => !done.includes(p));
    const deadline = spec.activeDeadlineSeconds;
    const started = timeOf(startTime);
    if (succeeded >= completions) {
      deleteAll(running, 'JobComplete');
      running = [];
      const msg = 'Reached expected number of succeeded pods';
      conditions = withCondition(conditions, condition('SuccessCriteriaMet', 'CompletionsReached', msg, now));
      conditions = withCondition(conditions, condition('Complete', 'CompletionsReached', msg, now));
      completionTime = now;
      requeueAfterSeconds = undefined;
    } else if (deadline !== undefined && deadline !== null && nowMs - started >= deadline * 1000) {
      deleteAll(running, 'DeadlineExceeded');
      running = [];
      const msg = 'Job was active longer than specified deadline';
      conditions = withCondition(conditions, condition('FailureTarget', 'DeadlineExceeded', msg, now));
      conditions = withCondition(conditions, condition('Failed', 'DeadlineExceeded', msg, now));
      requeueAfterSeconds = undefined;
    } else {
      const want = Math.min(parallelism, completions - succeeded);
      if (running.length < want) {
        const n = Math.min(want - running.length, DEFAULT_BURST_REPLICAS);
        for (let i = 0; i < n; i++)
          actions.push({ verb: 'create', object: newJobPod(job) as KubeObject, reason: 'JobPodCreate' });
        if (running.length + n < want) burstLimited = true;
      } else if (running.length > want) {
        const surplus = [...running].sort(deleteFirst).slice(0, running.length - want);
        deleteAll(surplus, 'TooManyActivePods');
        running = running.filter((p) => !surplus.includes(p));
      }
      if (deadline !== undefined && deadline !== null) requeue((started + deadline * 1000 - nowMs) / 1000);
    }
  }

  const creates = actions.filter((a) => a.verb === 'create').length;
  const status: JobStatus = {
    ...(prev.failed !== undefined ? { failed: prev.failed } : {}),
    ...(startTime !== undefined ? { startTime } : {}),
    ...(completionTime !== undefined ? { completionTime } : {}),
    active: running.length + creates,
    ready: running.filter((p) => isPodReady(p)).length,
    succeeded,
    terminating: owned.filter((p) => !!p.metadata?.deletionTimestamp).length,
    uncountedTerminatedPods: {},
    ...(conditions.length > 0 ? { conditions } : {}),
  };
  // `active`, `succeeded` and `failed` are omitted when 0 (omitempty), `ready` and `terminating` kept.
  if (status.active === 0) delete status.active;
  if (status.succeeded === 0) delete status.succeeded;
  if (canonicalJSON(status) !== canonicalJSON(prev))
    actions.unshift({
      verb: 'updateStatus',
      target: refOf(job as KubeObject),
      status,
      reason: 'UpdateStatus',
    });
  if (burstLimited) requeueAfterSeconds = REQUEUE_NOW;
  return {
    actions,
    status,
    errors: [],
    ...(requeueAfterSeconds !== undefined ? { requeueAfterSeconds } : {}),
  };
}

/** The batch/v1 Job controller (an approximation, see the file header). */
export const jobController: ControllerRegistration = {
  kind: 'Job',
  apiVersion: 'batch/v1',
  reconcile: reconcileOfKind(JOB, (store, job, now) =>
    reconcileJob(job, controlledOfKind(store, job, POD), now),
  ),
};
