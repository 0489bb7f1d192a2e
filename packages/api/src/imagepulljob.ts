// ImagePullJob types (apps.kruise.io/v1alpha1) and the job template shared with
// ImageListPullJob, field names as OpenKruise v1.8.2 `apis/apps/v1alpha1/imagepulljob_types.go`
// (docs/reference/daemon.md §3), and defaulting (docs/reference/daemon.md §3.3).
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { CompletionPolicy } from './broadcastjob';
import { DELETION_PROTECTION_FINALIZER } from './constants';
import {
  clone,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  isObject,
  type Obj,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';

/** `imagePullPolicy` of an image-pull job. */
export type ImagePullPolicy = 'Always' | 'IfNotPresent';

/** `selector` over NodeImages: either `names` or a label selector (§3.4). */
export interface ImagePullJobNodeSelector extends LabelSelector {
  names?: string[];
}

/** `podSelector`: pull on the nodes of the matching pods. */
export type ImagePullJobPodSelector = LabelSelector;

/** `pullPolicy` of a job. */
export interface PullPolicy {
  /** Default 600. */
  timeoutSeconds?: number;
  /** Default 3. */
  backoffLimit?: number;
}

/** `sandboxConfig`: labels and annotations of the CRI pull sandbox. */
export interface SandboxConfig {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The job template fields ImagePullJob and ImageListPullJob share (§3.1, §6.1). */
export interface ImagePullJobTemplate {
  pullSecrets?: string[];
  selector?: ImagePullJobNodeSelector;
  podSelector?: ImagePullJobPodSelector;
  /** Integer conversion: unparsable strings (including `"50%"`) read as 0 (§3.5). */
  parallelism?: IntOrString;
  pullPolicy?: PullPolicy;
  completionPolicy?: CompletionPolicy;
  sandboxConfig?: SandboxConfig;
  imagePullPolicy?: ImagePullPolicy;
}

/** `spec` of an ImagePullJob. */
export interface ImagePullJobSpec extends ImagePullJobTemplate {
  image: string;
}

/** `status` of an ImagePullJob (§3.2). */
export interface ImagePullJobStatus {
  startTime?: string;
  completionTime?: string;
  desired: number;
  active?: number;
  succeeded?: number;
  failed?: number;
  message?: string;
  /** NodeImage (= node) names. */
  failedNodes?: string[];
}

/** An ImagePullJob (apps.kruise.io/v1alpha1). */
export type ImagePullJob = TypedObject<ImagePullJobSpec, ImagePullJobStatus>;

/** Default `pullPolicy.timeoutSeconds` of image-pull jobs. */
export const IMAGE_PULL_DEFAULT_TIMEOUT_SECONDS = 600;
/** Default `pullPolicy.backoffLimit` of image-pull jobs. */
export const IMAGE_PULL_DEFAULT_BACKOFF_LIMIT = 3;

/**
 * Applies the shared template defaults (mutates `spec`): `completionPolicy.type` `Always`,
 * `pullPolicy` `{}` then `timeoutSeconds` 600 and `backoffLimit` 3; with `imagePullPolicy`,
 * `imagePullPolicy` `IfNotPresent` (docs/reference/daemon.md §3.3, §6.1; advancedcronjob.md AC1.4).
 */
export function applyImagePullJobTemplateDefaults(spec: Obj, imagePullPolicy: boolean): void {
  if (!isObject(spec)) return;
  defaultEmpty(ensureObject(spec, 'completionPolicy'), 'type', 'Always');
  const pp = ensureObject(spec, 'pullPolicy');
  defaultNil(pp, 'timeoutSeconds', IMAGE_PULL_DEFAULT_TIMEOUT_SECONDS);
  defaultNil(pp, 'backoffLimit', IMAGE_PULL_DEFAULT_BACKOFF_LIMIT);
  if (imagePullPolicy) defaultEmpty(spec, 'imagePullPolicy', 'IfNotPresent');
}

/**
 * Returns a new ImagePullJob with the mutating webhook's defaults (docs/reference/daemon.md §3.3):
 * `completionPolicy.type` `Always`; `pullPolicy` `{timeoutSeconds: 600, backoffLimit: 3}`;
 * `imagePullPolicy` `IfNotPresent`; on create only (no `opts.old`), the finalizer
 * `apps.kruise.io/deletion-protection`. `parallelism` is not defaulted (the controller reads
 * unset as 1, §3.5).
 */
export function setDefaultsImagePullJob(obj: ImagePullJob, opts?: DefaultingOptions): ImagePullJob {
  const out = clone(obj) as Obj;
  applyImagePullJobTemplateDefaults(ensureObject(out, 'spec'), true);
  if (opts?.old === undefined || opts.old === null) {
    const meta = ensureObject(out, 'metadata');
    const fins: unknown[] = Array.isArray(meta.finalizers) ? meta.finalizers : [];
    if (!fins.includes(DELETION_PROTECTION_FINALIZER))
      meta.finalizers = [...fins, DELETION_PROTECTION_FINALIZER];
  }
  return out as ImagePullJob;
}
