// Advanced DaemonSet keys and defaults (docs/reference/daemonset.md §1, §3.1, §5.5, §6).
import {
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_UNSCHEDULABLE,
} from '@kruise-ts/api';
import type { Toleration } from 'kubernetes-types/core/v1.js';

export {
  ANNOTATION_DAEMONSET_PROGRESSIVE_CREATE_POD as ANNOTATION_PROGRESSIVE_CREATE_POD,
  ANNOTATION_DEPRECATED_DAEMONSET_TEMPLATE_GENERATION as ANNOTATION_DEPRECATED_TEMPLATE_GENERATION,
  DAEMONSET_CONTROLLER_SCHEDULER_NAME as DAEMONSET_CONTROLLER_SCHEDULER,
  LABEL_POD_TEMPLATE_GENERATION,
} from '@kruise-ts/api';

/** `burstReplicas` when unset (§1.1). */
export const DEFAULT_BURST_REPLICAS = 250;
/** `revisionHistoryLimit` when unset (§12.5). */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** Failed-pod back-off: first window 1 s, doubled on each deletion, at most 15 min (§5.5). */
export const FAILED_POD_BACKOFF_INITIAL_SECONDS = 1;
export const FAILED_POD_BACKOFF_MAX_SECONDS = 15 * 60;

/**
 * The default daemon tolerations of §3.1, in the order they are added. The
 * `network-unavailable` one is added only for `hostNetwork: true` pods.
 */
export const DEFAULT_DAEMON_TOLERATIONS: readonly Readonly<Toleration>[] = Object.freeze([
  { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
  { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
  { key: TAINT_NODE_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
  { key: TAINT_NODE_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
  { key: TAINT_NODE_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
  { key: TAINT_NODE_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
]);

/** Added to the defaults for `hostNetwork: true` pods (§3.1). */
export const HOST_NETWORK_DAEMON_TOLERATION: Readonly<Toleration> = Object.freeze({
  key: TAINT_NODE_NETWORK_UNAVAILABLE,
  operator: 'Exists',
  effect: 'NoSchedule',
});

/** Event reasons the controller emits itself (§2, §5.5, §8). */
export const EVENT_SELECTING_ALL = 'SelectingAll';
export const EVENT_FAILED_DAEMON_POD = 'FailedDaemonPod';
export const EVENT_SUCCESSFUL_UPDATE_POD_IN_PLACE = 'SuccessfulUpdatePodInPlace';
export const EVENT_FAILED_UPDATE_POD_IN_PLACE = 'FailedUpdatePodInPlace';

/** Machine-readable `reason` words of the actions this controller returns. */
export const Reasons = {
  CreateRevision: 'CreateRevision',
  UpdateRevision: 'UpdateRevision',
  DeleteRevision: 'DeleteRevision',
  /** A pod created by the manage phase on a node that needs one (§5.1 M1). */
  CreateDaemonPod: 'CreateDaemonPod',
  /** A surge pod created by the rolling update (§7.4). */
  SurgeCreate: 'SurgeCreate',
  /** A pod on a node that must not run one (§5.1 M3) or bound to a vanished node (§5.3). */
  Misscheduled: 'Misscheduled',
  /** A surplus pod on a node (§5.2). */
  DuplicateDaemonPod: 'DuplicateDaemonPod',
  /** A failed pod replaced (§5.5). */
  FailedDaemonPod: 'FailedDaemonPod',
  /** A pre-deleting pod whose hook is released (§9.4). */
  PreDelete: 'PreDelete',
  /** The old pod of a node after its surge pod became available, or an unready old pod (§5.2, §7.4). */
  SurgeHandover: 'SurgeHandover',
  /** An old pod deleted by the standard rolling update (§7.3). */
  RecreateUpdate: 'RecreateUpdate',
  /** An old pod updated in place (§8). */
  InPlaceUpdate: 'InPlaceUpdate',
  /** The in-place state refreshed (§8.3). */
  InPlaceRefresh: 'InPlaceRefresh',
  /** A pod marked `PreparingDelete` instead of deleted (§9.3). */
  PreparingDelete: 'PreparingDelete',
  /** Controller-ref adoption / release (§4.1). */
  AdoptPod: 'AdoptPod',
  ReleasePod: 'ReleasePod',
  /** Pods relabelled to the kept revision's hash when duplicate revisions are merged (§12.3). */
  RelabelPod: 'RelabelPod',
  UpdateStatus: 'UpdateStatus',
} as const;
