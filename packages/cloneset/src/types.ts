// Types of the CloneSet controller's public entry points (docs/architecture.md) and the
// stable `reason` words its actions carry.

import type { CloneSet, StructureCache } from '@kruise-ts/api';
import type { FeatureGates, Now } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Node, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import type { CloneSetCache } from './cache';

/** Time as the API gives it: an RFC 3339 string or a Date (core's `Now`). */
export type { Now };

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
  /** Remembers which pods already passed the structural check (`createStructureCache()`, core.md §10.1). */
  structureCache?: StructureCache;
}

/**
 * What the CloneSet controller keeps per object between reconciles (`controllerState`): nothing.
 * Every decision is made from the observed objects; a shell has nothing to store for it.
 */
export type CloneSetControllerState = undefined;

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
  /**
   * What reconciles remember between calls (`createCloneSetCache()`; see the README, "The
   * reconcile cache"). A shell keeps one per controller and passes it to every reconcile; without
   * it each reconcile makes a fresh one: the same result, slower for large CloneSets.
   */
  cache?: CloneSetCache;
  /**
   * Remembers which observed objects already passed the structural check at the entry
   * (`createStructureCache()` from `@kruise-ts/api`; docs/reference/core.md §10.1). A shell keeps one per
   * controller; without it every observed object is checked on every reconcile.
   */
  structureCache?: StructureCache;
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

export { Reasons } from './reasons';
