// Advanced StatefulSet types (apps.kruise.io/v1beta1, the hub, and v1alpha1), field
// names as OpenKruise v1.8.2 `apis/apps/v1beta1/statefulset_types.go` and
// `apis/apps/v1alpha1/statefulset_types.go` (docs/reference/statefulset.md §2), and defaulting
// (`apis/apps/defaults/v1beta1.go`, docs/reference/statefulset.md §2.1).
import type { PersistentVolumeClaim, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { APPS_V1ALPHA1 } from './constants';
import {
  clone,
  DEFAULT_REVISION_HISTORY_LIMIT,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  gate,
  isObject,
  type Obj,
  path,
  shouldInjectTemplateDefaults,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';
import { applyPersistentVolumeClaimDefaults, applyPodTemplateDefaults } from './podTemplateDefaults';
import type { InPlaceUpdateStrategy, Lifecycle, UpdatePriorityStrategy } from './pub';

/** `spec.podManagementPolicy`. */
export type PodManagementPolicyType = 'OrderedReady' | 'Parallel';
/** `spec.updateStrategy.type`. */
export type StatefulSetUpdateStrategyType = 'RollingUpdate' | 'OnDelete';
/** `rollingUpdate.podUpdatePolicy`: how one pod is updated (docs/reference/statefulset.md §10). */
export type PodUpdateStrategyType = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly';
/** PVC retention policy values (R12.2). */
export type PersistentVolumeClaimRetentionPolicyType = 'Retain' | 'Delete';
/** `volumeClaimUpdateStrategy.type` (gate StatefulSetAutoResizePVCGate). */
export type VolumeClaimUpdateStrategyType = 'OnDelete' | 'OnPodRollingUpdate';

/** `rollingUpdate.unorderedUpdate` (Parallel only; docs/reference/statefulset.md §9.2). */
export interface UnorderedUpdateStrategy {
  priorityStrategy?: UpdatePriorityStrategy;
}

/** `updateStrategy.rollingUpdate`. */
export interface RollingUpdateStatefulSetStrategy {
  /** Pods kept at the current revision (count-based, docs/reference/statefulset.md §2.3). Default 0. */
  partition?: number;
  /** Default 1. */
  maxUnavailable?: IntOrString;
  /** Default `ReCreate`. */
  podUpdatePolicy?: PodUpdateStrategyType;
  paused?: boolean;
  unorderedUpdate?: UnorderedUpdateStrategy;
  inPlaceUpdateStrategy?: InPlaceUpdateStrategy;
  /** 0..300, default 0. */
  minReadySeconds?: number;
}

/** `spec.updateStrategy`. */
export interface StatefulSetUpdateStrategy {
  type?: StatefulSetUpdateStrategyType;
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
}

/** `spec.scaleStrategy` (v1beta1 only). */
export interface StatefulSetScaleStrategy {
  maxUnavailable?: IntOrString;
}

/** `spec.persistentVolumeClaimRetentionPolicy` (v1beta1 only). */
export interface StatefulSetPersistentVolumeClaimRetentionPolicy {
  whenDeleted?: PersistentVolumeClaimRetentionPolicyType;
  whenScaled?: PersistentVolumeClaimRetentionPolicyType;
}

/** `spec.ordinals` (v1beta1 only; gate StatefulSetStartOrdinal). */
export interface StatefulSetOrdinals {
  start?: number;
}

/** `spec.volumeClaimUpdateStrategy` (v1beta1 only). */
export interface VolumeClaimUpdateStrategy {
  type?: VolumeClaimUpdateStrategyType;
}

/**
 * The Advanced StatefulSet spec fields an update may change; every other spec field is
 * immutable. The StatefulSet's own validation and a UnitedDeployment's update check of its
 * Advanced StatefulSet subsets both read this list (docs/reference/statefulset.md R2.2 item 9).
 */
export const ADVANCED_STATEFULSET_MUTABLE_SPEC_FIELDS = [
  'replicas',
  'ordinals',
  'template',
  'reserveOrdinals',
  'lifecycle',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'volumeClaimTemplates',
  'volumeClaimUpdateStrategy',
  'updateStrategy',
  'scaleStrategy',
] as const;

/** `spec` of an Advanced StatefulSet (v1beta1; v1alpha1 has a subset, §2.3). */
export interface StatefulSetSpec {
  /** Non-reserved pods wanted; default 1. */
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  serviceName?: string;
  podManagementPolicy?: PodManagementPolicyType;
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  /** v1beta1 only: ints, or `"a-b"` ranges (R3.3). */
  reserveOrdinals?: IntOrString[];
  /** v1beta1 only. */
  lifecycle?: Lifecycle;
  /** v1beta1 only. */
  scaleStrategy?: StatefulSetScaleStrategy;
  /** v1beta1 only. */
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  /** v1beta1 only. */
  ordinals?: StatefulSetOrdinals;
  /** v1beta1 only. */
  volumeClaimUpdateStrategy?: VolumeClaimUpdateStrategy;
}

/** A StatefulSet status condition (`FailedCreatePod` / `FailedUpdatePod`, §13.2). */
export interface StatefulSetCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** One `status.volumeClaims` entry (§13.2). */
export interface VolumeClaimStatus {
  volumeClaimName: string;
  compatibleReplicas: number;
  compatibleReadyReplicas: number;
}

/** `status` of an Advanced StatefulSet (§13). v1alpha1 lacks the updatedReady/Available counts and volumeClaims. */
export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas?: number;
  updatedAvailableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: StatefulSetCondition[];
  labelSelector?: string;
  volumeClaims?: VolumeClaimStatus[];
}

/** An Advanced StatefulSet (`apps.kruise.io/v1beta1`; `v1alpha1` accepted). */
export type StatefulSet = TypedObject<StatefulSetSpec, StatefulSetStatus>;

/**
 * Returns a new Advanced StatefulSet with the mutating webhook's defaults (docs/reference/statefulset.md §2.1):
 * `podManagementPolicy` `OrderedReady`; `updateStrategy.type` `RollingUpdate` (creating
 * `rollingUpdate`); for RollingUpdate: `partition` 0, `maxUnavailable` 1, `podUpdatePolicy`
 * `ReCreate`, `minReadySeconds` 0; with gate `StatefulSetAutoDeletePVC` (default on, v1beta1 only)
 * `persistentVolumeClaimRetentionPolicy` `{whenDeleted: Retain, whenScaled: Retain}`; `replicas` 1;
 * `revisionHistoryLimit` 10; pod/PVC template defaults (unless `TemplateNoDefaults`, and on update
 * only when the template changed); with gate `StatefulSetAutoResizePVCGate` (v1beta1 only)
 * `volumeClaimUpdateStrategy.type` `OnDelete`.
 */
export function setDefaultsStatefulSet(obj: StatefulSet, opts?: DefaultingOptions): StatefulSet {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  const v1alpha1 = out.apiVersion === APPS_V1ALPHA1;
  defaultEmpty(spec, 'podManagementPolicy', 'OrderedReady');
  const us = ensureObject(spec, 'updateStrategy');
  if (us.type === undefined || us.type === null || us.type === '') {
    us.type = 'RollingUpdate';
    us.rollingUpdate = isObject(us.rollingUpdate) ? us.rollingUpdate : {};
  }
  if (us.type === 'RollingUpdate') {
    const ru = ensureObject(us, 'rollingUpdate');
    defaultNil(ru, 'partition', 0);
    defaultNil(ru, 'maxUnavailable', 1);
    defaultEmpty(ru, 'podUpdatePolicy', 'ReCreate');
    defaultNil(ru, 'minReadySeconds', 0);
  }
  if (!v1alpha1 && gate(opts, 'StatefulSetAutoDeletePVC')) {
    const pol = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
    defaultEmpty(pol, 'whenDeleted', 'Retain');
    defaultEmpty(pol, 'whenScaled', 'Retain');
  }
  defaultNil(spec, 'replicas', 1);
  defaultNil(spec, 'revisionHistoryLimit', DEFAULT_REVISION_HISTORY_LIMIT);
  if (shouldInjectTemplateDefaults(obj, opts, (o) => path(o, 'spec', 'template'))) {
    applyPodTemplateDefaults(ensureObject(spec, 'template'));
    if (Array.isArray(spec.volumeClaimTemplates)) {
      for (const pvc of spec.volumeClaimTemplates) applyPersistentVolumeClaimDefaults(pvc);
    }
  }
  if (!v1alpha1 && gate(opts, 'StatefulSetAutoResizePVCGate')) {
    defaultEmpty(ensureObject(spec, 'volumeClaimUpdateStrategy'), 'type', 'OnDelete');
  }
  return out as StatefulSet;
}
