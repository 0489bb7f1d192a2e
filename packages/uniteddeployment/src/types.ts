// The UnitedDeployment shapes this package reads and writes (apps.kruise.io/v1alpha1, docs/reference/uniteddeployment.md
// §1). Structural, so the `UnitedDeployment` type of @kruise-ts/api is assignable to them.
import type { IntOrString, KubeObject } from '@kruise-ts/api';
import type { NodeSelectorTerm, Toleration } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { SubsetStatusEntry } from './adaptive';

/** One subset of `spec.topology.subsets` (§1.2). */
export interface UDSubset {
  name: string;
  nodeSelectorTerm?: NodeSelectorTerm | null;
  tolerations?: Toleration[] | null;
  replicas?: IntOrString | null;
  minReplicas?: IntOrString | null;
  maxReplicas?: IntOrString | null;
  /** Strategic-merge patch of the pod template: a JSON object, or its raw JSON text. */
  patch?: unknown;
}

/** A workload template: `{ metadata, spec }` of the workload kind. */
export interface UDWorkloadTemplate {
  metadata?: ObjectMeta | null;
  spec?: Record<string, any> | null;
}

/** `spec.template`: exactly one of the four kinds (§1.1). */
export interface UDTemplate {
  statefulSetTemplate?: UDWorkloadTemplate | null;
  advancedStatefulSetTemplate?: UDWorkloadTemplate | null;
  cloneSetTemplate?: UDWorkloadTemplate | null;
  deploymentTemplate?: UDWorkloadTemplate | null;
}

/** `spec.topology.scheduleStrategy` (§1.1, §5). */
export interface UDScheduleStrategy {
  type?: '' | 'Fixed' | 'Adaptive' | string | null;
  adaptive?: { rescheduleCriticalSeconds?: number | null; unschedulableLastSeconds?: number | null } | null;
}

/** `spec` of a UnitedDeployment (§1.1). */
export interface UDSpec {
  replicas?: number | null;
  selector?: LabelSelector | null;
  template?: UDTemplate | null;
  topology?: { subsets?: UDSubset[] | null; scheduleStrategy?: UDScheduleStrategy | null } | null;
  updateStrategy?: {
    type?: 'Manual' | string | null;
    manualUpdate?: { partitions?: Record<string, number> | null } | null;
  } | null;
  revisionHistoryLimit?: number | null;
}

/** A UnitedDeployment condition (`SubsetProvisioned`, `SubsetUpdated`, `SubsetFailure`). */
export interface UDCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

/** `status` of a UnitedDeployment (§10). */
export interface UDStatus {
  observedGeneration?: number;
  readyReplicas?: number;
  replicas?: number;
  updatedReplicas?: number;
  updatedReadyReplicas?: number;
  collisionCount?: number;
  currentRevision?: string;
  subsetReplicas?: Record<string, number>;
  subsetStatuses?: SubsetStatusEntry[];
  conditions?: UDCondition[];
  updateStatus?: { updatedRevision?: string; currentPartitions?: Record<string, number> } | null;
  labelSelector?: string;
}

/** A UnitedDeployment object as this package reads it. */
export interface UnitedDeploymentObject extends KubeObject {
  spec: UDSpec;
  status?: UDStatus;
}
