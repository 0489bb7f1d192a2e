// Shared "pub" types of OpenKruise v1.8.2 (kruise `apis/apps/pub/*.go`): lifecycle
// hooks, update priority and scatter strategies, the in-place update strategy and
// the JSON shapes of the in-place update annotations (docs/reference/core.md §2.7, §3, §4).
// Field names are exactly the Go JSON names.
import type { ResourceRequirements } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';

// ---- lifecycle (docs/reference/core.md §3.1) ------------------------------------------

/**
 * A lifecycle hook: the labels and finalizers a user's controller puts on a pod to hold
 * it in a transitional state (docs/reference/core.md R3.2/R3.3).
 */
export interface LifecycleHook {
  /** Labels whose presence (value equal) means "hooked". */
  labelsHandler?: Record<string, string>;
  /** Finalizers whose presence means "hooked". */
  finalizersHandler?: string[];
  /** Mark the pod not-ready (KruisePodReady condition) when entering the hooked state (R3.4). */
  markPodNotReady?: boolean;
}

/** The lifecycle hooks of a workload (`spec.lifecycle`). */
export interface Lifecycle {
  /** Hook held before a pod is deleted (R3.7). */
  preDelete?: LifecycleHook;
  /** Hook held before and after an in-place update (docs/reference/core.md §3.4). */
  inPlaceUpdate?: LifecycleHook;
  /** Hook held before a new pod becomes Normal (R3.6). */
  preNormal?: LifecycleHook;
}

/** The lifecycle state type (label `lifecycle.apps.kruise.io/state`); see `LifecycleStates`. */
export type LifecycleStateType =
  | 'PreparingNormal'
  | 'Normal'
  | 'PreparingUpdate'
  | 'Updating'
  | 'Updated'
  | 'PreparingDelete';

// ---- update priority (docs/reference/core.md §4.1) -------------------------------------

/** A weight term: pods matching `matchSelector` get `weight` added to their priority (R4.2). */
export interface UpdatePriorityWeightTerm {
  /** Weight in [0, 100] (R4.1). */
  weight: number;
  matchSelector: LabelSelector;
}

/** An order term: pods are ordered by the integer suffix of the label `orderedKey` (R4.3). */
export interface UpdatePriorityOrderTerm {
  orderedKey: string;
}

/** `updateStrategy.priorityStrategy`: at most one of the two lists may be set (R4.1). */
export interface UpdatePriorityStrategy {
  orderPriority?: UpdatePriorityOrderTerm[];
  weightPriority?: UpdatePriorityWeightTerm[];
}

// ---- scatter (docs/reference/core.md §4.2) ---------------------------------------------

/** One scatter term: spread pods whose label `key` equals `value` (R4.8). */
export interface UpdateScatterTerm {
  key: string;
  value: string;
}

/** `updateStrategy.scatterStrategy` (CloneSet): terms are applied in R4.7 order. */
export type UpdateScatterStrategy = UpdateScatterTerm[];

// ---- in-place update ---------------------------------------------------------

/** `inPlaceUpdateStrategy`: delay between marking a pod not-ready and patching its spec. */
export interface InPlaceUpdateStrategy {
  /** Seconds (int32), 0 when unset. */
  gracePeriodSeconds?: number;
}

/** Image id of a container before an in-place update (state `lastContainerStatuses`). */
export interface InPlaceUpdateContainerStatus {
  imageID?: string;
}

/** Readiness pre-check before the next container batch. */
export interface InPlaceUpdatePreCheckBeforeNext {
  containersRequiredReady?: string[];
}

/** One recorded container batch of an in-place update. */
export interface InPlaceUpdateContainerBatch {
  /** RFC 3339. */
  timestamp: string | null;
  containers: string[];
}

/**
 * JSON of the pod annotation `apps.kruise.io/inplace-update-state` (docs/reference/core.md 2.7.1).
 * Readers accept missing fields; `updateTimestamp` is `null` when zero and
 * `lastContainerStatuses` is `null` when never set.
 */
export interface InPlaceUpdateState {
  revision: string;
  updateTimestamp: string | null;
  lastContainerStatuses: Record<string, InPlaceUpdateContainerStatus> | null;
  updateEnvFromMetadata?: boolean;
  updateResources?: boolean;
  updateImages?: boolean;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, ObjectMeta>;
  nextContainerResources?: Record<string, ResourceRequirements>;
  preCheckBeforeNext?: InPlaceUpdatePreCheckBeforeNext;
  containerBatchesRecord?: InPlaceUpdateContainerBatch[];
}

/**
 * The in-memory UpdateSpec (docs/reference/core.md §1.2): what an in-place update changes.
 * The three maps are always present (possibly empty); `metaDataPatch` is the
 * strategic-merge patch as JSON text, absent when metadata is unchanged.
 */
export interface InPlaceUpdateSpec {
  revision: string;
  containerImages: Record<string, string>;
  containerResources: Record<string, ResourceRequirements>;
  containerRefMetadata: Record<string, ObjectMeta>;
  metaDataPatch?: string;
  updateEnvFromMetadata: boolean;
  graceSeconds: number;
}

/**
 * JSON of the pod annotation `apps.kruise.io/inplace-update-grace` (docs/reference/core.md 2.7.2): the
 * UpdateSpec with empty fields omitted and `metaDataPatch` as **base64** of the patch text
 * (a Go byte slice). Example: `{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}`.
 */
export interface InPlaceUpdateSpecJSON {
  revision: string;
  containerImages?: Record<string, string>;
  containerRefMetadata?: Record<string, ObjectMeta>;
  containerResources?: Record<string, ResourceRequirements>;
  /** base64 of the strategic-merge patch text. */
  metaDataPatch?: string;
  updateEnvFromMetadata?: boolean;
  graceSeconds?: number;
}

/** Per-container hashes written by kruise-daemon (docs/reference/core.md 2.7.3). */
export interface RuntimeContainerHashes {
  plainHash?: number;
  plainHashWithoutResources?: number;
  extractedEnvFromMetadataHash?: number;
}

/** One container entry of `apps.kruise.io/runtime-containers-meta`. */
export interface RuntimeContainerMeta {
  name: string;
  containerID: string;
  restartCount: number;
  hashes: RuntimeContainerHashes;
}

/** JSON of the pod annotation `apps.kruise.io/runtime-containers-meta` (2.7.3). */
export interface RuntimeContainerMetaSet {
  containers: RuntimeContainerMeta[];
}
