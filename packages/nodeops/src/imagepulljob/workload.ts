// ImagePullJobs created by workloads for image pre-download (docs/reference/daemon.md §6.4,
// docs/reference/core.md §7.4): the job a CloneSet / Advanced StatefulSet / Advanced DaemonSet creates
// for one new image, and the cleanup of a workload's jobs.
import {
  ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM,
  ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS,
  APPS_V1ALPHA1,
  type ImagePullJob,
  type KubeObject,
} from '@kruise-ts/api';
import { type Action, refOf } from '@kruise-ts/core';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { atoi, controllerRef } from '../util';

/** What {@link newWorkloadImagePullJob} needs. */
export interface WorkloadImagePullJobParams {
  /** The owning workload (its `spec.selector` and `spec.template` are read). */
  workload: KubeObject;
  /** Name of the new job. */
  name: string;
  image: string;
  /** The pods to pull for; default the workload's selector. */
  podSelector?: LabelSelector;
  /** `sandboxConfig.labels` / `sandboxConfig.annotations` given by the caller. */
  sandboxLabels?: Record<string, string>;
  sandboxAnnotations?: Record<string, string>;
}

/** Default `pullPolicy.timeoutSeconds` of pre-download jobs. */
export const PREDOWNLOAD_DEFAULT_TIMEOUT_SECONDS = 300;
/** `ttlSecondsAfterFinished` of pre-download jobs. */
export const PREDOWNLOAD_TTL_SECONDS = 600;

/**
 * §6.4: a pre-download ImagePullJob owned (controller reference) by the workload:
 * `podSelector` = the workload's selector; `parallelism` = annotation
 * `apps.kruise.io/image-predownload-parallelism` (an integer, default 1); `pullPolicy`
 * `{backoffLimit: 1, timeoutSeconds: annotation …-timeout-seconds or 300}`;
 * `completionPolicy {Always, ttlSecondsAfterFinished: 600}`; the caller's sandbox labels and
 * annotations; `pullSecrets` = the pod template's `imagePullSecrets`.
 *
 * Example: a CloneSet annotated `…-parallelism: "5"` → `parallelism: 5`, timeout 300.
 */
export function newWorkloadImagePullJob(p: WorkloadImagePullJobParams): ImagePullJob {
  const w = p.workload;
  const ann = w.metadata.annotations ?? {};
  const spec = (w.spec ?? {}) as { selector?: LabelSelector; template?: PodTemplateSpec };
  const parallelism = atoi(ann[ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM] ?? '') ?? 1;
  const timeout = atoi(ann[ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS] ?? '');
  const timeoutSeconds =
    timeout !== undefined && Math.abs(timeout) < 2 ** 31 ? timeout : PREDOWNLOAD_DEFAULT_TIMEOUT_SECONDS;
  const pullSecrets = (spec.template?.spec?.imagePullSecrets ?? [])
    .map((s) => s.name ?? '')
    .filter((n) => n !== '');
  const job: ImagePullJob = {
    apiVersion: APPS_V1ALPHA1,
    kind: 'ImagePullJob',
    metadata: {
      name: p.name,
      namespace: w.metadata.namespace,
      ownerReferences: [
        {
          apiVersion: w.apiVersion,
          kind: w.kind,
          name: w.metadata.name ?? '',
          uid: w.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      image: p.image,
      podSelector: structuredClone(p.podSelector ?? spec.selector ?? {}),
      parallelism,
      pullPolicy: { backoffLimit: 1, timeoutSeconds },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: PREDOWNLOAD_TTL_SECONDS },
      sandboxConfig: {
        labels: { ...(p.sandboxLabels ?? {}) },
        annotations: { ...(p.sandboxAnnotations ?? {}) },
      },
    },
  };
  if (pullSecrets.length > 0) job.spec.pullSecrets = pullSecrets;
  return job;
}

/** §6.4 "deleting the workload's jobs": a delete for every ImagePullJob whose controller owner is the workload. */
export function deleteWorkloadImagePullJobs(workload: KubeObject, jobs: readonly ImagePullJob[]): Action[] {
  const uid = workload.metadata.uid;
  return jobs
    .filter((j) => uid !== undefined && controllerRef(j)?.uid === uid)
    .map((j) => ({ verb: 'delete', target: refOf(j), reason: 'DeletePreDownloadJob' }) as Action);
}
