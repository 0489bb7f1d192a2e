// @kruise-ts/daemon: the node daemon. A CRI client over gRPC (runtime.v1, own proto), the image puller
// for NodeImage (docs/reference/daemon.md §7) and the container recreate daemon for ContainerRecreateRequest
// (§9), as pure decision logic plus thin I/O adapters (CRI, Kubernetes API).
export { type Clock, parseTime, type Rng, realClock, rfc3339, seededRng } from './clock';
export {
  CRI_MAX_RECV_BYTES,
  CriClient,
  type CriConnectOptions,
  criTarget,
  defaultProtoPath,
} from './cri/client';
export {
  CANDIDATE_SOCKETS,
  type CriRuntimes,
  candidateEndpoints,
  type DiscoveredRuntime,
  type DiscoveryHooks,
  discoverRuntimes,
  unixSocketPath,
} from './cri/discovery';
export * from './cri/types';
export { CrrDaemonController, type CrrDaemonOptions } from './crr/controller';
export { containerRef, type KillInput, killContainer, runPreStopHook } from './crr/kill';
export {
  isDoneOrDeleting,
  type PickedStep,
  type PickResult,
  phaseWeight,
  pickCRR,
  pickedStep,
  runtimeTypeOf,
  sortForPick,
  stopRpcDeadlineMs,
  stopTimeoutSeconds,
  terminationGraceSeconds,
} from './crr/pick';
export * from './crr/podStatus';
export * from './crr/states';
export { createDaemon, type Daemon, type DaemonOptions, runDaemon } from './daemon';
export * from './imageRef';
export * from './keyring';
export * from './kube/adapter';
export { ClientNodeKube, type ClientNodeKubeOptions } from './kube/clientNode';
export { InMemoryKube } from './kube/memory';
export { createLogger, type Logger, REDACT_PATHS, REDACTED_KEYS, silentLogger } from './log';
export { ImagePuller, type ImagePullerOptions } from './puller/controller';
export * from './puller/policy';
export * from './puller/pool';
export * from './puller/pull';
export * from './puller/status';
export { PullWorker, type PullWorkerDeps, type PullWorkerSpec } from './puller/worker';
export {
  type BackoffPolicy,
  backoffDelayMs,
  DEFAULT_QUEUE_BACKOFF,
  type ProcessResult,
  WorkQueue,
} from './queue';
