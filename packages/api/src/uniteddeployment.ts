// UnitedDeployment types (apps.kruise.io/v1alpha1), field names as OpenKruise v1.8.2
// `apis/apps/v1alpha1/uniteddeployment_types.go` (docs/reference/uniteddeployment.md §1, §10), and
// defaulting (`SetDefaultsUnitedDeployment`, docs/reference/uniteddeployment.md §1.3).
import type { StatefulSetSpec as AppsStatefulSetSpec, DeploymentSpec } from 'kubernetes-types/apps/v1.js';
import type { NodeSelectorTerm, Toleration } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { CloneSetSpec } from './cloneset';
import {
  clone,
  DEFAULT_REVISION_HISTORY_LIMIT,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  isObject,
  type Obj,
  path,
  shouldInjectTemplateDefaults,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';
import { applyPersistentVolumeClaimDefaults, applyPodTemplateDefaults } from './podTemplateDefaults';
import type { StatefulSetSpec } from './statefulset';

/** `spec.template.statefulSetTemplate`: an apps/v1 StatefulSet. */
export interface StatefulSetTemplateSpec {
  metadata?: ObjectMeta;
  spec: AppsStatefulSetSpec;
}

/** `spec.template.advancedStatefulSetTemplate`: an apps.kruise.io/v1beta1 StatefulSet. */
export interface AdvancedStatefulSetTemplateSpec {
  metadata?: ObjectMeta;
  spec: StatefulSetSpec;
}

/** `spec.template.cloneSetTemplate`. */
export interface CloneSetTemplateSpec {
  metadata?: ObjectMeta;
  spec: CloneSetSpec;
}

/** `spec.template.deploymentTemplate`. */
export interface DeploymentTemplateSpec {
  metadata?: ObjectMeta;
  spec: DeploymentSpec;
}

/** `spec.template`: exactly one member is set (§1.4 item 1). */
export interface SubsetTemplate {
  statefulSetTemplate?: StatefulSetTemplateSpec;
  advancedStatefulSetTemplate?: AdvancedStatefulSetTemplateSpec;
  cloneSetTemplate?: CloneSetTemplateSpec;
  deploymentTemplate?: DeploymentTemplateSpec;
}

/** One topology subset (§1.2). */
export interface Subset {
  name: string;
  nodeSelectorTerm?: NodeSelectorTerm;
  tolerations?: Toleration[];
  /** Fixed count or percent of `spec.replicas`; unset = share the remainder. */
  replicas?: IntOrString;
  minReplicas?: IntOrString;
  maxReplicas?: IntOrString;
  /** Strategic-merge patch of the subset's pod template (raw JSON). */
  patch?: Record<string, unknown>;
}

/** `topology.scheduleStrategy.type`; `""` behaves like `Fixed`. */
export type UnitedDeploymentScheduleStrategyType = '' | 'Fixed' | 'Adaptive';

/** `topology.scheduleStrategy.adaptive` (§5). */
export interface AdaptiveUnitedDeploymentStrategy {
  /** Controller fallback 30. */
  rescheduleCriticalSeconds?: number;
  /** Controller fallback 300. */
  unschedulableLastSeconds?: number;
}

/** `topology.scheduleStrategy`. */
export interface UnitedDeploymentScheduleStrategy {
  type?: UnitedDeploymentScheduleStrategyType;
  adaptive?: AdaptiveUnitedDeploymentStrategy;
}

/** `spec.topology`. */
export interface Topology {
  subsets?: Subset[];
  scheduleStrategy?: UnitedDeploymentScheduleStrategy;
}

/** `spec.updateStrategy.manualUpdate`. */
export interface ManualUpdate {
  /** Subset name → partition. */
  partitions?: Record<string, number>;
}

/** `spec.updateStrategy`. */
export interface UnitedDeploymentUpdateStrategy {
  type?: 'Manual';
  manualUpdate?: ManualUpdate;
}

/** `spec` of a UnitedDeployment. */
export interface UnitedDeploymentSpec {
  /** Not defaulted at v1.8.2. */
  replicas?: number;
  selector: LabelSelector;
  template?: SubsetTemplate;
  topology?: Topology;
  updateStrategy?: UnitedDeploymentUpdateStrategy;
  revisionHistoryLimit?: number;
}

/** A UnitedDeployment or subset condition. */
export interface UnitedDeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status.updateStatus`. */
export interface UpdateStatus {
  updatedRevision?: string;
  currentPartitions?: Record<string, number>;
}

/** One `status.subsetStatuses` entry (§10). */
export interface UnitedDeploymentSubsetStatus {
  name: string;
  replicas?: number;
  partition?: number;
  conditions?: UnitedDeploymentCondition[];
}

/** `status` of a UnitedDeployment (§10). */
export interface UnitedDeploymentStatus {
  observedGeneration?: number;
  readyReplicas: number;
  replicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  collisionCount?: number;
  currentRevision: string;
  subsetReplicas?: Record<string, number>;
  conditions?: UnitedDeploymentCondition[];
  updateStatus?: UpdateStatus;
  subsetStatuses?: UnitedDeploymentSubsetStatus[];
  labelSelector?: string;
}

/** A UnitedDeployment (apps.kruise.io/v1alpha1). */
export type UnitedDeployment = TypedObject<UnitedDeploymentSpec, UnitedDeploymentStatus>;

function applyWorkloadTemplateDefaults(t: unknown): void {
  if (!isObject(t) || !isObject(t.spec)) return;
  applyPodTemplateDefaults(ensureObject(t.spec, 'template'));
  if (Array.isArray(t.spec.volumeClaimTemplates)) {
    for (const pvc of t.spec.volumeClaimTemplates) applyPersistentVolumeClaimDefaults(pvc);
  }
}

/**
 * Returns a new UnitedDeployment with the mutating webhook's defaults (docs/reference/uniteddeployment.md §1.3):
 * 1. `revisionHistoryLimit` 10; 2. `updateStrategy.type` `Manual` and `manualUpdate` `{}`;
 * 3. pod-template (and PVC-template) defaults inside whichever workload template is set, on create
 * or when `spec.template` changed, unless `TemplateNoDefaults`; 4. if some subset sets
 * `minReplicas`/`maxReplicas` and none sets `replicas`, every unset `minReplicas` becomes 0.
 * `spec.replicas` is **not** defaulted.
 *
 * Example: subsets `[{name: 'a', maxReplicas: 2}, {name: 'b'}]` become
 * `[{name: 'a', maxReplicas: 2, minReplicas: 0}, {name: 'b', minReplicas: 0}]`.
 */
export function setDefaultsUnitedDeployment(
  obj: UnitedDeployment,
  opts?: DefaultingOptions,
): UnitedDeployment {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  defaultNil(spec, 'revisionHistoryLimit', DEFAULT_REVISION_HISTORY_LIMIT);
  const us = ensureObject(spec, 'updateStrategy');
  defaultEmpty(us, 'type', 'Manual');
  if (us.type === 'Manual') defaultNil(us, 'manualUpdate', {});
  if (
    isObject(spec.template) &&
    shouldInjectTemplateDefaults(obj, opts, (o) => path(o, 'spec', 'template'))
  ) {
    applyWorkloadTemplateDefaults(spec.template.statefulSetTemplate);
    applyWorkloadTemplateDefaults(spec.template.advancedStatefulSetTemplate);
    applyWorkloadTemplateDefaults(spec.template.cloneSetTemplate);
    applyWorkloadTemplateDefaults(spec.template.deploymentTemplate);
  }
  const subsets: unknown[] = Array.isArray(spec.topology?.subsets) ? spec.topology.subsets : [];
  const set = (v: unknown) => v !== undefined && v !== null;
  const hasReplicas = subsets.some((s) => isObject(s) && set(s.replicas));
  const hasCapacity = subsets.some((s) => isObject(s) && (set(s.minReplicas) || set(s.maxReplicas)));
  if (hasCapacity && !hasReplicas) {
    for (const s of subsets) if (isObject(s)) defaultNil(s, 'minReplicas', 0);
  }
  return out as UnitedDeployment;
}
