// Types of the Advanced StatefulSet controller's entry points (docs/architecture.md) and the
// stable `reason` words its actions carry.
import type { StatefulSet, StructureCache } from '@kruise-ts/api';
import type { FeatureGates, Now } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';

/** Time as the API gives it: an RFC 3339 string or a Date (core's `Now`). */
export type { Now };

/**
 * What the controller remembers between reconciles (docs/reference/statefulset.md R4.8): in-place
 * updates it made and has not yet seen in the pod list, `podName → revision name`. Plain JSON;
 * the shell stores it per object and passes it back as `input.controllerState`. A shell that
 * always passes a pod list reflecting its own previous writes may omit it (R4.8 is then a no-op).
 */
export interface StatefulSetControllerState {
  inPlaceUpdateExpectations?: Record<string, string>;
}

/** The input of `reconcileStatefulSet`: what the Go controller reads from its caches. */
export interface ReconcileStatefulSetInput {
  /** `apps.kruise.io/v1beta1` (the hub) or `v1alpha1` (converted, §2.3). */
  statefulSet: StatefulSet;
  /** Pods in the set's namespace; only members (R3.2) it controls or may adopt are used (R4.1). */
  pods: Pod[];
  /** ControllerRevisions; those the set controls or may adopt are used (§4.2). */
  revisions?: ControllerRevision[];
  /** PersistentVolumeClaims of the namespace, looked up by name (§12). */
  pvcs?: PersistentVolumeClaim[];
  now: Now;
  /** The `controllerState` the previous reconcile returned (R4.8). */
  controllerState?: StatefulSetControllerState;
}

/** Options of `reconcileStatefulSet`. */
export interface ReconcileStatefulSetOptions {
  /** Partial map over OpenKruise v1.8.2's gates; missing gates take the defaults. */
  featureGates?: Partial<FeatureGates>;
  /** Accepted for API symmetry; the StatefulSet controller needs no randomness (names are ordinals). */
  seed?: number;
  /**
   * The most pods one reconcile creates and deletes together (default 500, core's
   * `DEFAULT_BURST_REPLICAS`; `Infinity` lifts the bound). A reconcile that stops at it returns
   * `requeueAfterSeconds: 0`. A kruise-ts bound: OpenKruise creates every missing pod of a
   * Parallel set, and deletes every condemned one, in one round.
   */
  burstReplicas?: number;
  /**
   * Remembers which observed objects already passed the structural check at the reconcile's
   * entry (`createStructureCache()` from `@kruise-ts/api`; docs/reference/core.md §10.1). A shell keeps one
   * per controller; without it every observed object is checked on every reconcile.
   */
  structureCache?: StructureCache;
}

/** The context of `validateStatefulSet`. */
export interface ValidateStatefulSetContext {
  featureGates?: Partial<FeatureGates>;
}

/** The stable `reason` words of the actions `reconcileStatefulSet` returns. */
export const Reasons = {
  /** A pod (and its missing claims) created by the replica phase (§6, R6.2). */
  ScaleUp: 'ScaleUp',
  /** Missing claims of a Pending pod or a repaired pod created (R6.3, R6.7). */
  CreateClaim: 'CreateClaim',
  /** A condemned pod deleted (§7). */
  ScaleDown: 'ScaleDown',
  /** A failed or succeeded replica deleted so it is recreated (R6.1). */
  RecreateFailedPod: 'RecreateFailedPod',
  /** A pod carrying `apps.kruise.io/specified-delete` deleted (R8.5). */
  SpecifiedDelete: 'SpecifiedDelete',
  /** A pod deleted to be recreated at the update revision (R10.1, R10.7). */
  RecreateUpdate: 'RecreateUpdate',
  /** A pod moved to `PreparingDelete` instead of being deleted (preDelete hook, R11.2). */
  PreparingDelete: 'PreparingDelete',
  /** An in-place update started, or its `PreparingUpdate` step (§10.2). */
  InPlaceUpdate: 'InPlaceUpdate',
  /** The per-pod refresh: in-place progress, `InPlaceUpdateReady`, lifecycle transitions (R11.3). */
  LifecycleTransition: 'LifecycleTransition',
  /** Identity labels or claim volumes of a pod repaired (R6.7). */
  RepairPod: 'RepairPod',
  /** Claim ownerReferences rewritten for the retention policy (R12.2). */
  UpdateClaimOwnerRefs: 'UpdateClaimOwnerRefs',
  /** A new ControllerRevision (R4.4). */
  CreateRevision: 'CreateRevision',
  /** A rolled-back revision given the next revision number (R4.4). */
  UpdateRevision: 'UpdateRevision',
  /** A non-live revision deleted by history truncation (R4.6). */
  TruncateHistory: 'TruncateHistory',
  /** An orphan pod or revision matching the selector adopted (R4.1). */
  Adopt: 'Adopt',
  /** An owned pod or revision that no longer matches the selector released (R4.1). */
  Release: 'Release',
  /** The set status (§13). */
  UpdateStatus: 'UpdateStatus',
  /** Validation failed (§2.2); nothing else is done. */
  FailedValidation: 'FailedValidation',
} as const;
