// The ImagePullJob controller's reconcile (docs/reference/daemon.md §4.2): finalize deleting and
// completed jobs (secret copies, finalizer, TTL), find the target NodeImages, sync the pull
// secrets, compute the status and spread the job to more nodes within its parallelism.
import {
  DELETION_PROTECTION_FINALIZER,
  type ImagePullJob,
  type ImagePullJobStatus,
  KRUISE_DAEMON_CONFIG_NAMESPACE,
  type KubeObject,
  type NodeImage,
  setDefaultsImagePullJob,
} from '@kruise-ts/api';
import {
  type Action,
  epochMsToRFC3339,
  type InputShape,
  invalid,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { Namespace, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { nowMillis, rngFor, sameJSON, seconds, timeMillis } from '../util';
import { syncPullSecrets } from './secrets';
import { spreadJobToNodeImages } from './spread';
import { calculateImagePullJobStatus, normalizeImagePullJobStatus } from './status';
import { getNodeImagesForJob } from './targets';
import { validateImagePullJob } from './validation';

/** Input of {@link reconcileImagePullJob}. */
export interface ReconcileImagePullJobInput {
  imagePullJob: ImagePullJob;
  /** Every NodeImage of the cluster. */
  nodeImages: readonly NodeImage[];
  /** Pods of the job's namespace (used by `podSelector` jobs). */
  pods?: readonly Pod[];
  /** The job namespace's Secrets and the copies in the daemon-config namespace. */
  secrets?: readonly Secret[];
  /** The cluster's Namespaces; when omitted the daemon-config namespace is assumed to exist. */
  namespaces?: readonly Namespace[];
  /** Pod names in the owner workload's update order (§4.1 item 1), computed by the caller. */
  podUpdateOrder?: readonly string[];
  now: string | Date;
  /** The previous result's `controllerState` (the NodeImages it last targeted, §4.1 item 5). */
  controllerState?: ImagePullJobControllerState;
}

/** Options of {@link reconcileImagePullJob}. */
export interface ReconcileImagePullJobOptions extends ReconcileOptions {
  /** Namespace of the secret copies (`KRUISE_DAEMON_CONFIG_NS`), default `kruise-daemon-config`. */
  daemonConfigNamespace?: string;
}

/** What the controller remembers per job: the NodeImages it last targeted (§4.1 item 5). */
export interface ImagePullJobControllerState {
  nodeImages: string[];
}

/** Requeue delay after a failed secret sync (upstream: rate-limited retry). */
export const SECRET_SYNC_RETRY_SECONDS = 5;

function finalizerPatch(job: ImagePullJob, finalizers: string[]): Action {
  return {
    verb: 'patch',
    target: refOf(job),
    patchType: 'merge',
    patch: { metadata: { finalizers } },
    reason: finalizers.includes(DELETION_PROTECTION_FINALIZER) ? 'AddFinalizer' : 'RemoveFinalizer',
  };
}

/** §4.2 "finalize": release the job's secret copies, then remove the finalizer. */
function finalize(job: ImagePullJob, secrets: readonly Secret[], daemonNs: string): Action[] {
  const { actions } = syncPullSecrets(job, secrets, { daemonConfigNamespace: daemonNs, rng: rngFor(0) });
  const fins = job.metadata.finalizers ?? [];
  if (fins.includes(DELETION_PROTECTION_FINALIZER))
    actions.push(
      finalizerPatch(
        job,
        fins.filter((f) => f !== DELETION_PROTECTION_FINALIZER),
      ),
    );
  return actions;
}

/**
 * Reconciles one ImagePullJob (docs/reference/daemon.md §4.2).
 *
 * 1. Deleting → release the secret copies and remove the finalizer.
 * 2. Completed → the same, then delete once `now − completionTime ≥ ttlSecondsAfterFinished`
 *    (else requeue after the remainder).
 * 3. Otherwise: ensure the finalizer; target NodeImages (§4.1); sync secrets (§4.5); status
 *    (§4.3); spread to not-synced NodeImages within `parallelism − active` (§4.4); write the
 *    status if it changed; requeue for the active deadline (at least 1 s).
 *
 * Example: parallelism 1, three matching NodeImages, nothing pulled yet → the first NodeImage
 * gets the tag (owner = the job) and the status says desired 3, active 0, `progress 0.0%`.
 */
export function reconcileImagePullJob(
  input: ReconcileImagePullJobInput,
  options: ReconcileImagePullJobOptions = {},
): ReconcileResult<ImagePullJobStatus, ImagePullJobControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => refOf(i.imagePullJob as KubeObject),
    (errors) => ({ actions: [], status: { desired: 0 }, errors }),
    (screened) => reconcileImagePullJobChecked(screened, options),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'imagePullJob',
  lists: { nodeImages: 'NodeImage', pods: 'Pod', secrets: () => undefined, namespaces: 'Namespace' },
  required: ['nodeImages'],
};

/** {@link reconcileImagePullJob} on an input held to its shape. */
function reconcileImagePullJobChecked(
  input: ReconcileImagePullJobInput,
  options: ReconcileImagePullJobOptions,
): ReconcileResult<ImagePullJobStatus, ImagePullJobControllerState> {
  const raw = input.imagePullJob;
  const prev = normalizeImagePullJobStatus(raw?.status);
  // Until the job's targets are known (§4.1 item 5), the state is handed back as given.
  const kept = { controllerState: input.controllerState };
  if (!raw?.metadata || !raw.spec) return { actions: [], status: prev, errors: [], ...kept };
  const rec = new ReconcileRecorder(refOf(raw));
  const nowMs = nowMillis(input.now);
  if (nowMs === undefined)
    return rec.result(prev, { errors: [invalid('now', input.now, 'not a valid time')], ...kept });
  const now = epochMsToRFC3339(nowMs);
  const job = setDefaultsImagePullJob(raw, { old: raw });
  const daemonNs = options.daemonConfigNamespace ?? KRUISE_DAEMON_CONFIG_NAMESPACE;
  const secrets = input.secrets ?? [];

  if (job.metadata.deletionTimestamp) return rec.act(...finalize(job, secrets, daemonNs)).result(prev, kept);
  const errors = validateImagePullJob(job);
  if (errors.length > 0) return rec.result(prev, { errors, ...kept });

  if (job.status?.completionTime) {
    rec.act(...finalize(job, secrets, daemonNs));
    const ttl = job.spec.completionPolicy?.ttlSecondsAfterFinished;
    const done = timeMillis(job.status.completionTime);
    if (ttl !== undefined && ttl !== null && done !== undefined) {
      const left = done + ttl * 1000 - nowMs;
      if (left <= 0) rec.act({ verb: 'delete', target: refOf(job), reason: 'TTLExpired' });
      else rec.requeueAfter(seconds(left));
    }
    return rec.result(prev, kept);
  }

  const fins = job.metadata.finalizers ?? [];
  if (!fins.includes(DELETION_PROTECTION_FINALIZER))
    rec.act(finalizerPatch(job, [...fins, DELETION_PROTECTION_FINALIZER]));

  const targets = getNodeImagesForJob(job, input.nodeImages ?? [], input.pods ?? [], input.podUpdateOrder);
  const next = { controllerState: { nodeImages: targets.map((n) => n.metadata.name ?? '') } };
  const rng = rngFor(options.seed);
  const synced = syncPullSecrets(job, secrets, {
    daemonConfigNamespace: daemonNs,
    namespaces: input.namespaces,
    rng,
  });
  rec.act(...synced.actions);
  if (synced.error !== undefined)
    return rec
      .event('Warning', 'SyncSecretsFailed', synced.error)
      .requeueAfter(SECRET_SYNC_RETRY_SECONDS)
      .result(prev, next);

  const { status, notSynced } = calculateImagePullJobStatus(job, targets, synced.references, nowMs);
  rec.act(...spreadJobToNodeImages(job, notSynced, status.active ?? 0, synced.references, now, rng));
  const changed = !sameJSON(status, prev);
  if (changed) rec.act({ verb: 'updateStatus', target: refOf(job), status, reason: 'UpdateStatus' });

  const cp = job.spec.completionPolicy ?? {};
  if (status.completionTime) {
    // Upstream's own status write brings the finalizing reconcile at once (§4.2 item 4).
    rec.requeueAfter(1);
  } else if (
    cp.type !== 'Never' &&
    cp.activeDeadlineSeconds !== undefined &&
    cp.activeDeadlineSeconds !== null
  ) {
    const start = timeMillis(status.startTime) ?? nowMs;
    rec.requeueAfter(Math.max(1, seconds(start + cp.activeDeadlineSeconds * 1000 - nowMs)));
  }
  return rec.result(status, next);
}
