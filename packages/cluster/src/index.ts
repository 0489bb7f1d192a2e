// @kruise-ts/cluster: the simulated cluster a controller runs against — the object store (an
// in-memory API server with admission, versions, finalizers and garbage collection), the
// kubelet, scheduler and node lifecycle models, the kruise-daemon's node side, the virtual clock
// and the event queue — and `Cluster` / `createCluster`, which wire them together. Pure of I/O:
// time is virtual and every random choice comes from the seed.

export { actionRecord, eventRecord, type ReasonDetails, type RecordInput } from './actionRecords';
export {
  AdmissionChain,
  type AdmissionContext,
  type AdmissionHooks,
  type AdmissionResult,
  DELETION_PROTECTED_KINDS,
  type Defaulter,
  type DeleteAdmissionContext,
  type DeleteAdmissionResult,
  type DeleteDenial,
  type DeleteValidator,
  deletionProtectionValidator,
  installDeletionProtection,
  invalidMessage,
  type Mutator,
  type Validator,
} from './admission';
export { Cluster, type ClusterOptions, type CreateClusterOptions, createCluster } from './cluster';
export {
  type ClusterPayload,
  defaultTimings,
  type KubeletPayload,
  type NodePayload,
  type SimContext,
  type Timings,
  type WakePayload,
} from './context';
export { EventQueue, type Scheduled } from './eventQueue';
export { DEFAULT_EVENT_LOG_CAPACITY, EventLog, type LogLevel, objectLabel, type SimEvent } from './events';
export { fnvHex } from './hashing';
export {
  apiVersionOf,
  displayName,
  displayRef,
  groupOf,
  isNamespaced,
  keyOf,
  kindPrefix,
  objectKey,
  refKey,
  resourceName,
} from './keys';
export { goDuration, imageSize, type KubeEventRecord, kubeMessages } from './kubeEvents';
export { Kubelet } from './kubelet';
export { type NodeRuntime, NodeSide } from './nodeSide';
export { DEFAULT_NODE_CAPACITY, NODE_INFO, type NodeConfig, NodeLifecycle, nodeObject } from './nodes';
export { DEFAULT_MAX_OBJECTS, OBJECT_QUOTA_NAME, type QuotaDenial, quotaDenial } from './objectQuota';
export { nodeAddresses, PodNetwork } from './podNetwork';
export { type PodReactors, reactToPodChange } from './podReactions';
export {
  type ContainerRuntime,
  type CState,
  composeStatus,
  imageIDOf,
  type PodRuntime,
  podLabel,
} from './podStatus';
export { isNodeReady, podRequests, Scheduler } from './scheduler';
export { type Change, Store, type StoreOptions, type WriteResult } from './store';
export {
  DEFAULT_START_TIME,
  formatDuration,
  humanDuration,
  parseDuration,
  rfc3339,
  VirtualClock,
} from './time';
