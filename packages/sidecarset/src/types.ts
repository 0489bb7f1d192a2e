// Types of the SidecarSet entry points (docs/architecture.md) and the stable `reason` words of
// the actions the controller returns.
import type { SidecarSet, StructureCache } from '@kruise-ts/api';
import type { FeatureGates, FieldError, Now } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, Namespace, Pod } from 'kubernetes-types/core/v1.js';
import type { SidecarSetAnnotationCache } from './annotationCache';

/** Time as the API gives it: an RFC 3339 string or a Date (core's `Now`). */
export type { Now };

/** The context of `injectSidecars` (docs/architecture.md, plus optional extras). */
export interface InjectSidecarsContext {
  /** Timestamps written into the hash annotations (SS-4.7.1). */
  now: Now;
  /** The pod's Namespace object (for `namespaceSelector`, SS-3.3). */
  namespace?: Namespace;
  /** Other Namespace objects; the pod's is looked up here when `namespace` is not given. */
  namespaces?: Namespace[];
  /** Where SidecarSet revisions live (SS-4.2.2); default `kruise-system`. */
  kruiseNamespace?: string;
  /** ControllerRevisions for `injectionStrategy.revision` (SS-4.2.2). */
  revisions?: ControllerRevision[];
  /**
   * A uniform draw in [0, 1) for the Partial injection policy (SS-4.2.4). Default: a value
   * derived from the pod's namespace and name (FNV-1a / 2^32), so the same pod always draws the
   * same number and different pods spread evenly.
   */
  random?: () => number;
  /** The admission request's namespace, used when the pod has none (SS-3.2). */
  requestNamespace?: string;
  /** SS-4.1.2: only CREATE injects; UPDATE returns the pod unchanged. Default CREATE. */
  operation?: 'CREATE' | 'UPDATE';
  /**
   * Remembers what the structural check at the webhook's entry has already compiled and checked
   * (`createStructureCache()` from `@kruise-ts/api`): a webhook server keeps one for its life, so
   * the schemas are compiled once and the SidecarSets it lists are checked once rather than on
   * every pod. Optional: without it the answer is the same, only slower.
   */
  structureCache?: StructureCache;
}

/** The result of `injectSidecars`. */
export interface InjectSidecarsResult {
  /** The mutated pod (the input object itself when nothing changed, or on error). */
  pod: Pod;
  /** Names of the matched SidecarSets recorded in `kruise.io/sidecarset-injected-list`, in candidate order. */
  injected: string[];
  /** Why the webhook rejects the pod; non-empty means `pod` is the unchanged input. */
  errors: FieldError[];
}

/**
 * What the SidecarSet controller keeps per object between reconciles (`controllerState`): nothing.
 * Every decision is made from the observed objects; a shell has nothing to store for it.
 */
export type SidecarSetControllerState = undefined;

/** The input of `reconcileSidecarSet`. */
export interface ReconcileSidecarSetInput {
  sidecarSet: SidecarSet;
  /** Pods of the cluster (or at least of the SidecarSet's scope). */
  pods: Pod[];
  /** Namespace objects, needed when the SidecarSet has a `namespaceSelector` (SS-5.2.1). */
  namespaces?: Namespace[];
  /** ControllerRevisions of the kruise namespace (only S's are used). */
  revisions?: ControllerRevision[];
  now: Now;
  /** Where S's revisions live; default `kruise-system`. */
  kruiseNamespace?: string;
}

/** Options of `reconcileSidecarSet`. */
export interface ReconcileSidecarSetOptions {
  featureGates?: Partial<FeatureGates>;
  /** Accepted for symmetry with the other controllers; the SidecarSet controller draws nothing at random. */
  seed?: number;
  /**
   * A cache the caller keeps across reconciles, so each distinct pod hash annotation is parsed
   * once rather than every reconcile. Optional: without one the answer is the same, only slower.
   */
  annotationCache?: SidecarSetAnnotationCache;
  /**
   * Remembers which observed objects already passed the structural check at the reconcile's
   * entry (`createStructureCache()` from `@kruise-ts/api`; docs/reference/core.md §10.1). A shell keeps one
   * per controller; without it every observed object is checked on every reconcile.
   */
  structureCache?: StructureCache;
}

/** The context of `validateSidecarSet`. */
export interface ValidateSidecarSetContext {
  /** The cluster's SidecarSets, for the conflict checks (V11); the object itself is skipped by name. */
  sidecarSets?: SidecarSet[];
  /** Namespace objects (namespace overlap, SS-6.1). */
  namespaces?: Namespace[];
  /** ControllerRevisions for the `injectionStrategy.revision` lookup (V5). */
  revisions?: ControllerRevision[];
  /** Default `kruise-system`. */
  kruiseNamespace?: string;
  /**
   * ConfigMap `<kruise ns>/kruise-configuration` for the patchPodMetadata whitelist (V9);
   * `null`/absent = no ConfigMap.
   */
  kruiseConfiguration?: ConfigMap | null;
  featureGates?: Partial<FeatureGates>;
  /** Skip V1 (metadata) — the upstream spec tests call only the spec part. */
  skipMetadata?: boolean;
  /** Skip the patchPodMetadata whitelist (the reconcile re-checks a stored object without the ConfigMap). */
  skipWhitelist?: boolean;
  /** Skip V11 (conflicts with other SidecarSets). */
  skipConflicts?: boolean;
  /** Skip the ControllerRevision lookup of V5 (the reconcile re-checks a stored object). */
  skipRevisionLookup?: boolean;
}

/** Stable machine-readable reasons of the controller's actions. */
export const Reasons = {
  /** A new ControllerRevision of the SidecarSet (SS-5.3.2). */
  CreateRevision: 'CreateRevision',
  /** An older equal revision renumbered as the latest, or labelled with the custom version (SS-5.3.2). */
  UpdateRevision: 'UpdateRevision',
  /** A revision removed by history truncation (SS-5.3.4). */
  TruncateHistory: 'TruncateHistory',
  /** Truncation could not get below the limit (SS-5.3.4), reported as a Warning event. */
  FailedTruncateHistory: 'FailedTruncateHistory',
  /** The SidecarSet status (SS-5.4). */
  UpdateStatus: 'UpdateStatus',
  /** Sidecar images of a pod updated in place (SS-5.7). */
  InPlaceUpdate: 'InPlaceUpdate',
  /** Hot upgrade: the old working container reset to the empty image (SS-5.8.3). */
  HotUpgradeReset: 'HotUpgradeReset',
  /** Pod condition `SidecarSetUpgradable=False` on a pod that cannot be upgraded in place (SS-5.7.5). */
  NotUpgradable: 'NotUpgradable',
  /** The SidecarSet failed validation; nothing else is done. */
  FailedValidation: 'FailedValidation',
  /** patchPodMetadata could not be applied during an in-place update (SS-5.7.5). */
  FailedPatchPodMetadata: 'FailedPatchPodMetadata',
} as const;

export type { FieldError };
