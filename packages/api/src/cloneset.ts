// CloneSet types (apps.kruise.io/v1alpha1), field names as OpenKruise v1.8.2
// `apis/apps/v1alpha1/cloneset_types.go` (docs/reference/cloneset.md §2, §13).
import type { PersistentVolumeClaim, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import {
  clone,
  DEFAULT_REVISION_HISTORY_LIMIT,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  type Obj,
  path,
  shouldInjectTemplateDefaults,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';
import { applyPersistentVolumeClaimDefaults, applyPodTemplateDefaults } from './podTemplateDefaults';
import type { InPlaceUpdateStrategy, Lifecycle, UpdatePriorityStrategy, UpdateScatterStrategy } from './pub';

/** How CloneSet updates a pod (docs/reference/cloneset.md §9.5). Any other value behaves like ReCreate. */
export type CloneSetUpdateStrategyType = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly';

/** The update strategy type values. */
export const CloneSetUpdateStrategyTypes = {
  ReCreate: 'ReCreate',
  InPlaceIfPossible: 'InPlaceIfPossible',
  InPlaceOnly: 'InPlaceOnly',
} as const;

/** `spec.scaleStrategy` (docs/reference/cloneset.md §2.1). */
export interface CloneSetScaleStrategy {
  /** Pod names to delete (§4.4). */
  podsToDelete?: string[];
  /** Limits scale-up while pods are unavailable; unset = unlimited. */
  maxUnavailable?: IntOrString;
  /** Clean up PVCs of dead pods instead of reusing them (§7.4). */
  disablePVCReuse?: boolean;
}

/** `spec.updateStrategy` (docs/reference/cloneset.md §2.1). */
export interface CloneSetUpdateStrategy {
  /** Default `ReCreate`. */
  type?: CloneSetUpdateStrategyType;
  /** Pods that stay off the update revision (§5.2). Default 0. */
  partition?: IntOrString;
  /** Unavailability budget. Default `"20%"`. */
  maxUnavailable?: IntOrString;
  /** Extra pods above replicas. Default 0. */
  maxSurge?: IntOrString;
  /** Stops pod updates. */
  paused?: boolean;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: UpdateScatterStrategy;
  inPlaceUpdateStrategy?: InPlaceUpdateStrategy;
}

/** `spec` of a CloneSet. */
export interface CloneSetSpec {
  /** Desired pods; webhook default 1. */
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  scaleStrategy?: CloneSetScaleStrategy;
  updateStrategy?: CloneSetUpdateStrategy;
  /** Non-live revisions kept (§12); default 10. */
  revisionHistoryLimit?: number;
  /** Default 0. */
  minReadySeconds?: number;
  lifecycle?: Lifecycle;
}

/** CloneSet condition types written by the controller (§13). */
export type CloneSetConditionType = 'FailedScale' | 'FailedUpdate';

/** A CloneSet status condition. */
export interface CloneSetCondition {
  type: CloneSetConditionType | string;
  status: 'True' | 'False' | 'Unknown';
  /** RFC 3339. */
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status` of a CloneSet (docs/reference/cloneset.md §13). */
export interface CloneSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas?: number;
  expectedUpdatedReplicas?: number;
  updateRevision?: string;
  currentRevision?: string;
  collisionCount?: number;
  conditions?: CloneSetCondition[];
  labelSelector?: string;
}

/** A CloneSet (apps.kruise.io/v1alpha1). */
export interface CloneSet extends TypedObject<CloneSetSpec, CloneSetStatus> {
  apiVersion: 'apps.kruise.io/v1alpha1' | string;
  kind: 'CloneSet' | string;
}

/** Default `updateStrategy.maxUnavailable` of a CloneSet (docs/reference/cloneset.md §2.1). */
export const CLONESET_DEFAULT_MAX_UNAVAILABLE = '20%';

/**
 * Returns a new CloneSet with the mutating webhook's defaults (docs/reference/cloneset.md §2.1):
 * `replicas` 1, `updateStrategy.type` `ReCreate`, `partition` 0, `maxUnavailable` `"20%"`,
 * `maxSurge` 0, `inPlaceUpdateStrategy` `{}` for the in-place types, `revisionHistoryLimit` 10,
 * plus the pod-template and PVC-template defaults (podTemplateDefaults.ts) on create or when the
 * template changed, unless gate `TemplateNoDefaults`.
 *
 * Example: `{spec: {selector, template}}` gets `replicas: 1` and `updateStrategy: {type: 'ReCreate',
 * partition: 0, maxUnavailable: '20%', maxSurge: 0}`.
 */
export function setDefaultsCloneSet(obj: CloneSet, opts?: DefaultingOptions): CloneSet {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  const inject = shouldInjectTemplateDefaults(obj, opts, (o) => path(o, 'spec', 'template'));
  if (inject) {
    applyPodTemplateDefaults(ensureObject(spec, 'template'));
    if (Array.isArray(spec.volumeClaimTemplates)) {
      for (const pvc of spec.volumeClaimTemplates) applyPersistentVolumeClaimDefaults(pvc);
    }
  }
  defaultNil(spec, 'replicas', 1);
  const us = ensureObject(spec, 'updateStrategy');
  defaultEmpty(us, 'type', CloneSetUpdateStrategyTypes.ReCreate);
  defaultNil(us, 'partition', 0);
  defaultNil(us, 'maxUnavailable', CLONESET_DEFAULT_MAX_UNAVAILABLE);
  defaultNil(us, 'maxSurge', 0);
  if (
    us.type === CloneSetUpdateStrategyTypes.InPlaceIfPossible ||
    us.type === CloneSetUpdateStrategyTypes.InPlaceOnly
  ) {
    defaultNil(us, 'inPlaceUpdateStrategy', {});
  }
  defaultNil(spec, 'revisionHistoryLimit', DEFAULT_REVISION_HISTORY_LIMIT);
  return out as CloneSet;
}
