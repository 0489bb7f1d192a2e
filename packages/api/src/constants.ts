// Well-known labels, annotations, condition types, readiness gates and
// finalizers, as exact strings (spec/core.md §0.1 and each controller's spec).
// Controllers refer to these names, never to string literals.

/** API groups and versions. */
export const APPS_KRUISE_GROUP = 'apps.kruise.io';
export const APPS_V1ALPHA1 = 'apps.kruise.io/v1alpha1';
export const APPS_V1BETA1 = 'apps.kruise.io/v1beta1';
export const POLICY_KRUISE_GROUP = 'policy.kruise.io';

// ---- pod labels -----------------------------------------------------------

/** Pod label: the revision the pod belongs to (written by controllers). */
export const LABEL_CONTROLLER_REVISION_HASH = 'controller-revision-hash';
/** Pod label, CloneSet only: the short hash (last `-` segment of the revision name). */
export const LABEL_POD_TEMPLATE_HASH = 'pod-template-hash';
/** Pod label: the lifecycle state (spec/core.md §3). */
export const LABEL_LIFECYCLE_STATE = 'lifecycle.apps.kruise.io/state';
/** Pod label: presence (any value) means "delete this pod" (R7.2). */
export const LABEL_SPECIFIED_DELETE = 'apps.kruise.io/specified-delete';
/** Pod label prefix: any label with this prefix marks the pod unavailable, for PodUnavailableBudget only (R7.1). */
export const LABEL_PREFIX_UNAVAILABLE_POD = 'unavailable-pod.kruise.io/';
/** Pod and PVC label, CloneSet only: the instance id a pod shares with its PVCs. */
export const LABEL_CLONESET_INSTANCE_ID = 'apps.kruise.io/cloneset-instance-id';
/** CloneSet label: `"true"` enables scaling-exclude-preparing-delete (spec/cloneset.md §6 D10). */
export const LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE =
  'apps.kruise.io/cloneset-scaling-exclude-preparing-delete';
/** StatefulSet pod label: the pod's name. */
export const LABEL_STATEFULSET_POD_NAME = 'statefulset.kubernetes.io/pod-name';
/** StatefulSet pod label: the pod's ordinal (gate PodIndexLabel). */
export const LABEL_POD_INDEX = 'apps.kubernetes.io/pod-index';
/** UnitedDeployment: the subset a workload or pod belongs to. */
export const LABEL_SUBSET_NAME = 'apps.kruise.io/subset-name';
/** Deletion protection label (policy.kruise.io/delete-protection: Always | Cascading). */
export const LABEL_DELETE_PROTECTION = 'policy.kruise.io/delete-protection';
/** Deletion protection values. */
export const DELETE_PROTECTION_ALWAYS = 'Always';
export const DELETE_PROTECTION_CASCADING = 'Cascading';

// ---- pod annotations ------------------------------------------------------

/** Pod annotation: JSON InPlaceUpdateState (spec/core.md 2.7.1). */
export const ANNOTATION_INPLACE_UPDATE_STATE = 'apps.kruise.io/inplace-update-state';
/** Legacy name of the in-place update state annotation: read as fallback, deleted on write. */
export const ANNOTATION_INPLACE_UPDATE_STATE_LEGACY = 'inplace-update-state';
/** Pod annotation: JSON UpdateSpec waiting for the grace period (2.7.2). */
export const ANNOTATION_INPLACE_UPDATE_GRACE = 'apps.kruise.io/inplace-update-grace';
/** Legacy name of the grace annotation. */
export const ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY = 'inplace-update-grace';
/** Pod annotation written by kruise-daemon: per-container runtime hashes (2.7.3). */
export const ANNOTATION_RUNTIME_CONTAINERS_META = 'apps.kruise.io/runtime-containers-meta';
/** Pod annotation: RFC 3339 time of the last lifecycle-state write. */
export const ANNOTATION_LIFECYCLE_TIMESTAMP = 'lifecycle.apps.kruise.io/timestamp';
/** Pod annotation: int32 deletion cost; lower is deleted first (R7.3). */
export const ANNOTATION_POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/** Workload annotations tuning image pre-download (spec/core.md 7.4). */
export const ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM = 'apps.kruise.io/image-predownload-parallelism';
export const ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS = 'apps.kruise.io/image-predownload-timeout-seconds';
export const ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS =
  'apps.kruise.io/image-predownload-min-updated-ready-pods';
/** ControllerRevision labels: pre-download already handled for this revision (sic: "pre-predownload"). */
export const LABEL_PRE_PREDOWNLOAD_CREATED = 'apps.kruise.io/pre-predownload-created';
export const LABEL_IMAGE_PREDOWNLOAD_IGNORED = 'apps.kruise.io/image-predownload-ignored';
/** ControllerRevision annotation: hash of a CloneSet's volumeClaimTemplates (R1.3). */
export const ANNOTATION_CLONESET_VCT_HASH = 'kruise.io/cloneset-volumeclaimtemplate-hash';
/** Workload annotation: container launch priority. */
export const ANNOTATION_CONTAINER_LAUNCH_PRIORITY = 'apps.kruise.io/container-launch-priority';
/** Container env name carrying the launch priority (R2.3.1). */
export const ENV_CONTAINER_BARRIER = 'KRUISE_CONTAINER_BARRIER';

// ---- conditions and readiness gates -----------------------------------------

/** Pod condition / readiness gate: False while an in-place update is in flight. */
export const CONDITION_INPLACE_UPDATE_READY = 'InPlaceUpdateReady';
/** Pod condition / readiness gate: multi-writer "not ready" switch (R5.6). */
export const CONDITION_KRUISE_POD_READY = 'KruisePodReady';

// ---- lifecycle states (spec/core.md §3.1) -----------------------------------

/** The lifecycle states a pod can be in (label `lifecycle.apps.kruise.io/state`). */
export const LifecycleStates = {
  PreparingNormal: 'PreparingNormal',
  Normal: 'Normal',
  PreparingUpdate: 'PreparingUpdate',
  Updating: 'Updating',
  Updated: 'Updated',
  PreparingDelete: 'PreparingDelete',
} as const;
/** A lifecycle state; `''` when the label is absent or empty. */
export type LifecycleState = (typeof LifecycleStates)[keyof typeof LifecycleStates] | '';
