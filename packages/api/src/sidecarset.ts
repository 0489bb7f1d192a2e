// SidecarSet types (apps.kruise.io/v1alpha1, cluster-scoped), field names as OpenKruise
// v1.8.2 `apis/apps/v1alpha1/sidecarset_types.go` (docs/reference/sidecarset.md §1.1, §5.4), and
// defaulting (docs/reference/sidecarset.md §1.2, SS-1.2.1 … SS-1.2.7).
import type {
  Container,
  LocalObjectReference,
  ObjectFieldSelector,
  Volume,
} from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import {
  clone,
  DEFAULT_REVISION_HISTORY_LIMIT,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  isObject,
  type Obj,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';
import { applyContainerDefaults, DEFAULT_VOLUME_MODE, volumeHasSource } from './podTemplateDefaults';
import type { UpdatePriorityStrategy, UpdateScatterStrategy } from './pub';

/** Where a sidecar goes relative to the app containers (SS-4.6). */
export type PodInjectPolicyType = 'BeforeAppContainer' | 'AfterAppContainer';
/** Sidecar upgrade type. */
export type SidecarContainerUpgradeType = 'ColdUpgrade' | 'HotUpgrade';
/** Volume sharing of a sidecar with the app containers. */
export type ShareVolumePolicyType = 'enabled' | 'disabled';
/** `updateStrategy.type`. */
export type SidecarSetUpdateStrategyType = 'NotUpdate' | 'RollingUpdate';
/** `injectionStrategy.revision.policy`. */
export type SidecarSetInjectRevisionPolicy = 'Always' | 'Partial';
/** `patchPodMetadata[].patchPolicy`. */
export type SidecarSetPatchPolicyType = 'Retain' | 'Overwrite' | 'MergePatchJson';

/** `upgradeStrategy` of a sidecar container. */
export interface SidecarContainerUpgradeStrategy {
  upgradeType?: SidecarContainerUpgradeType;
  hotUpgradeEmptyImage?: string;
}

/** `shareVolumePolicy` of a sidecar container. */
export interface ShareVolumePolicy {
  type?: ShareVolumePolicyType;
}

/** `transferEnv[].sourceContainerNameFrom`. */
export interface SourceContainerNameSource {
  fieldRef?: ObjectFieldSelector;
}

/** One `transferEnv` entry: env copied from an app container. */
export interface TransferEnvVar {
  sourceContainerName?: string;
  sourceContainerNameFrom?: SourceContainerNameSource;
  envName?: string;
  envNames?: string[];
}

/** A sidecar container: a core Container plus the SidecarSet fields. */
export interface SidecarContainer extends Container {
  podInjectPolicy?: PodInjectPolicyType;
  upgradeStrategy?: SidecarContainerUpgradeStrategy;
  shareVolumePolicy?: ShareVolumePolicy;
  transferEnv?: TransferEnvVar[];
}

/** `spec.updateStrategy`. */
export interface SidecarSetUpdateStrategy {
  type?: SidecarSetUpdateStrategyType;
  paused?: boolean;
  selector?: LabelSelector;
  partition?: IntOrString;
  maxUnavailable?: IntOrString;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: UpdateScatterStrategy;
}

/** `spec.injectionStrategy.revision`. */
export interface SidecarSetInjectRevision {
  customVersion?: string;
  revisionName?: string;
  policy?: SidecarSetInjectRevisionPolicy;
}

/** `spec.injectionStrategy`. */
export interface SidecarSetInjectionStrategy {
  paused?: boolean;
  revision?: SidecarSetInjectRevision;
}

/** One `patchPodMetadata` entry. */
export interface SidecarSetPatchPodMetadata {
  annotations?: Record<string, string>;
  patchPolicy?: SidecarSetPatchPolicyType;
}

/** `spec` of a SidecarSet. */
export interface SidecarSetSpec {
  selector?: LabelSelector;
  namespace?: string;
  namespaceSelector?: LabelSelector;
  initContainers?: SidecarContainer[];
  containers?: SidecarContainer[];
  volumes?: Volume[];
  updateStrategy?: SidecarSetUpdateStrategy;
  injectionStrategy?: SidecarSetInjectionStrategy;
  imagePullSecrets?: LocalObjectReference[];
  revisionHistoryLimit?: number;
  patchPodMetadata?: SidecarSetPatchPodMetadata[];
}

/** `status` of a SidecarSet (SS-5.4.1). */
export interface SidecarSetStatus {
  observedGeneration?: number;
  matchedPods: number;
  updatedPods: number;
  readyPods: number;
  updatedReadyPods?: number;
  latestRevision?: string;
  collisionCount?: number;
}

/** A SidecarSet (apps.kruise.io/v1alpha1, cluster-scoped). */
export type SidecarSet = TypedObject<SidecarSetSpec, SidecarSetStatus>;

function applySidecarContainerDefaults(c: Obj, injectPolicy: PodInjectPolicyType): void {
  if (!isObject(c)) return;
  defaultEmpty(c, 'podInjectPolicy', injectPolicy); // SS-1.2.2
  defaultEmpty(ensureObject(c, 'upgradeStrategy'), 'upgradeType', 'ColdUpgrade');
  defaultEmpty(ensureObject(c, 'shareVolumePolicy'), 'type', 'disabled');
  applyContainerDefaults(c); // SS-1.2.3
  if (Array.isArray(c.transferEnv)) {
    for (const t of c.transferEnv) {
      const ref = t?.sourceContainerNameFrom?.fieldRef;
      if (isObject(ref)) defaultEmpty(ref, 'apiVersion', 'v1');
    }
  }
}

/** SS-1.2.4: no source → `emptyDir: {}`; secret `defaultMode` 420; hostPath `type` `""`. */
function applySidecarSetVolumeDefaults(v: Obj): void {
  if (!isObject(v)) return;
  if (!volumeHasSource(v)) v.emptyDir = {};
  if (isObject(v.secret)) defaultNil(v.secret, 'defaultMode', DEFAULT_VOLUME_MODE);
  if (isObject(v.hostPath)) defaultNil(v.hostPath, 'type', '');
}

/**
 * Returns a new SidecarSet with the mutating webhook's defaults (docs/reference/sidecarset.md §1.2):
 * SS-1.2.1 `updateStrategy.type` `RollingUpdate`, `maxUnavailable` 1, `partition` 0;
 * SS-1.2.2 `podInjectPolicy` `AfterAppContainer` (init) / `BeforeAppContainer` (containers),
 * `upgradeType` `ColdUpgrade`, `shareVolumePolicy.type` `disabled`; SS-1.2.3 core container defaults;
 * SS-1.2.4 volume defaults; SS-1.2.5 `revisionHistoryLimit` 10; SS-1.2.6 `patchPolicy` `Retain`;
 * SS-1.2.7 `injectionStrategy.revision.policy` `Always`.
 *
 * SS-1.2.8 (writing the two hash annotations) is **not** done here: the hashes belong to the
 * sidecarset package, whose admission step calls this function and then hashes the result.
 *
 * Example: container `{name: 'dns-f', image: 'dns:1.0'}` gets `imagePullPolicy: 'IfNotPresent'`,
 * `terminationMessagePath: '/dev/termination-log'`, `terminationMessagePolicy: 'File'`,
 * `podInjectPolicy: 'BeforeAppContainer'`, `upgradeStrategy: {upgradeType: 'ColdUpgrade'}`,
 * `shareVolumePolicy: {type: 'disabled'}` (SS-2.5).
 */
export function setDefaultsSidecarSet(obj: SidecarSet, _opts?: DefaultingOptions): SidecarSet {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  const us = ensureObject(spec, 'updateStrategy');
  defaultEmpty(us, 'type', 'RollingUpdate');
  defaultNil(us, 'maxUnavailable', 1);
  defaultNil(us, 'partition', 0);
  if (Array.isArray(spec.initContainers)) {
    for (const c of spec.initContainers) applySidecarContainerDefaults(c, 'AfterAppContainer');
  }
  if (Array.isArray(spec.containers)) {
    for (const c of spec.containers) applySidecarContainerDefaults(c, 'BeforeAppContainer');
  }
  if (Array.isArray(spec.volumes)) for (const v of spec.volumes) applySidecarSetVolumeDefaults(v);
  defaultNil(spec, 'revisionHistoryLimit', DEFAULT_REVISION_HISTORY_LIMIT);
  if (Array.isArray(spec.patchPodMetadata)) {
    for (const p of spec.patchPodMetadata) if (isObject(p)) defaultEmpty(p, 'patchPolicy', 'Retain');
  }
  const rev = spec.injectionStrategy?.revision;
  if (isObject(rev)) defaultEmpty(rev, 'policy', 'Always');
  return out as SidecarSet;
}
