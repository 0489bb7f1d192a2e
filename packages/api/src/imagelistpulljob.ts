// ImageListPullJob types (apps.kruise.io/v1alpha1; v1beta1 has the same shape, used by
// AdvancedCronJob v1beta1 children), field names as OpenKruise v1.8.2
// `apis/apps/v1alpha1/imagelistpulljob_types.go` (docs/reference/daemon.md §6.1), and defaulting.
import { clone, type DefaultingOptions, ensureObject, type Obj } from './defaulting';
import { applyImagePullJobTemplateDefaults, type ImagePullJobTemplate } from './imagepulljob';
import type { TypedObject } from './meta';

/** `spec` of an ImageListPullJob: the images plus the ImagePullJob template. */
export interface ImageListPullJobSpec extends ImagePullJobTemplate {
  images: string[];
}

/** One `status.failedImageStatuses` entry. */
export interface FailedImageStatus {
  imagePullJob?: string;
  name?: string;
  message?: string;
}

/** `status` of an ImageListPullJob (§6.1, §6.2 item 5). */
export interface ImageListPullJobStatus {
  startTime?: string;
  completionTime?: string;
  /** `len(images)`. */
  desired: number;
  active?: number;
  completed?: number;
  succeeded?: number;
  failedImageStatuses?: FailedImageStatus[];
}

/** An ImageListPullJob. */
export type ImageListPullJob = TypedObject<ImageListPullJobSpec, ImageListPullJobStatus>;

/**
 * Returns a new ImageListPullJob with the webhook's defaults (docs/reference/daemon.md §6.1): as the
 * ImagePullJob's (§3.3) except that neither `imagePullPolicy` nor the finalizer is set:
 * `completionPolicy.type` `Always`, `pullPolicy` `{timeoutSeconds: 600, backoffLimit: 3}`.
 */
export function setDefaultsImageListPullJob(
  obj: ImageListPullJob,
  _opts?: DefaultingOptions,
): ImageListPullJob {
  const out = clone(obj) as Obj;
  applyImagePullJobTemplateDefaults(ensureObject(out, 'spec'), false);
  return out as ImageListPullJob;
}
