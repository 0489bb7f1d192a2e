// Well-known labels, annotations, condition types, readiness gates and
// finalizers, as exact strings (docs/reference/core.md §0.1 and each controller's spec).
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
/** Pod label: the lifecycle state (docs/reference/core.md §3). */
export const LABEL_LIFECYCLE_STATE = 'lifecycle.apps.kruise.io/state';
/** Pod label: presence (any value) means "delete this pod" (R7.2). */
export const LABEL_SPECIFIED_DELETE = 'apps.kruise.io/specified-delete';
/** Pod label prefix: any label with this prefix marks the pod unavailable, for PodUnavailableBudget only (R7.1). */
export const LABEL_PREFIX_UNAVAILABLE_POD = 'unavailable-pod.kruise.io/';
/** Pod and PVC label, CloneSet only: the instance id a pod shares with its PVCs. */
export const LABEL_CLONESET_INSTANCE_ID = 'apps.kruise.io/cloneset-instance-id';
/** CloneSet label: `"true"` enables scaling-exclude-preparing-delete (docs/reference/cloneset.md §6 D10). */
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

/** Pod annotation: JSON InPlaceUpdateState (docs/reference/core.md 2.7.1). */
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
/** Workload annotations tuning image pre-download (docs/reference/core.md 7.4). */
export const ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM = 'apps.kruise.io/image-predownload-parallelism';
export const ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS =
  'apps.kruise.io/image-predownload-timeout-seconds';
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

// ---- lifecycle states (docs/reference/core.md §3.1) -----------------------------------

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

// ---- finalizers and deletion protection (docs/reference/operator.md §1, docs/reference/daemon.md §1) ----

/** Finalizer on ImagePullJobs so their secret copies are cleaned up (added on create, daemon.md §3.3). */
export const DELETION_PROTECTION_FINALIZER = 'apps.kruise.io/deletion-protection';
/** Default namespace of the Kruise manager (env `POD_NAMESPACE` overrides; SidecarSet revisions live here). */
export const DEFAULT_KRUISE_NAMESPACE = 'kruise-system';
/** ControllerRevision label: the hash part of a revision name (Kubernetes history). */
export const LABEL_CONTROLLER_HASH = 'controller.kubernetes.io/hash';

// ---- Advanced StatefulSet (docs/reference/statefulset.md §1) ---------------------------

/** PVC annotation: the owning set's name, written only when ASTS resizes a claim. */
export const ANNOTATION_OWNED_BY_ASTS = 'apps.kruise.io/owned-by-asts';

// ---- Advanced DaemonSet (docs/reference/daemonset.md) -----------------------------------

/** DaemonSet annotation `"true"`: `partition` also limits pod creation (§5.4). */
export const ANNOTATION_DAEMONSET_PROGRESSIVE_CREATE_POD = 'daemonset.kruise.io/progressive-create-pod';
/** DaemonSet annotation of the legacy template-generation path. */
export const ANNOTATION_DEPRECATED_DAEMONSET_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';
/** Pod label of the legacy template-generation path. */
export const LABEL_POD_TEMPLATE_GENERATION = 'pod-template-generation';
/** Scheduler name used when the DaemonSet controller binds pods itself (flag `assign-pods-by-scheduler=false`). */
export const DAEMONSET_CONTROLLER_SCHEDULER_NAME = 'kubernetes.io/daemonset-controller';
/** Node taints the DaemonSet pods tolerate by default (docs/reference/daemonset.md §3.1). */
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';

// ---- SidecarSet (docs/reference/sidecarset.md) ------------------------------------------

/** SidecarSet and pod annotation: SidecarSet hash (SS-2.1); on pods a JSON map name → entry (SS-4.7.1). */
export const ANNOTATION_SIDECARSET_HASH = 'kruise.io/sidecarset-hash';
/** SidecarSet and pod annotation: hash without images (SS-2.2, SS-4.7.2). */
export const ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE = 'kruise.io/sidecarset-hash-without-image';
/** Pod annotation: sorted comma-joined names of matched SidecarSets (SS-4.7.3). */
export const ANNOTATION_SIDECARSET_INJECTED_LIST = 'kruise.io/sidecarset-injected-list';
/** Pod annotation: JSON map SidecarSet name → in-place update state (SS-5.7.4). */
export const ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE = 'kruise.io/sidecarset-inplace-update-state';
/** Pod annotation: JSON map sidecar base name → working hot-upgrade container (SS-4.5.3). */
export const ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER =
  'kruise.io/sidecarset-working-hotupgrade-container';
/** Pod annotation prefix (+ container name): hot-upgrade version (SS-4.5.2). */
export const ANNOTATION_PREFIX_SIDECARSET_VERSION = 'version.sidecarset.kruise.io/';
/** Pod annotation prefix (+ container name): hot-upgrade alternate version (SS-4.5.2). */
export const ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT = 'versionalt.sidecarset.kruise.io/';
/** ControllerRevision label: the owning SidecarSet's name (SS-5.3.1). */
export const LABEL_SIDECARSET_NAME = 'kruise.io/sidecarset-name';
/** SidecarSet label copied onto its revisions: a user version name (SS-4.2.2, SS-5.3). */
export const LABEL_SIDECARSET_CUSTOM_VERSION = 'apps.kruise.io/sidecarset-custom-version';
/** Env var marker on every injected container (SS-4.7.5). */
export const ENV_IS_INJECTED = 'IS_INJECTED';
/** Env vars of hot-upgrade containers (SS-4.5.2). */
export const ENV_SIDECARSET_VERSION = 'SIDECARSET_VERSION';
export const ENV_SIDECARSET_VERSION_ALT = 'SIDECARSET_VERSION_ALT';
/** Namespace label every namespace carries with its own name (used by namespaceSelector). */
export const LABEL_NAMESPACE_NAME = 'kubernetes.io/metadata.name';

// ---- UnitedDeployment (docs/reference/uniteddeployment.md) ------------------------------

/** Workload and pod-template label: the UD ControllerRevision the object was rendered from. */
export const LABEL_UD_CONTROLLER_REVISION_HASH = 'apps.kruise.io/controller-revision-hash';
/** Workload annotation: the subset's raw `patch` that was applied (`""` if none). */
export const ANNOTATION_SUBSET_PATCH = 'apps.kruise.io/subset-patch';

// ---- image pull and ContainerRecreateRequest (docs/reference/daemon.md §1) --------------

/** NodeImage label: keep the NodeImage when its Node is missing. */
export const LABEL_FAKE_NODEIMAGE = 'apps.kruise.io/fake-nodeimage';
/** Copied secret annotation: `"<ns>/<name>"` of the source secret. */
export const ANNOTATION_IMAGEPULLJOB_SOURCE_KEY = 'imagepulljobs.kruise.io/source-key';
/** Copied secret label: UID of the source secret. */
export const LABEL_IMAGEPULLJOB_SOURCE_UID = 'imagepulljobs.kruise.io/source-uid';
/** Copied secret annotation: comma-joined `"<ns>/<name>"` of the jobs using it. */
export const ANNOTATION_IMAGEPULLJOB_REFERENCES = 'imagepulljobs.kruise.io/references';
/** Namespace holding copied pull secrets (env `KRUISE_DAEMON_CONFIG_NS` overrides). */
export const KRUISE_DAEMON_CONFIG_NAMESPACE = 'kruise-daemon-config';
/** CRI annotation added to every PullImageRequest sandbox config, value `kruise-daemon`. */
export const ANNOTATION_PULLING_IMAGE_BY = 'apps.kruise.io/pulling-image-by';
/** CRR label (immutable): UID of the target pod. */
export const LABEL_CRR_POD_UID = 'crr.apps.kruise.io/pod-uid';
/** CRR label (immutable): node of the target pod; the daemon's watch selector. */
export const LABEL_CRR_NODE_NAME = 'crr.apps.kruise.io/node-name';
/** CRR label `"true"` until completion. */
export const LABEL_CRR_ACTIVE = 'crr.apps.kruise.io/active';
/** CRR annotation: JSON `[{name, ready, restartCount, containerID}]` written by the controller. */
export const ANNOTATION_CRR_SYNC_CONTAINER_STATUSES = 'crr.apps.kruise.io/sync-container-statuses';
/** CRR annotation (RFC 3339 time the pod was made not-ready) and finalizer of the same name. */
export const ANNOTATION_CRR_UNREADY_ACQUIRED = 'crr.apps.kruise.io/unready-acquired';
export const FINALIZER_CRR_UNREADY_ACQUIRED = 'crr.apps.kruise.io/unready-acquired';

// ---- AdvancedCronJob (docs/reference/advancedcronjob.md) --------------------------------

/** Child annotation: the RFC 3339 slot the child was created for (AC4.4, AC4.11). */
export const ANNOTATION_SCHEDULED_AT = 'apps.kruise.io/scheduled-at';
