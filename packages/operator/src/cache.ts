// The shared informer cache: one Informer per kind (every Kruise kind the enabled controllers
// reconcile, and the pods, PVCs, ControllerRevisions, nodes, namespaces and workloads they own),
// started together; controllers start only after every informer has listed (O3.5).
import type { KubeObject } from '@kruise-ts/api';
import type { CacheReader, KindRef } from './controllers/index';
import type { KubeClient } from './kube/client';
import { Informer, type InformerOptions } from './kube/informer';
import { keyFor, resourceFor } from './kube/resources';

function refKey(ref: KindRef): string {
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
  return `${group}/${ref.kind}`;
}

/** All informers of one operator instance. */
export class InformerCache implements CacheReader {
  private informers = new Map<string, Informer>();

  constructor(
    private readonly client: KubeClient,
    private readonly opts: InformerOptions = {},
  ) {}

  /**
   * The informer of `ref` (created on first use; not started). Namespaces and nodes are
   * cluster-wide even with `--namespace`.
   */
  informer(ref: KindRef): Informer {
    const k = refKey(ref);
    let inf = this.informers.get(k);
    if (!inf) {
      const res = resourceFor(ref.apiVersion, ref.kind);
      inf = new Informer(this.client, res, {
        ...this.opts,
        namespace: res.namespaced ? this.opts.namespace : undefined,
      });
      this.informers.set(k, inf);
    }
    return inf;
  }

  /** Whether an informer exists for `ref`. */
  has(ref: KindRef): boolean {
    return this.informers.has(refKey(ref));
  }

  all(): Informer[] {
    return [...this.informers.values()];
  }

  start(): void {
    for (const i of this.informers.values()) i.start();
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }

  /** Resolves when every informer has finished its first list, or rejects after `timeoutMs` (O3.5). */
  async waitForSync(timeoutMs = 120_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`caches not synced within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([Promise.all(this.all().map((i) => i.waitForSync())), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  get(ref: KindRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.informers.get(refKey(ref))?.get(keyFor(namespace, name));
  }

  list(ref: KindRef, namespace?: string): KubeObject[] {
    return this.informers.get(refKey(ref))?.list(namespace) ?? [];
  }

  ownedBy(ref: KindRef, uid: string): KubeObject[] {
    return this.informers.get(refKey(ref))?.listOwnedBy(uid) ?? [];
  }
}
