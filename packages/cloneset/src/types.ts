// Types of the CloneSet controller's public entry points (docs/architecture.md) and the
// stable `reason` words its actions carry.

import type { CloneSet } from '@kruise-ts/api';
import type { FeatureGates } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Node, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';

/** Time as the API gives it: an RFC 3339 string or a Date. */
export type Now = string | Date;

/**
 * The ten numbers of docs/reference/cloneset.md §6 (`calculateDiffs`). All are zero by default.
 */
export interface CloneSetDiffs {
  /** Pods to create (D7). */
  scaleUpNum: number;
  /** How many of the created pods should use the current revision; may exceed scaleUpNum (D7). */
  scaleUpNumOldRevision: number;
  /** Pods to remove, not counting those already specified for delete (D8). */
  scaleDownNum: number;
  /** How many removals should come from old pods; may exceed scaleDownNum (D8). */
  scaleDownNumOldRevision: number;
  /** The most pods that may be created now (scaleStrategy.maxUnavailable, D7). */
  scaleUpLimit: number;
  /** The most ready pods that may be deleted now (D8). */
  deleteReadyLimit: number;
  /** Surge pods in use above replicas (D5). */
  useSurge: number;
  /** The part of useSurge that is old-revision (D5). */
  useSurgeOldRevision: number;
  /** >0: move this many pods to updateRevision; <0: move back to currentRevision (D9). */
  updateNum: number;
  /** Unavailability budget of the update limiter; may be negative (D9). */
  updateMaxUnavailable: number;
}

/** Which pods count as updated (docs/reference/cloneset.md §4.3). */
export type IsPodUpdateFn = (pod: Pod, updateRevision: string) => boolean;

/** The context of `calculateDiffs` (docs/architecture.md). */
export interface CalculateDiffsContext {
  currentRevision: string;
  updateRevision: string;
  /** Needed when `minReadySeconds > 0` (availability, §4.2); defaults to the epoch otherwise. */
  now?: Now;
  featureGates?: Partial<FeatureGates>;
  /** The process flag `--cloneset-scaling-exclude-preparing-delete` (D10). */
  scalingExcludePreparingDelete?: boolean;
  /** Default: the Update path's hash equality (short-hash aware, §4.3). */
  isPodUpdate?: IsPodUpdateFn;
}

/** The input of `reconcileCloneSet`: everything the Go controller reads from its cache. */
export interface ReconcileCloneSetInput {
  cloneSet: CloneSet;
  /** Pods in the namespace; only those owned by the CloneSet are used (§3). */
  pods: Pod[];
  /** ControllerRevisions; only those owned by the CloneSet are used. */
  revisions?: ControllerRevision[];
  /** PVCs; only those owned by the CloneSet and not terminating are used. */
  pvcs?: PersistentVolumeClaim[];
  /** Nodes, for the topology-spread ranker of scale-in (§8.3 rule 6). */
  nodes?: Node[];
  now: Now;
}

/** Options of `reconcileCloneSet`. */
export interface ReconcileCloneSetOptions {
  featureGates?: Partial<FeatureGates>;
  /** Seed of the random instance ids of new pods (`<cloneset>-<5 chars>`). */
  seed?: number;
  /** The process flag `--cloneset-scaling-exclude-preparing-delete` (D10); default false. */
  scalingExcludePreparingDelete?: boolean;
  /**
   * The most pods one reconcile creates and deletes together (default 500, core's
   * `DEFAULT_BURST_REPLICAS`; `Infinity` lifts the bound). A reconcile that stops at it returns
   * `requeueAfterSeconds: 0`. A kruise-ts bound: OpenKruise creates `scaleUpLimit` pods at once.
   */
  burstReplicas?: number;
}

/** The context of `validateCloneSet`. */
export interface ValidateCloneSetContext {
  /**
   * The pods of the namespace. When given, every name newly added to
   * `scaleStrategy.podsToDelete` must be an existing, non-terminating pod controlled by this
   * CloneSet (§2.2). When absent that check is skipped (the reconcile does so).
   */
  pods?: Pod[];
  featureGates?: Partial<FeatureGates>;
}

/** The stable `reason` words of the actions `reconcileCloneSet` returns. */
export const Reasons = {
  /** A new pod (or its PVC) created by scale-up (§7). */
  ScaleUp: 'ScaleUp',
  /** A pod (and its PVCs) deleted by scale-in selection (§8.3). */
  ScaleDown: 'ScaleDown',
  /** A specified-delete pod (and its PVCs) deleted (§8.2). */
  SpecifiedDelete: 'SpecifiedDelete',
  /** A pod moved to PreparingDelete, or a PreparingDelete pod deleted once its hook is gone (§8.2). */
  PreparingDelete: 'PreparingDelete',
  /** PreparingDelete cancelled back to PreparingNormal by a scale-up (§8.1). */
  CancelPreparingDelete: 'CancelPreparingDelete',
  /** In-place update started or a lifecycle step before it (§10.3). */
  InPlaceUpdate: 'InPlaceUpdate',
  /** A pod labelled specified-delete to be recreated (§9.5). */
  RecreateUpdate: 'RecreateUpdate',
  /** The per-pod refresh: in-place progress, InPlaceUpdateReady, lifecycle transitions, pod-template-hash (§1.2). */
  LifecycleTransition: 'LifecycleTransition',
  /** A new ControllerRevision (§12). */
  CreateRevision: 'CreateRevision',
  /** An old revision given the next revision number (rollback, §12). */
  UpdateRevision: 'UpdateRevision',
  /** A non-live revision deleted by history truncation (§12). */
  TruncateHistory: 'TruncateHistory',
  /** An owned pod whose labels no longer match the selector (§3.2). */
  ReleasePod: 'ReleasePod',
  /** `disablePVCReuse` cleanup (§7.4). */
  CleanupPVC: 'CleanupPVC',
  /** Names of gone pods removed from `scaleStrategy.podsToDelete` (§1 step 14). */
  PodsToDeleteCleanup: 'PodsToDeleteCleanup',
  /** The CloneSet status (§13). */
  UpdateStatus: 'UpdateStatus',
  /** Validation failed (§2.2); nothing else is done. */
  FailedValidation: 'FailedValidation',
} as const;
