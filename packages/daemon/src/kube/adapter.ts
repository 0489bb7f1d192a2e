// The daemon's view of the Kubernetes API (docs/reference/daemon.md §7.2, §7.3 item 3, §9.2, §9.3): watch its
// NodeImage and its node's active CRRs, read pull secrets, write statuses, record events. Two
// implementations: `InMemoryKube` (tests, and the embedded case) and `ClientNodeKube` (a real server).
import type {
  ContainerRecreateRequest,
  ContainerRecreateRequestStatus,
  NodeImage,
  NodeImageStatus,
} from '@kruise-ts/api';
import type { ObjectReference, Secret } from 'kubernetes-types/core/v1.js';

/** A watch event. A watch first replays every existing object as `ADDED`. */
export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: T;
}

/** Stops a watch. */
export type StopWatch = () => void;

/** A Kubernetes event to record. */
export interface EventRecord {
  involvedObject: ObjectReference;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** A write lost a resourceVersion race (HTTP 409); the caller retries with backoff. */
export class KubeConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeConflictError';
  }
}

/** The object is gone (HTTP 404). */
export class KubeNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeNotFoundError';
  }
}

/** Everything the daemon asks of the API server. */
export interface KubeAdapter {
  /** §7.2 item 1: watch NodeImage `metadata.name=<nodeName>`. */
  watchNodeImage(nodeName: string, onEvent: (ev: WatchEvent<NodeImage>) => void): Promise<StopWatch>;
  /** §7.3 item 3.3: replace the status (resourceVersion precondition; conflict → KubeConflictError). */
  updateNodeImageStatus(nodeImage: NodeImage, status: NodeImageStatus): Promise<NodeImage>;
  /** §7.4 item 1.1: read a pull secret; `undefined` when it does not exist. */
  getSecret(namespace: string, name: string): Promise<Secret | undefined>;
  /** §9.2 item 1: watch CRRs in all namespaces labelled `node-name=<nodeName>,active=true`. */
  watchContainerRecreateRequests(
    nodeName: string,
    onEvent: (ev: WatchEvent<ContainerRecreateRequest>) => void,
  ): Promise<StopWatch>;
  /** Status update with resourceVersion precondition (phase changes, completion). */
  updateContainerRecreateRequestStatus(
    crr: ContainerRecreateRequest,
    status: ContainerRecreateRequestStatus,
  ): Promise<ContainerRecreateRequest>;
  /** §9.3 item 5: JSON merge patch of the status (no precondition). */
  patchContainerRecreateRequestStatus(
    namespace: string,
    name: string,
    status: Partial<ContainerRecreateRequestStatus>,
  ): Promise<ContainerRecreateRequest>;
  /** Records an event (best effort). */
  recordEvent(ev: EventRecord): Promise<void>;
}

/** An ObjectReference to a Kruise object, for events. */
export function refOfObject(obj: {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}): ObjectReference {
  const ref: ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata?.name };
  if (obj.metadata?.namespace) ref.namespace = obj.metadata.namespace;
  if (obj.metadata?.uid) ref.uid = obj.metadata.uid;
  return ref;
}
