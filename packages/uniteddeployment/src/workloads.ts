// The four subset workload kinds (docs/reference/uniteddeployment.md §1.1, §7.4, §8): which template field
// selects each, how an observed object is recognised, how the partition is written (§7.4 table)
// and read back (§8), and the label/annotation keys the controller uses.
import {
  ANNOTATION_SUBSET_PATCH,
  type KubeObject,
  LABEL_SUBSET_NAME,
  LABEL_UD_CONTROLLER_REVISION_HASH,
} from '@kruise-ts/api';
import { scaledValueFromIntOrPercent } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { UDTemplate, UDWorkloadTemplate } from './types';

/** Workload/pod label `apps.kruise.io/subset-name` and annotation `apps.kruise.io/subset-patch` (api). */
export { ANNOTATION_SUBSET_PATCH, LABEL_SUBSET_NAME };
/** Workload/pod-template label: the UD ControllerRevision the object was rendered from. */
export const LABEL_UD_REVISION = LABEL_UD_CONTROLLER_REVISION_HASH;
/** ControllerRevision label: the hash part of the revision name. */
export const LABEL_CONTROLLER_HASH = 'controller.kubernetes.io/hash';

/** The UnitedDeployment API version and kind (owner references, events). */
export const UD_API_VERSION = 'apps.kruise.io/v1alpha1';
export const UD_KIND = 'UnitedDeployment';

/** The subset workload kinds, in the order §2 step 5 picks the template. */
export const SUBSET_KINDS = ['StatefulSet', 'AdvancedStatefulSet', 'CloneSet', 'Deployment'] as const;
export type SubsetKind = (typeof SUBSET_KINDS)[number];

/** The `spec.template` field of each kind. */
export const TEMPLATE_FIELD: Record<SubsetKind, keyof UDTemplate> = {
  StatefulSet: 'statefulSetTemplate',
  AdvancedStatefulSet: 'advancedStatefulSetTemplate',
  CloneSet: 'cloneSetTemplate',
  Deployment: 'deploymentTemplate',
};

/** apiVersion/kind the controller creates for each subset kind. */
export const WORKLOAD_TYPE: Record<SubsetKind, { apiVersion: string; kind: string }> = {
  StatefulSet: { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  AdvancedStatefulSet: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
  CloneSet: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
  Deployment: { apiVersion: 'apps/v1', kind: 'Deployment' },
};

/** §2 step 5: the first non-nil of statefulSet, advancedStatefulSet, cloneSet, deployment template. */
export function templateKindOf(template: UDTemplate | null | undefined): SubsetKind | undefined {
  if (!template) return undefined;
  return SUBSET_KINDS.find((k) => template[TEMPLATE_FIELD[k]] != null);
}

/** The template of the kind in use. */
export function templateOf(template: UDTemplate | null | undefined, kind: SubsetKind): UDWorkloadTemplate {
  return (template?.[TEMPLATE_FIELD[kind]] ?? {}) as UDWorkloadTemplate;
}

/** Which subset kind an observed object is (Advanced StatefulSet v1alpha1 is accepted too). */
export function subsetKindOfObject(obj: KubeObject): SubsetKind | undefined {
  const group = obj.apiVersion?.includes('/') ? obj.apiVersion.split('/')[0] : '';
  if (obj.kind === 'StatefulSet') {
    if (group === 'apps') return 'StatefulSet';
    if (group === 'apps.kruise.io') return 'AdvancedStatefulSet';
  }
  if (obj.kind === 'CloneSet' && group === 'apps.kruise.io') return 'CloneSet';
  if (obj.kind === 'Deployment' && group === 'apps') return 'Deployment';
  return undefined;
}

/**
 * §7.4 per-kind partition handling, on a spec being rendered (mutated in place; the caller owns it).
 *
 * StatefulSet: type `""`/`RollingUpdate` → type `RollingUpdate`, `rollingUpdate.partition = p`;
 * `OnDelete` left alone. Advanced StatefulSet: same condition but the type is not rewritten.
 * CloneSet: always `updateStrategy.partition = p`. Deployment: no partition.
 */
export function writePartition(kind: SubsetKind, spec: Record<string, any>, partition: number): void {
  if (kind === 'Deployment') return;
  if (kind === 'CloneSet') {
    spec.updateStrategy = { ...(spec.updateStrategy ?? {}), partition };
    return;
  }
  const strategy = { ...(spec.updateStrategy ?? {}) };
  const type = strategy.type ?? '';
  if (type !== '' && type !== 'RollingUpdate') return;
  if (kind === 'StatefulSet') strategy.type = 'RollingUpdate';
  strategy.rollingUpdate = { ...(strategy.rollingUpdate ?? {}), partition };
  spec.updateStrategy = strategy;
}

/**
 * OnDelete observed partition (§8): the number of pods whose UD revision label differs from the
 * workload's own (pods without the label count as different). `[v1,v2,v2]` vs v2 → 1;
 * `[v1, "", v2, v3]` vs v2 → 3.
 */
export function currentPartitionFromPods(pods: readonly Pod[], revision: string | undefined): number {
  let n = 0;
  for (const p of pods) {
    const labels = p.metadata?.labels;
    if (!labels || !Object.hasOwn(labels, LABEL_UD_REVISION) || labels[LABEL_UD_REVISION] !== revision) n++;
  }
  return n;
}

/**
 * The partition observed on a workload (§8): StatefulSet/ASTS OnDelete → pods not at the workload's
 * revision; otherwise `rollingUpdate.partition` (0 if unset); CloneSet `updateStrategy.partition`
 * scaled against `spec.replicas` rounding up (`"50%"` of 3 → 2); Deployment always 0.
 */
export function observedPartition(kind: SubsetKind, workload: KubeObject, pods: readonly Pod[]): number {
  const spec = (workload.spec ?? {}) as Record<string, any>;
  if (kind === 'Deployment') return 0;
  if (kind === 'CloneSet') {
    const p = spec.updateStrategy?.partition;
    if (p == null) return 0;
    return scaledRoundUp(p, spec.replicas ?? 0);
  }
  if (spec.updateStrategy?.type === 'OnDelete') {
    return currentPartitionFromPods(pods, workload.metadata?.labels?.[LABEL_UD_REVISION]);
  }
  const p = spec.updateStrategy?.rollingUpdate?.partition;
  return typeof p === 'number' ? p : 0;
}

/** Kubernetes' strict int-or-percent helper (docs/reference/core.md §6.1 (a)); a malformed value gives 0 here. */
function scaledRoundUp(v: unknown, total: number): number {
  try {
    return scaledValueFromIntOrPercent(v as number | string, total, true);
  } catch {
    return 0;
  }
}
