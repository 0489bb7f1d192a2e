// ImagePullJob status (docs/reference/daemon.md §4.3 `calculateStatus`) and the per-node pull policy a
// job writes into its NodeImage tags (§4.6 `getImagePullPolicy`).
import type {
  ImagePullJob,
  ImagePullJobStatus,
  ImageTagPullPolicy,
  NodeImage,
  ReferenceObject,
} from '@kruise-ts/api';
import { epochMsToRFC3339, type Rng } from '@kruise-ts/core';
import { imageNameTag } from '../imageRef';
import { byString, formatFixed1, timeMillis } from '../util';

/** The four buckets of §4.3 item 2 (plus the quirk bucket `none`). */
export type NodeImageProgress = 'notSynced' | 'pulling' | 'succeeded' | 'failed' | 'none';

/** Message of a job stopped by its active deadline. */
export const MESSAGE_DEADLINE_EXCEEDED = 'job exceeds activeDeadlineSeconds';
/** Message of a completed job. */
export const MESSAGE_COMPLETED = 'job has completed';

/**
 * §4.3 item 2: where one target NodeImage stands for the job (image normalised to name, tag).
 *
 * notSynced: the image entry lacks one of the job's secret references, or the tag is missing or
 * not owned by the job (UID). Otherwise, with `v` = the spec tag's version: no status entry for
 * the image → pulling; the status tag's version ≠ v → pulling; phase Succeeded / Failed →
 * succeeded / failed; any other phase → pulling. **Quirk:** a status entry for the image without
 * this tag → `none` (counted nowhere).
 */
export function classifyNodeImage(
  job: ImagePullJob,
  nodeImage: NodeImage,
  references: readonly ReferenceObject[],
): NodeImageProgress {
  const nt = imageNameTag(job.spec.image);
  if (!nt) return 'notSynced';
  const img = nodeImage.spec?.images?.[nt.name];
  if (
    img &&
    references.some(
      (r) => !(img.pullSecrets ?? []).some((p) => p.namespace === r.namespace && p.name === r.name),
    )
  )
    return 'notSynced';
  const specTag = img?.tags?.find((t) => t.tag === nt.tag);
  if (!specTag || !(specTag.ownerReferences ?? []).some((o) => o.uid === job.metadata.uid))
    return 'notSynced';
  const v = specTag.version ?? 0;
  const st = nodeImage.status?.imageStatuses?.[nt.name];
  if (!st) return 'pulling';
  const tagStatus = (st.tags ?? []).find((t) => t.tag === nt.tag);
  if (!tagStatus) return 'none';
  if ((tagStatus.version ?? 0) !== v) return 'pulling';
  if (tagStatus.phase === 'Succeeded') return 'succeeded';
  if (tagStatus.phase === 'Failed') return 'failed';
  return 'pulling';
}

/** The result of {@link calculateImagePullJobStatus}. */
export interface ImagePullJobStatusResult {
  status: ImagePullJobStatus;
  /** Targets to spread the job to, in target order (empty once the deadline stopped the job). */
  notSynced: NodeImage[];
}

/** A status with every counter present and no empty list, for JSON comparison (§4.2 item 10). */
export function normalizeImagePullJobStatus(s: ImagePullJobStatus | undefined): ImagePullJobStatus {
  const out: ImagePullJobStatus = {
    desired: s?.desired ?? 0,
    active: s?.active ?? 0,
    succeeded: s?.succeeded ?? 0,
    failed: s?.failed ?? 0,
  };
  if (s?.startTime) out.startTime = s.startTime;
  if (s?.completionTime) out.completionTime = s.completionTime;
  if (s?.message) out.message = s.message;
  if (s?.failedNodes && s.failedNodes.length > 0) out.failedNodes = [...s.failedNodes];
  return out;
}

/**
 * §4.3 `calculateStatus` over the job's target NodeImages (in target order).
 *
 * `desired` = #targets; `startTime` kept or set to now. If the type is not `Never`,
 * `activeDeadlineSeconds` is set, not every target finished and `now − startTime ≥ deadline`,
 * the job completes now with `failed` = failed + pulling + notSynced (`failedNodes` in that
 * order, unsorted) and message `job exceeds activeDeadlineSeconds`. Otherwise `active` =
 * #pulling, `failedNodes` sorted, and a non-`Never` job with nothing left completes now (zero
 * targets complete at once). Message: `job has completed`, `job is running, no progress`
 * (desired 0) or `job is running, progress X%` with X = 100·(succeeded+failed)/desired.
 *
 * Example: 4 targets, 1 succeeded, 1 failed, 2 pulling → active 2, `progress 50.0%`.
 */
export function calculateImagePullJobStatus(
  job: ImagePullJob,
  targets: readonly NodeImage[],
  references: readonly ReferenceObject[],
  nowMs: number,
): ImagePullJobStatusResult {
  const now = epochMsToRFC3339(nowMs);
  const old = job.status;
  const startTime = old?.startTime || now;
  const groups: Record<NodeImageProgress, NodeImage[]> = {
    notSynced: [],
    pulling: [],
    succeeded: [],
    failed: [],
    none: [],
  };
  for (const ni of targets) groups[classifyNodeImage(job, ni, references)].push(ni);
  const names = (l: NodeImage[]) => l.map((n) => n.metadata.name ?? '');
  const desired = targets.length;
  const cp = job.spec.completionPolicy ?? {};
  const ads = cp.activeDeadlineSeconds;
  const nSucceeded = groups.succeeded.length;
  const nFailed = groups.failed.length;
  const status: ImagePullJobStatus = {
    startTime,
    desired,
    active: 0,
    succeeded: nSucceeded,
    failed: nFailed,
  };
  if (cp.type !== 'Never' && ads !== undefined && ads !== null && nSucceeded + nFailed !== desired) {
    const start = timeMillis(startTime) ?? nowMs;
    if (nowMs - start >= ads * 1000) {
      const failedNodes = [...names(groups.failed), ...names(groups.pulling), ...names(groups.notSynced)];
      status.completionTime = now;
      status.failed = failedNodes.length;
      status.message = MESSAGE_DEADLINE_EXCEEDED;
      if (failedNodes.length > 0) status.failedNodes = failedNodes;
      return { status: normalizeImagePullJobStatus(status), notSynced: [] };
    }
  }
  status.active = groups.pulling.length;
  const failedNodes = names(groups.failed).sort(byString);
  if (failedNodes.length > 0) status.failedNodes = failedNodes;
  if (cp.type !== 'Never' && desired - nSucceeded - nFailed === 0) status.completionTime = now;
  if (status.completionTime) status.message = MESSAGE_COMPLETED;
  else if (desired === 0) status.message = 'job is running, no progress';
  else status.message = `job is running, progress ${formatFixed1(((nSucceeded + nFailed) * 100) / desired)}%`;
  return { status: normalizeImagePullJobStatus(status), notSynced: groups.notSynced };
}

/**
 * §4.6 the tag `pullPolicy` a job writes for a node: `backoffLimit` and `timeoutSeconds` from the
 * job (3 / 600 after defaulting), and
 * - `Never` jobs: `ttlSecondsAfterFinished` = 86400 + uniform[0,1200) − 600,
 *   `activeDeadlineSeconds` = max(1800, timeoutSeconds);
 * - `Always` jobs: `activeDeadlineSeconds` = the job's, `ttlSecondsAfterFinished` = base + 300 +
 *   uniform[0,300), base = the job's TTL, else its deadline, else timeoutSeconds × backoffLimit.
 *
 * Example: an `Always` job with defaults and no TTL/deadline → base 600 × 3 = 1800, so the TTL
 * is in [2100, 2400).
 */
export function tagPullPolicyForJob(job: ImagePullJob, rng: Rng): ImageTagPullPolicy {
  const backoffLimit = job.spec.pullPolicy?.backoffLimit ?? 3;
  const timeoutSeconds = job.spec.pullPolicy?.timeoutSeconds ?? 600;
  const cp = job.spec.completionPolicy ?? {};
  if (cp.type === 'Never') {
    return {
      backoffLimit,
      timeoutSeconds,
      ttlSecondsAfterFinished: 86400 + rng.int(1200) - 600,
      activeDeadlineSeconds: Math.max(1800, timeoutSeconds),
    };
  }
  const base = cp.ttlSecondsAfterFinished ?? cp.activeDeadlineSeconds ?? timeoutSeconds * backoffLimit;
  const out: ImageTagPullPolicy = {
    backoffLimit,
    timeoutSeconds,
    ttlSecondsAfterFinished: base + 300 + rng.int(300),
  };
  if (cp.activeDeadlineSeconds !== undefined && cp.activeDeadlineSeconds !== null)
    out.activeDeadlineSeconds = cp.activeDeadlineSeconds;
  return out;
}
