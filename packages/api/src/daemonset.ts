// Advanced DaemonSet types (apps.kruise.io/v1alpha1), field names as OpenKruise v1.8.2
// `apis/apps/v1alpha1/daemonset_types.go` (docs/reference/daemonset.md §1, §10), and defaulting
// (`SetDefaultsDaemonSet`, docs/reference/daemonset.md §1.2).
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import {
  clone,
  DEFAULT_REVISION_HISTORY_LIMIT,
  type DefaultingOptions,
  defaultEmpty,
  defaultNil,
  ensureObject,
  type Obj,
} from './defaulting';
import type { IntOrString, TypedObject } from './meta';
import type { Lifecycle } from './pub';

/** `spec.updateStrategy.type`. */
export type DaemonSetUpdateStrategyType = 'RollingUpdate' | 'OnDelete';
/** `rollingUpdate.rollingUpdateType`; `Surging` is a deprecated alias converted to `Standard`. */
export type RollingUpdateType = 'Standard' | 'InPlaceIfPossible' | 'Surging';

/** `spec.updateStrategy.rollingUpdate`. */
export interface RollingUpdateDaemonSet {
  /** Default `Standard`. */
  rollingUpdateType?: RollingUpdateType;
  /** Percent of desired nodes, rounded up. */
  maxUnavailable?: IntOrString;
  /** Percent of desired nodes, rounded up. */
  maxSurge?: IntOrString;
  /** Node label selector: only matching nodes are updated. */
  selector?: LabelSelector;
  /** Nodes that keep the old revision (§7.2). */
  partition?: number;
  paused?: boolean;
}

/** `spec.updateStrategy`. */
export interface DaemonSetUpdateStrategy {
  type?: DaemonSetUpdateStrategyType;
  rollingUpdate?: RollingUpdateDaemonSet;
}

/** `spec` of an Advanced DaemonSet. */
export interface DaemonSetSpec {
  selector: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  minReadySeconds?: number;
  /** Max creates and deletes per sync; default 250. */
  burstReplicas?: IntOrString;
  revisionHistoryLimit?: number;
  /** Only `preDelete` is allowed (§9). */
  lifecycle?: Lifecycle;
}

/** A DaemonSet status condition. */
export interface DaemonSetCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status` of an Advanced DaemonSet (docs/reference/daemonset.md §10). */
export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: DaemonSetCondition[];
  /** The current revision's hash `H`. */
  daemonSetHash: string;
}

/** An Advanced DaemonSet (apps.kruise.io/v1alpha1). */
export type DaemonSet = TypedObject<DaemonSetSpec, DaemonSetStatus>;

/** Default `burstReplicas` (§1.2). */
export const DAEMONSET_DEFAULT_BURST_REPLICAS = 250;

/**
 * Returns a new Advanced DaemonSet with the mutating webhook's defaults (docs/reference/daemonset.md §1.2):
 * 1. `burstReplicas` 250; 2. `updateStrategy.type` `RollingUpdate`; 3. for RollingUpdate:
 * `rollingUpdate` `{}`; with `Surging`, `maxSurge` 1 and `maxUnavailable` 0; then an empty or
 * `Surging` type becomes `Standard`; then if both `maxUnavailable` and `maxSurge` are unset,
 * `maxUnavailable` 1 and `maxSurge` 0; 4. `revisionHistoryLimit` 10.
 *
 * The pod template is not defaulted: §1.2 lists no template defaults for this kind.
 *
 * Example: `rollingUpdate: {rollingUpdateType: 'Surging'}` becomes
 * `{rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0}`.
 */
export function setDefaultsDaemonSet(obj: DaemonSet, _opts?: DefaultingOptions): DaemonSet {
  const out = clone(obj) as Obj;
  const spec = ensureObject(out, 'spec');
  defaultNil(spec, 'burstReplicas', DAEMONSET_DEFAULT_BURST_REPLICAS);
  const us = ensureObject(spec, 'updateStrategy');
  defaultEmpty(us, 'type', 'RollingUpdate');
  if (us.type === 'RollingUpdate') {
    const ru = ensureObject(us, 'rollingUpdate');
    if (ru.rollingUpdateType === 'Surging') {
      defaultNil(ru, 'maxSurge', 1);
      defaultNil(ru, 'maxUnavailable', 0);
    }
    if (
      ru.rollingUpdateType === undefined ||
      ru.rollingUpdateType === '' ||
      ru.rollingUpdateType === 'Surging'
    ) {
      ru.rollingUpdateType = 'Standard';
    }
    const unset = (v: unknown) => v === undefined || v === null;
    if (unset(ru.maxUnavailable) && unset(ru.maxSurge)) {
      ru.maxUnavailable = 1;
      ru.maxSurge = 0;
    }
  }
  defaultNil(spec, 'revisionHistoryLimit', DEFAULT_REVISION_HISTORY_LIMIT);
  return out as DaemonSet;
}
