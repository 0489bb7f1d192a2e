// BroadcastJob types (apps.kruise.io/v1alpha1; v1beta1 has the same shape), as far as
// AdvancedCronJob needs them (docs/reference/advancedcronjob.md AC1.3, AC4.11, AC5.2), plus the
// CompletionPolicy the image-pull jobs share (docs/reference/daemon.md §3.1). Field names as
// OpenKruise v1.8.2 `apis/apps/v1alpha1/broadcastjob_types.go`.
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import {
  clone,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  type Obj,
  path,
  shouldInjectTemplateDefaults,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';
import { applyPodTemplateDefaults } from './podTemplateDefaults';

/** `completionPolicy.type`. */
export type CompletionPolicyType = 'Always' | 'Never';

/** `completionPolicy` of BroadcastJob, ImagePullJob and ImageListPullJob. */
export interface CompletionPolicy {
  type?: CompletionPolicyType;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
}

/** `failurePolicy.type` of a BroadcastJob. */
export type FailurePolicyType = 'Continue' | 'FailFast' | 'Pause';

/** `failurePolicy` of a BroadcastJob. */
export interface FailurePolicy {
  type?: FailurePolicyType;
  restartLimit?: number;
}

/** `spec` of a BroadcastJob. */
export interface BroadcastJobSpec {
  parallelism?: IntOrString;
  template: PodTemplateSpec;
  completionPolicy?: CompletionPolicy;
  paused?: boolean;
  failurePolicy?: FailurePolicy;
}

/** A BroadcastJob condition (`Complete` / `Failed`, AC5.2). */
export interface JobCondition {
  type: 'Complete' | 'Failed' | string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status` of a BroadcastJob. */
export interface BroadcastJobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  desired?: number;
  phase?: 'Completed' | 'Running' | 'Failed' | 'Paused' | string;
}

/** A BroadcastJob. */
export type BroadcastJob = TypedObject<BroadcastJobSpec, BroadcastJobStatus>;

/** Default BroadcastJob parallelism: unlimited (int32 max). */
export const BROADCASTJOB_DEFAULT_PARALLELISM = 2147483647;

/**
 * Returns a new BroadcastJob with defaults: pod-template defaults (on create or when the template
 * changed, unless `TemplateNoDefaults`), `completionPolicy.type` `Always`, `parallelism` unlimited
 * (2147483647) and `failurePolicy.type` `FailFast`.
 *
 * The specs only require the template defaults (advancedcronjob.md AC1.3); the other three are
 * OpenKruise's documented BroadcastJob defaults.
 */
export function setDefaultsBroadcastJob(obj: BroadcastJob, opts?: DefaultingOptions): BroadcastJob {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  if (shouldInjectTemplateDefaults(obj, opts, (o) => path(o, 'spec', 'template'))) {
    applyPodTemplateDefaults(ensureObject(spec, 'template'));
  }
  defaultEmpty(ensureObject(spec, 'completionPolicy'), 'type', 'Always');
  defaultNil(spec, 'parallelism', BROADCASTJOB_DEFAULT_PARALLELISM);
  defaultEmpty(ensureObject(spec, 'failurePolicy'), 'type', 'FailFast');
  return out as BroadcastJob;
}
