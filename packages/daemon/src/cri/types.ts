// CRI runtime.v1 message shapes (the subset in proto/runtime_v1.proto) as the daemon sees them:
// camelCase fields (proto-loader's default), enums as their names, int64 as decimal strings
// (nanosecond timestamps do not fit a JS number exactly), bytes as Buffer. Plus the two narrow
// service interfaces the daemon's logic depends on, so unit tests can pass fakes (docs/reference/daemon.md §10).

/** `ImageSpec`. */
export interface CriImageSpec {
  image: string;
  annotations?: Record<string, string>;
}

/** `AuthConfig`: the daemon only ever sets `username` and `password` (§7.7 item 3.3). */
export interface CriAuthConfig {
  username?: string;
  password?: string;
}

/** `PodSandboxConfig` (subset). */
export interface CriPodSandboxConfig {
  metadata?: { name?: string; uid?: string; namespace?: string; attempt?: number };
  hostname?: string;
  logDirectory?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  linux?: {
    cgroupParent?: string;
    securityContext?: {
      namespaceOptions?: { network?: CriNamespaceMode; pid?: CriNamespaceMode; ipc?: CriNamespaceMode };
      privileged?: boolean;
    };
  };
}

/** `NamespaceMode`. */
export type CriNamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

/** `PullImageRequest`. */
export interface CriPullImageRequest {
  image: CriImageSpec;
  auth?: CriAuthConfig;
  sandboxConfig?: CriPodSandboxConfig;
}

/** `Image`. `size` is a decimal string (uint64). */
export interface CriImage {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size?: string;
}

/** `ContainerState`. */
export type CriContainerState =
  | 'CONTAINER_CREATED'
  | 'CONTAINER_RUNNING'
  | 'CONTAINER_EXITED'
  | 'CONTAINER_UNKNOWN';

/** `Container` (a ListContainers item). Timestamps are nanoseconds as decimal strings. */
export interface CriContainer {
  id: string;
  podSandboxId: string;
  metadata?: { name: string; attempt: number };
  image?: CriImageSpec;
  imageRef?: string;
  state: CriContainerState;
  createdAt: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** `ContainerStatus`. Timestamps are nanoseconds as decimal strings ("0" = not set). */
export interface CriContainerStatus {
  id: string;
  metadata?: { name: string; attempt: number };
  state: CriContainerState;
  createdAt: string;
  startedAt: string;
  finishedAt: string;
  exitCode: number;
  image?: CriImageSpec;
  imageRef?: string;
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath?: string;
}

/** `ContainerFilter`. */
export interface CriContainerFilter {
  id?: string;
  state?: { state: CriContainerState };
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}

/** `ExecSyncResponse`. */
export interface CriExecSyncResponse {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** `VersionResponse`. */
export interface CriVersion {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

/** Per-call options: a deadline in ms and an abort signal (used for stop / attempt timeout). */
export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The image half of CRI the puller needs (§10: ImageFsInfo, ListImages, PullImage). */
export interface CriImageService {
  imageFsInfo(opts?: CallOptions): Promise<unknown>;
  listImages(opts?: CallOptions): Promise<CriImage[]>;
  /** Returns the response's `image_ref` (which the daemon ignores, §7.7 item 4). */
  pullImage(req: CriPullImageRequest, opts?: CallOptions): Promise<string>;
}

/** The runtime half of CRI the CRR path needs (§10: Version, ListContainers, ContainerStatus, ExecSync, StopContainer). */
export interface CriRuntimeService {
  version(opts?: CallOptions): Promise<CriVersion>;
  listContainers(filter: CriContainerFilter, opts?: CallOptions): Promise<CriContainer[]>;
  containerStatus(containerId: string, opts?: CallOptions): Promise<CriContainerStatus>;
  execSync(
    containerId: string,
    cmd: string[],
    timeoutSeconds: number,
    opts?: CallOptions,
  ): Promise<CriExecSyncResponse>;
  stopContainer(containerId: string, timeoutSeconds: number, opts?: CallOptions): Promise<void>;
}

/** gRPC status codes the daemon distinguishes, with the Go names used in error texts. */
export const GRPC_CODE_NAMES: Record<number, string> = {
  0: 'OK',
  1: 'Canceled',
  2: 'Unknown',
  3: 'InvalidArgument',
  4: 'DeadlineExceeded',
  5: 'NotFound',
  6: 'AlreadyExists',
  7: 'PermissionDenied',
  8: 'ResourceExhausted',
  9: 'FailedPrecondition',
  10: 'Aborted',
  11: 'OutOfRange',
  12: 'Unimplemented',
  13: 'Internal',
  14: 'Unavailable',
  15: 'DataLoss',
  16: 'Unauthenticated',
};

/**
 * An error from a CRI call. `message` is formatted the way the Go gRPC client prints it
 * (`rpc error: code = Unknown desc = …`), which is what upstream puts into status messages.
 */
export class CriError extends Error {
  readonly code: number;
  readonly details: string;
  constructor(code: number, details: string) {
    super(`rpc error: code = ${GRPC_CODE_NAMES[code] ?? String(code)} desc = ${details}`);
    this.name = 'CriError';
    this.code = code;
    this.details = details;
  }
}
