// The ImageListPullJob controller's reconcile (docs/reference/daemon.md §6.2): one child ImagePullJob per
// image, recreated when the template changes, and a status summarising the children.
import {
  APPS_V1ALPHA1,
  type ImageListPullJob,
  type ImageListPullJobStatus,
  type ImagePullJob,
  type ImagePullJobTemplate,
  type KubeObject,
  LABEL_CONTROLLER_REVISION_HASH,
  setDefaultsImageListPullJob,
} from '@kruise-ts/api';
import {
  type Action,
  computeHash,
  epochMsToRFC3339,
  type InputShape,
  invalid,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  withWellFormedInput,
} from '@kruise-ts/core';
import { validateImageListPullJob } from '../imagepulljob/validation';
import { cloneJSON, controllerRef, nowMillis, sameJSON, seconds, sortByName, timeMillis } from '../util';

/**
 * What the ImageListPullJob controller keeps per job between reconciles (`controllerState`):
 * nothing. It hands back whatever it was given, so a shell may store the result's field unread.
 */
export type ImageListPullJobControllerState = undefined;

/** Input of {@link reconcileImageListPullJob}. */
export interface ReconcileImageListPullJobInput {
  imageListPullJob: ImageListPullJob;
  /** The ImagePullJobs of the list job's namespace. */
  imagePullJobs: readonly ImagePullJob[];
  now: string | Date;
  controllerState?: ImageListPullJobControllerState;
}

/** Message of a child that failed on some nodes (§6.2 item 5). */
export function failedChildMessage(child: string): string {
  return `Please check for details which nodes failed by 'kubectl get ImagePullJob ${child}'.`;
}

/** The ImagePullJob template of a list job: its spec without `images`. */
export function listJobTemplate(job: ImageListPullJob): ImagePullJobTemplate {
  const { images: _images, ...template } = job.spec ?? ({} as ImageListPullJob['spec']);
  return template;
}

/**
 * §6.2 item 1: the template hash written to `controller-revision-hash` (FNV-32a of the
 * template, safely encoded; the bytes hashed are kruise-ts's canonical JSON, not Go's).
 */
export function listJobTemplateHash(job: ImageListPullJob): string {
  return computeHash(listJobTemplate(job));
}

/** §6.2 item 4: the children (controller reference to the list job, not deleting), keyed by image. */
export function listJobChildren(
  job: ImageListPullJob,
  jobs: readonly ImagePullJob[],
): Map<string, ImagePullJob> {
  const out = new Map<string, ImagePullJob>();
  for (const j of sortByName(jobs)) {
    if (j.metadata.deletionTimestamp) continue;
    if (controllerRef(j)?.uid !== job.metadata.uid || job.metadata.uid === undefined) continue;
    out.set(j.spec?.image ?? '', j);
  }
  return out;
}

/**
 * §6.2 item 5, over the children that have a `startTime`: `active` (status.active > 0),
 * `completed` (desired = succeeded + failed), `succeeded` (desired = succeeded), one
 * `failedImageStatuses` entry per child with failures; `startTime` kept or now; a non-`Never`
 * list job completes when every image's child completed (`desired == completed`).
 *
 * Example: images [a, b]; a's child 3/3 succeeded, b's child 2 desired, 1 succeeded, 1 failed →
 * completed 2, succeeded 1, one failed entry, completionTime = now.
 */
export function calculateImageListPullJobStatus(
  job: ImageListPullJob,
  children: ReadonlyMap<string, ImagePullJob>,
  nowMs: number,
): ImageListPullJobStatus {
  const status: ImageListPullJobStatus = {
    startTime: job.status?.startTime || epochMsToRFC3339(nowMs),
    desired: (job.spec?.images ?? []).length,
    active: 0,
    completed: 0,
    succeeded: 0,
  };
  const failed: NonNullable<ImageListPullJobStatus['failedImageStatuses']> = [];
  for (const [image, child] of children) {
    const s = child.status;
    if (!s?.startTime) continue;
    if ((s.active ?? 0) > 0) status.active = (status.active ?? 0) + 1;
    if (s.desired === (s.succeeded ?? 0) + (s.failed ?? 0)) status.completed = (status.completed ?? 0) + 1;
    if (s.desired === (s.succeeded ?? 0)) status.succeeded = (status.succeeded ?? 0) + 1;
    if ((s.failed ?? 0) > 0) {
      const name = child.metadata.name ?? '';
      failed.push({ imagePullJob: name, name: image, message: failedChildMessage(name) });
    }
  }
  if (failed.length > 0) status.failedImageStatuses = failed;
  if (job.status?.completionTime) status.completionTime = job.status.completionTime;
  else if (job.spec?.completionPolicy?.type !== 'Never' && status.desired === status.completed)
    status.completionTime = epochMsToRFC3339(nowMs);
  return status;
}

function isConsistent(child: ImagePullJob, hash: string, template: ImagePullJobTemplate): boolean {
  const label = child.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
  if (label !== undefined) return label === hash;
  const { image: _image, ...childTemplate } = child.spec;
  return sameJSON(childTemplate, template);
}

function newChild(
  job: ImageListPullJob,
  image: string,
  hash: string,
  template: ImagePullJobTemplate,
): ImagePullJob {
  return {
    apiVersion: APPS_V1ALPHA1,
    kind: 'ImagePullJob',
    metadata: {
      generateName: `${job.metadata.name}-`,
      namespace: job.metadata.namespace,
      labels: { [LABEL_CONTROLLER_REVISION_HASH]: hash },
      ownerReferences: [
        {
          apiVersion: job.apiVersion,
          kind: job.kind,
          name: job.metadata.name ?? '',
          uid: job.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { ...cloneJSON(template), image },
  };
}

/**
 * Reconciles one ImageListPullJob (docs/reference/daemon.md §6.2): patch the `controller-revision-hash`
 * label; a completed job is deleted after `ttlSecondsAfterFinished`; otherwise create a child
 * for every image without a consistent one, delete inconsistent children and those of removed
 * images, and write the status when it changed.
 *
 * Example: images [nginx, redis] and no children → two creates (`generateName "<job>-"`,
 * label `controller-revision-hash`, controller owner reference, `spec.image` set).
 */
export function reconcileImageListPullJob(
  input: ReconcileImageListPullJobInput,
  options: ReconcileOptions = {},
): ReconcileResult<ImageListPullJobStatus, ImageListPullJobControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => refOf(i.imageListPullJob as KubeObject),
    (errors) => ({ actions: [], status: { desired: 0 }, errors }),
    (screened) => reconcileImageListPullJobChecked(screened, options),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'imageListPullJob',
  lists: { imagePullJobs: 'ImagePullJob' },
  required: ['imagePullJobs'],
};

/** {@link reconcileImageListPullJob} on an input held to its shape. */
function reconcileImageListPullJobChecked(
  input: ReconcileImageListPullJobInput,
  _options: ReconcileOptions,
): ReconcileResult<ImageListPullJobStatus, ImageListPullJobControllerState> {
  const raw = input.imageListPullJob;
  const prev: ImageListPullJobStatus = raw?.status ?? { desired: 0 };
  // The state is handed back as given (the controller keeps none) on every path.
  const kept = { controllerState: input.controllerState };
  if (!raw?.metadata || !raw.spec || raw.metadata.deletionTimestamp)
    return { actions: [], status: prev, errors: [], ...kept };
  const rec = new ReconcileRecorder(refOf(raw));
  const nowMs = nowMillis(input.now);
  if (nowMs === undefined)
    return rec.result(prev, { errors: [invalid('now', input.now, 'not a valid time')], ...kept });
  const job = setDefaultsImageListPullJob(raw);
  const errors = validateImageListPullJob(job);
  if (errors.length > 0) return rec.result(prev, { errors, ...kept });

  const hash = listJobTemplateHash(job);
  if (job.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] !== hash) {
    rec.act({
      verb: 'patch',
      target: refOf(job),
      patchType: 'merge',
      patch: { metadata: { labels: { [LABEL_CONTROLLER_REVISION_HASH]: hash } } },
      reason: 'UpdateRevisionHash',
    });
  }
  const ttl = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  if (job.status?.completionTime) {
    const done = timeMillis(job.status.completionTime);
    if (ttl !== undefined && ttl !== null && done !== undefined) {
      const left = done + ttl * 1000 - nowMs;
      if (left <= 0) rec.act({ verb: 'delete', target: refOf(job), reason: 'TTLExpired' });
      else rec.requeueAfter(seconds(left));
    }
    return rec.result(prev, kept);
  }

  const children = listJobChildren(job, input.imagePullJobs ?? []);
  const status = calculateImageListPullJobStatus(job, children, nowMs);
  const template = listJobTemplate(job);
  const images = new Set(job.spec.images);
  const deletes: Action[] = [];
  const creates: Action[] = [];
  for (const [image, child] of children) {
    if (!images.has(image) || !isConsistent(child, hash, template))
      deletes.push({ verb: 'delete', target: refOf(child), reason: 'DeleteImagePullJob' });
  }
  for (const image of job.spec.images) {
    const child = children.get(image);
    if (!child || !isConsistent(child, hash, template))
      creates.push({
        verb: 'create',
        object: newChild(job, image, hash, template),
        reason: 'CreateImagePullJob',
      });
  }
  rec.act(...creates, ...deletes);
  for (const [n, verb] of [
    [creates.length, 'Create'],
    [deletes.length, 'Delete'],
  ] as const) {
    if (n > 0) rec.event('Normal', `${verb}ImagePullJob`, `${verb} ${n} ImagePullJob`);
  }
  if (!sameJSON(status, prev))
    rec.act({ verb: 'updateStatus', target: refOf(job), status, reason: 'UpdateStatus' });
  if (status.completionTime && ttl !== undefined && ttl !== null) rec.requeueAfter(Math.max(1, ttl));
  return rec.result(status, kept);
}
