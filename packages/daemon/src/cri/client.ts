// The CRI gRPC client (runtime.v1 RuntimeService + ImageService) over @grpc/grpc-js, loading the
// project's own proto/runtime_v1.proto. It implements the daemon's narrow service interfaces
// (docs/reference/daemon.md §10) plus the sandbox/container calls an integration harness needs to play kubelet.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  type CallOptions,
  type CriContainer,
  type CriContainerFilter,
  type CriContainerStatus,
  CriError,
  type CriExecSyncResponse,
  type CriImage,
  type CriImageService,
  type CriPodSandboxConfig,
  type CriPullImageRequest,
  type CriRuntimeService,
  type CriVersion,
} from './types';

/** 16 MiB, the max receive size the daemon dials with (§7.1 item 2.1). */
export const CRI_MAX_RECV_BYTES = 16 * 1024 * 1024;

/** Finds `proto/runtime_v1.proto` from this module (works from src/ and from a bundled dist/). */
export function defaultProtoPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'proto', 'runtime_v1.proto');
    if (existsSync(p)) return p;
    dir = dirname(dir);
  }
  throw new Error('kruise-ts daemon: proto/runtime_v1.proto not found next to the package');
}

type Callback = (err: grpc.ServiceError | null, res: unknown) => void;
type UnaryFn = (
  req: unknown,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: Callback,
) => grpc.ClientUnaryCall;
type ServiceCtor = grpc.ServiceClientConstructor;
/** A client of one service: a grpc-js Client with a method per rpc. */
type ServiceClient = InstanceType<ServiceCtor>;

let cachedPackage: { runtime: ServiceCtor; image: ServiceCtor } | undefined;

function loadServices(protoPath?: string): { runtime: ServiceCtor; image: ServiceCtor } {
  if (cachedPackage && protoPath === undefined) return cachedPackage;
  const def = protoLoader.loadSync(protoPath ?? defaultProtoPath(), {
    keepCase: false,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  // The proto declares package runtime.v1 with these two services, which grpc-js loads as client
  // constructors; its GrpcObject type cannot say which entry is which.
  const pkg = grpc.loadPackageDefinition(def) as {
    runtime: { v1: { RuntimeService: ServiceCtor; ImageService: ServiceCtor } };
  };
  const out = { runtime: pkg.runtime.v1.RuntimeService, image: pkg.runtime.v1.ImageService };
  if (protoPath === undefined) cachedPackage = out;
  return out;
}

/** Options of {@link CriClient.connect}. */
export interface CriConnectOptions {
  /** Dial timeout in ms; default 30 000 (§7.1 item 2.1). */
  dialTimeoutMs?: number;
  /** Default per-call deadline in ms for calls that pass none; default 5 000 (§7.1 item 2.4). */
  defaultCallTimeoutMs?: number;
  /** Alternative proto file. */
  protoPath?: string;
}

/** Turns `unix:///run/x.sock`, `unix:/run/x.sock` or `/run/x.sock` into the gRPC target. */
export function criTarget(endpoint: string): string {
  if (endpoint.startsWith('unix://')) return `unix://${endpoint.slice('unix://'.length)}`;
  if (endpoint.startsWith('unix:')) return `unix://${endpoint.slice('unix:'.length)}`;
  if (endpoint.startsWith('/')) return `unix://${endpoint}`;
  return endpoint;
}

/**
 * A connected CRI client. `connect` dials and waits until the channel is ready.
 *
 * Example: `const cri = await CriClient.connect('unix:///run/containerd/containerd.sock');
 * (await cri.version()).runtimeName === 'containerd'`.
 */
export class CriClient implements CriImageService, CriRuntimeService {
  readonly endpoint: string;
  private readonly runtime: ServiceClient;
  private readonly image: ServiceClient;
  private readonly defaultTimeoutMs: number;

  private constructor(
    endpoint: string,
    runtime: ServiceClient,
    image: ServiceClient,
    defaultTimeoutMs: number,
  ) {
    this.endpoint = endpoint;
    this.runtime = runtime;
    this.image = image;
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  /** Dials `endpoint` (insecure, unix socket) and waits for the channel; rejects after the dial timeout. */
  static async connect(endpoint: string, opts: CriConnectOptions = {}): Promise<CriClient> {
    const svc = loadServices(opts.protoPath);
    const target = criTarget(endpoint);
    const chOpts = { 'grpc.max_receive_message_length': CRI_MAX_RECV_BYTES };
    const creds = grpc.credentials.createInsecure();
    const runtime = new svc.runtime(target, creds, chOpts);
    const image = new svc.image(target, creds, chOpts);
    const deadline = new Date(Date.now() + (opts.dialTimeoutMs ?? 30_000));
    try {
      await Promise.all(
        [runtime, image].map(
          (c) => new Promise<void>((res, rej) => c.waitForReady(deadline, (e) => (e ? rej(e) : res()))),
        ),
      );
    } catch (e) {
      runtime.close();
      image.close();
      throw new Error(`failed to dial CRI endpoint ${endpoint}: ${(e as Error).message}`);
    }
    return new CriClient(endpoint, runtime, image, opts.defaultCallTimeoutMs ?? 5_000);
  }

  /** Closes both channels. */
  close(): void {
    this.runtime.close();
    this.image.close();
  }

  private call<T>(
    client: ServiceClient,
    method: string,
    req: unknown,
    opts: CallOptions | undefined,
  ): Promise<T> {
    // Every method named here is a unary rpc of the loaded proto, which grpc-js gives this signature.
    const fn = client[method] as UnaryFn;
    const timeoutMs = opts?.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      if (opts?.signal?.aborted) {
        reject(new CriError(1, 'context canceled'));
        return;
      }
      const callOpts: grpc.CallOptions = {};
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) callOpts.deadline = new Date(Date.now() + timeoutMs);
      let onAbort: (() => void) | undefined;
      const call = fn.call(client, req, new grpc.Metadata(), callOpts, (err, res) => {
        if (onAbort) opts?.signal?.removeEventListener('abort', onAbort);
        if (err) reject(new CriError(err.code, err.details || err.message));
        else resolve(res as T);
      });
      if (opts?.signal) {
        onAbort = () => call.cancel();
        opts.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  // ---- ImageService ----
  imageFsInfo(opts?: CallOptions): Promise<unknown> {
    return this.call(this.image, 'imageFsInfo', {}, opts);
  }
  async listImages(opts?: CallOptions): Promise<CriImage[]> {
    const res = await this.call<{ images: CriImage[] }>(this.image, 'listImages', {}, opts);
    return res.images ?? [];
  }
  async pullImage(req: CriPullImageRequest, opts?: CallOptions): Promise<string> {
    // A pull can take long: no default deadline unless the caller gives one.
    const res = await this.call<{ imageRef: string }>(this.image, 'pullImage', req, {
      timeoutMs: 0,
      ...opts,
    });
    return res.imageRef;
  }
  /** `ImageStatus`; `undefined` when the runtime does not have the image (containerd answers `image: null`). */
  async imageStatus(image: string, opts?: CallOptions): Promise<CriImage | undefined> {
    const res = await this.call<{ image: CriImage | null }>(
      this.image,
      'imageStatus',
      { image: { image } },
      opts,
    );
    return res.image ?? undefined;
  }
  async removeImage(image: string, opts?: CallOptions): Promise<void> {
    await this.call(this.image, 'removeImage', { image: { image } }, opts);
  }

  // ---- RuntimeService ----
  version(opts?: CallOptions): Promise<CriVersion> {
    return this.call(this.runtime, 'version', { version: '0.1.0' }, opts);
  }
  async listContainers(filter: CriContainerFilter, opts?: CallOptions): Promise<CriContainer[]> {
    const res = await this.call<{ containers: CriContainer[] }>(
      this.runtime,
      'listContainers',
      { filter },
      opts,
    );
    return res.containers ?? [];
  }
  async containerStatus(containerId: string, opts?: CallOptions): Promise<CriContainerStatus> {
    const res = await this.call<{ status: CriContainerStatus }>(
      this.runtime,
      'containerStatus',
      { containerId, verbose: false },
      opts,
    );
    return res.status;
  }
  execSync(
    containerId: string,
    cmd: string[],
    timeoutSeconds: number,
    opts?: CallOptions,
  ): Promise<CriExecSyncResponse> {
    // §9.4 item 3: ExecSync with timeout 0 has no RPC deadline either.
    return this.call(
      this.runtime,
      'execSync',
      { containerId, cmd, timeout: timeoutSeconds },
      { timeoutMs: 0, ...opts },
    );
  }
  async stopContainer(containerId: string, timeoutSeconds: number, opts?: CallOptions): Promise<void> {
    await this.call(this.runtime, 'stopContainer', { containerId, timeout: timeoutSeconds }, opts);
  }

  // ---- what a harness playing kubelet needs ----
  async runPodSandbox(config: CriPodSandboxConfig, opts?: CallOptions): Promise<string> {
    const res = await this.call<{ podSandboxId: string }>(
      this.runtime,
      'runPodSandbox',
      { config },
      {
        timeoutMs: 60_000,
        ...opts,
      },
    );
    return res.podSandboxId;
  }
  async stopPodSandbox(podSandboxId: string, opts?: CallOptions): Promise<void> {
    await this.call(this.runtime, 'stopPodSandbox', { podSandboxId }, { timeoutMs: 60_000, ...opts });
  }
  async removePodSandbox(podSandboxId: string, opts?: CallOptions): Promise<void> {
    await this.call(this.runtime, 'removePodSandbox', { podSandboxId }, { timeoutMs: 60_000, ...opts });
  }
  async listPodSandbox(
    labelSelector?: Record<string, string>,
    opts?: CallOptions,
  ): Promise<{ id: string; labels: Record<string, string> }[]> {
    const res = await this.call<{ items: { id: string; labels: Record<string, string> }[] }>(
      this.runtime,
      'listPodSandbox',
      { filter: labelSelector ? { labelSelector } : undefined },
      opts,
    );
    return res.items ?? [];
  }
  async createContainer(
    podSandboxId: string,
    config: {
      metadata: { name: string; attempt?: number };
      image: { image: string };
      command?: string[];
      args?: string[];
      envs?: { key: string; value: string }[];
      mounts?: { containerPath: string; hostPath: string; readonly?: boolean }[];
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
      logPath?: string;
    },
    sandboxConfig: CriPodSandboxConfig,
    opts?: CallOptions,
  ): Promise<string> {
    const res = await this.call<{ containerId: string }>(
      this.runtime,
      'createContainer',
      { podSandboxId, config, sandboxConfig },
      { timeoutMs: 60_000, ...opts },
    );
    return res.containerId;
  }
  async startContainer(containerId: string, opts?: CallOptions): Promise<void> {
    await this.call(this.runtime, 'startContainer', { containerId }, { timeoutMs: 60_000, ...opts });
  }
  async removeContainer(containerId: string, opts?: CallOptions): Promise<void> {
    await this.call(this.runtime, 'removeContainer', { containerId }, { timeoutMs: 60_000, ...opts });
  }
}
