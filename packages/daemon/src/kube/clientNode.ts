// KubeAdapter over @kubernetes/client-node (a real API server, e.g. the embedded `kruise-ts serve`):
// list+watch with reconnect for the NodeImage (field selector) and the node's active CRRs (label
// selector), status replace / merge-patch for Kruise objects, secret reads and core/v1 events.

import type {
  ContainerRecreateRequest,
  ContainerRecreateRequestStatus,
  NodeImage,
  NodeImageStatus,
} from '@kruise-ts/api';
import { LABEL_CRR_ACTIVE, LABEL_CRR_NODE_NAME } from '@kruise-ts/api';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from '@kubernetes/client-node';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { type Logger, silentLogger } from '../log';
import {
  type EventRecord,
  type KubeAdapter,
  KubeConflictError,
  KubeNotFoundError,
  type StopWatch,
  type WatchEvent,
} from './adapter';

const GROUP = 'apps.kruise.io';
const VERSION = 'v1alpha1';

/** The Status message of an ApiException: client-node 2.x keeps a real server's body as JSON text. */
function statusMessage(e: ApiException<unknown>): string {
  let body: unknown = e.body;
  if (typeof e.body === 'string') {
    const text = e.body;
    try {
      body = JSON.parse(text);
    } catch {
      return text || e.message;
    }
  }
  const m = (body as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' ? m : e.message;
}

function mapError(e: unknown): never {
  if (e instanceof ApiException) {
    if (e.code === 409) throw new KubeConflictError(statusMessage(e));
    if (e.code === 404) throw new KubeNotFoundError(statusMessage(e));
  }
  throw e;
}

type Obj = { metadata?: { name?: string; namespace?: string; resourceVersion?: string } };

/** Options of {@link ClientNodeKube}. */
export interface ClientNodeKubeOptions {
  /** A kubeconfig file; default: client-node's default loading (in-cluster, $KUBECONFIG, ~/.kube/config). */
  kubeconfig?: string;
  /** A prepared KubeConfig (wins over `kubeconfig`). */
  kubeConfig?: KubeConfig;
  logger?: Logger;
  /** Delay before re-listing after a watch ends, ms (default 1 000). */
  rewatchDelayMs?: number;
  /** The event source component (default `kruise-daemon`). */
  component?: string;
  /** Host name put into event sources. */
  host?: string;
}

/** The real-server adapter. Its end-to-end test runs once `kruise-ts serve` exists. */
export class ClientNodeKube implements KubeAdapter {
  readonly kc: KubeConfig;
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;
  private readonly logger: Logger;

  constructor(private readonly opts: ClientNodeKubeOptions = {}) {
    this.kc = opts.kubeConfig ?? new KubeConfig();
    if (!opts.kubeConfig) {
      if (opts.kubeconfig) this.kc.loadFromFile(opts.kubeconfig);
      else this.kc.loadFromDefault();
    }
    this.custom = this.kc.makeApiClient(CustomObjectsApi);
    this.core = this.kc.makeApiClient(CoreV1Api);
    this.logger = (opts.logger ?? silentLogger()).child({ component: 'kube' });
  }

  /** List, replay as ADDED/MODIFIED/DELETED against what was known, then watch; re-list when the watch ends. */
  private listWatch<T extends Obj>(
    path: string,
    list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>,
    query: Record<string, string>,
    onEvent: (ev: WatchEvent<T>) => void,
  ): Promise<StopWatch> {
    const known = new Map<string, T>();
    const keyOf = (o: T) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    let stopped = false;
    let abort: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = new Watch(this.kc);
    const cycle = async (): Promise<void> => {
      if (stopped) return;
      try {
        const res = await list();
        const seen = new Set<string>();
        for (const o of res.items ?? []) {
          const k = keyOf(o);
          seen.add(k);
          const had = known.has(k);
          known.set(k, o);
          onEvent({ type: had ? 'MODIFIED' : 'ADDED', object: o });
        }
        for (const [k, o] of known) {
          if (!seen.has(k)) {
            known.delete(k);
            onEvent({ type: 'DELETED', object: o });
          }
        }
        abort = await watch.watch(
          path,
          { ...query, resourceVersion: res.metadata?.resourceVersion, allowWatchBookmarks: true },
          (phase, obj: T) => {
            if (phase === 'BOOKMARK' || phase === 'ERROR') return;
            const k = keyOf(obj);
            if (phase === 'DELETED') known.delete(k);
            else known.set(k, obj);
            onEvent({ type: phase as WatchEvent<T>['type'], object: obj });
          },
          (err) => {
            if (err) this.logger.warn({ path, err: String((err as Error)?.message ?? err) }, 'watch ended');
            if (!stopped) timer = setTimeout(() => void cycle(), this.opts.rewatchDelayMs ?? 1_000);
          },
        );
      } catch (e) {
        this.logger.warn({ path, err: (e as Error).message }, 'list failed');
        if (!stopped) timer = setTimeout(() => void cycle(), this.opts.rewatchDelayMs ?? 1_000);
      }
    };
    return cycle().then(() => () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort?.abort();
    });
  }

  watchNodeImage(nodeName: string, onEvent: (ev: WatchEvent<NodeImage>) => void): Promise<StopWatch> {
    const fieldSelector = `metadata.name=${nodeName}`;
    return this.listWatch<NodeImage>(
      `/apis/${GROUP}/${VERSION}/nodeimages`,
      () =>
        this.custom.listClusterCustomObject({
          group: GROUP,
          version: VERSION,
          plural: 'nodeimages',
          fieldSelector,
        }),
      { fieldSelector },
      onEvent,
    );
  }

  async updateNodeImageStatus(nodeImage: NodeImage, status: NodeImageStatus): Promise<NodeImage> {
    try {
      return (await this.custom.replaceClusterCustomObjectStatus({
        group: GROUP,
        version: VERSION,
        plural: 'nodeimages',
        name: nodeImage.metadata.name ?? '',
        body: { ...nodeImage, status },
      })) as NodeImage;
    } catch (e) {
      return mapError(e);
    }
  }

  async getSecret(namespace: string, name: string): Promise<Secret | undefined> {
    try {
      return (await this.core.readNamespacedSecret({ namespace, name })) as unknown as Secret;
    } catch (e) {
      if (e instanceof ApiException && e.code === 404) return undefined;
      throw e;
    }
  }

  watchContainerRecreateRequests(
    nodeName: string,
    onEvent: (ev: WatchEvent<ContainerRecreateRequest>) => void,
  ): Promise<StopWatch> {
    const labelSelector = `${LABEL_CRR_NODE_NAME}=${nodeName},${LABEL_CRR_ACTIVE}=true`;
    return this.listWatch<ContainerRecreateRequest>(
      `/apis/${GROUP}/${VERSION}/containerrecreaterequests`,
      () =>
        this.custom.listCustomObjectForAllNamespaces({
          group: GROUP,
          version: VERSION,
          resourcePlural: 'containerrecreaterequests',
          labelSelector,
        }),
      { labelSelector },
      onEvent,
    );
  }

  async updateContainerRecreateRequestStatus(
    crr: ContainerRecreateRequest,
    status: ContainerRecreateRequestStatus,
  ): Promise<ContainerRecreateRequest> {
    try {
      return (await this.custom.replaceNamespacedCustomObjectStatus({
        group: GROUP,
        version: VERSION,
        namespace: crr.metadata.namespace ?? '',
        plural: 'containerrecreaterequests',
        name: crr.metadata.name ?? '',
        body: { ...crr, status },
      })) as ContainerRecreateRequest;
    } catch (e) {
      return mapError(e);
    }
  }

  async patchContainerRecreateRequestStatus(
    namespace: string,
    name: string,
    status: Partial<ContainerRecreateRequestStatus>,
  ): Promise<ContainerRecreateRequest> {
    try {
      return (await this.custom.patchNamespacedCustomObjectStatus(
        {
          group: GROUP,
          version: VERSION,
          namespace,
          plural: 'containerrecreaterequests',
          name,
          body: { status },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )) as ContainerRecreateRequest;
    } catch (e) {
      return mapError(e);
    }
  }

  async recordEvent(ev: EventRecord): Promise<void> {
    const ns = ev.involvedObject.namespace || 'default';
    const now = new Date();
    try {
      await this.core.createNamespacedEvent({
        namespace: ns,
        body: {
          metadata: { generateName: `${ev.involvedObject.name ?? 'object'}.`, namespace: ns },
          involvedObject: ev.involvedObject,
          type: ev.type,
          reason: ev.reason,
          message: ev.message,
          source: { component: this.opts.component ?? 'kruise-daemon', host: this.opts.host },
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
        },
      });
    } catch (e) {
      this.logger.warn({ reason: ev.reason, err: (e as Error).message }, 'failed to record event');
    }
  }
}
