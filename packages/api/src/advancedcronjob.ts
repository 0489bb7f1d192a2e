// AdvancedCronJob types (apps.kruise.io/v1beta1, the v1.9.0 storage version, and v1alpha1,
// which lacks imageListPullJobTemplate), field names as OpenKruise v1.9.0
// `apis/apps/v1beta1/advancedcronjob_types.go` (docs/reference/advancedcronjob.md §1.1), and
// defaulting (docs/reference/advancedcronjob.md AC1.3, AC1.4; v1.8.2 differences §9 item 3).
import type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { BroadcastJobSpec } from './broadcastjob';
import {
  clone,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  isObject,
  type Obj,
  path,
  shouldInjectTemplateDefaults,
} from './defaulting';
import type { ImageListPullJobSpec } from './imagelistpulljob';
import { applyImagePullJobTemplateDefaults } from './imagepulljob';
import type { TypedObject } from './meta';
import { applyPodTemplateDefaults } from './podTemplateDefaults';

/** `spec.concurrencyPolicy` (CRD enum). */
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';
/** The template kind, written to `status.type` (AC4.1). */
export type TemplateKind = 'Job' | 'BroadcastJob' | 'ImageListPullJob';

/** `spec.template.broadcastJobTemplate`. */
export interface BroadcastJobTemplateSpec {
  metadata?: ObjectMeta;
  spec: BroadcastJobSpec;
}

/** `spec.template.imageListPullJobTemplate` (v1beta1 only). */
export interface ImageListPullJobTemplateSpec {
  metadata?: ObjectMeta;
  spec: ImageListPullJobSpec;
}

/** `spec.template`: exactly one member is set (AC2.2 item 3). */
export interface CronJobTemplate {
  jobTemplate?: JobTemplateSpec;
  broadcastJobTemplate?: BroadcastJobTemplateSpec;
  /** v1beta1 only. */
  imageListPullJobTemplate?: ImageListPullJobTemplateSpec;
}

/** `spec` of an AdvancedCronJob. */
export interface AdvancedCronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  /** Default `Replace` with an imageListPullJobTemplate, else `Allow`. */
  concurrencyPolicy?: ConcurrencyPolicy;
  /** Default false. */
  paused?: boolean;
  /** Default 3. */
  successfulJobsHistoryLimit?: number;
  /** Default 1. */
  failedJobsHistoryLimit?: number;
  template: CronJobTemplate;
}

/** `status` of an AdvancedCronJob (AC4.4). */
export interface AdvancedCronJobStatus {
  type?: TemplateKind;
  active?: ObjectReference[];
  lastScheduleTime?: string;
}

/** An AdvancedCronJob (`apps.kruise.io/v1beta1`, or `v1alpha1` without imageListPullJobTemplate). */
export type AdvancedCronJob = TypedObject<AdvancedCronJobSpec, AdvancedCronJobStatus>;

/**
 * Returns a new AdvancedCronJob with the mutating webhook's defaults (docs/reference/advancedcronjob.md AC1.3):
 * 1. pod defaults in `jobTemplate.spec.template` / `broadcastJobTemplate.spec.template` (on create,
 *    or when `spec.template` changed; never with `TemplateNoDefaults`);
 * 2. AC1.4: only if `imageListPullJobTemplate.spec.completionPolicy.type` is empty:
 *    `completionPolicy.type` `Always`, `pullPolicy` `{timeoutSeconds: 600, backoffLimit: 3}`,
 *    `imagePullPolicy` `IfNotPresent`;
 * 3. `concurrencyPolicy` `Replace` with an imageListPullJobTemplate, else `Allow`;
 * 4. `paused` false, `successfulJobsHistoryLimit` 3, `failedJobsHistoryLimit` 1.
 * `startingDeadlineSeconds` and `timeZone` get no default.
 *
 * Example: `{schedule: '0 * * * *', template: {imageListPullJobTemplate: {spec: {images: ['nginx']}}}}`
 * gets `concurrencyPolicy: 'Replace'`, `paused: false`, the two history limits and the AC1.4 defaults.
 */
export function setDefaultsAdvancedCronJob(obj: AdvancedCronJob, opts?: DefaultingOptions): AdvancedCronJob {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  const template = isObject(spec.template) ? spec.template : undefined;
  if (template && shouldInjectTemplateDefaults(obj, opts, (o) => path(o, 'spec', 'template'))) {
    if (isObject(template.jobTemplate) && isObject(template.jobTemplate.spec)) {
      applyPodTemplateDefaults(ensureObject(template.jobTemplate.spec, 'template'));
    }
    if (isObject(template.broadcastJobTemplate) && isObject(template.broadcastJobTemplate.spec)) {
      applyPodTemplateDefaults(ensureObject(template.broadcastJobTemplate.spec, 'template'));
    }
  }
  const ilpj = template?.imageListPullJobTemplate;
  if (isObject(ilpj)) {
    const ilpjSpec = ensureObject(ilpj, 'spec');
    const type = path(ilpjSpec, 'completionPolicy', 'type');
    if (type === undefined || type === null || type === '') applyImagePullJobTemplateDefaults(ilpjSpec, true);
  }
  defaultEmpty(spec, 'concurrencyPolicy', isObject(ilpj) ? 'Replace' : 'Allow');
  defaultNil(spec, 'paused', false);
  defaultNil(spec, 'successfulJobsHistoryLimit', 3);
  defaultNil(spec, 'failedJobsHistoryLimit', 1);
  return out as AdvancedCronJob;
}
