// A shared informer for one resource: list, then watch from the list's resourceVersion, keeping
// a local cache (by `namespace/name`, with an owner-UID index, docs/reference/operator.md O3.8) and calling
// add/update/delete handlers. A watch that ends or fails for any reason other than 410 Gone is
// restarted from the last seen resourceVersion (with back-off); a 410 (expired resourceVersion)
// triggers a full re-list whose differences are delivered as events, so no change is lost.
import type { KubeObject } from '@kruise-ts/api';
import { ensureOk, type KubeClient, type WatchHandle } from './client';
import { collectionPath, keyFor, type ResourceDef } from './resources';

/** Handlers of cache changes. */
export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(oldObj: KubeObject, newObj: KubeObject): void;
  delete?(obj: KubeObject): void;
  /** A re-list finished (E4.9 hardening: everything present/absent is now observed). */
  relisted?(): void;
}

/** Informer tuning (tests shorten the delays). */
export interface InformerOptions {
  /** Restrict to one namespace (`--namespace`, O3.9). */
  namespace?: string;
  /** First restart delay after a failed watch, ms (doubles up to maxBackoffMs). Default 200. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Server-side watch timeout asked for, seconds. Default 300. */
  timeoutSeconds?: number;
  /** Called on list/watch trouble (logging). */
  onError?: (msg: string, err: unknown) => void;
}

/** The cache key of an object. */
export function objectKey(obj: KubeObject): string {
  return keyFor(obj.metadata.namespace, obj.metadata.name ?? '');
}

/** List + watch of one resource with a local cache. */
export class Informer {
  private readonly store = new Map<string, KubeObject>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly handlers: InformerHandlers[] = [];
  private resourceVersion = '';
  private watchHandle: WatchHandle | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private synced = false;
  private failures = 0;
  private syncWaiters: Array<() => void> = [];
  /** Counters for tests and metrics. */
  readonly stats = { lists: 0, watches: 0, watchFailures: 0, gone: 0 };

  constructor(
    private readonly client: KubeClient,
    readonly resource: ResourceDef,
    private readonly opts: InformerOptions = {},
  ) {}

  /** Adds handlers (before or after start; later handlers do not get past events). */
  on(h: InformerHandlers): void {
    this.handlers.push(h);
  }

  /** True once the first list has been applied (O3.5). */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves when the first list has been applied. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((r) => this.syncWaiters.push(r));
  }

  /** Starts listing and watching. */
  start(): void {
    this.stopped = false;
    void this.relist();
  }

  /** Stops the watch and any pending restart. */
  stop(): void {
    this.stopped = true;
    this.watchHandle?.stop();
    if (this.timer) clearTimeout(this.timer);
  }

  /** The cached object at `namespace/name`. */
  get(key: string): KubeObject | undefined {
    return this.store.get(key);
  }

  /** Cached objects, optionally of one namespace. */
  list(namespace?: string): KubeObject[] {
    const out: KubeObject[] = [];
    for (const o of this.store.values())
      if (namespace === undefined || o.metadata.namespace === namespace) out.push(o);
    return out;
  }

  /** Cached objects with an ownerReference to `uid` (index `ownerRefUID`, O3.8). */
  listOwnedBy(uid: string): KubeObject[] {
    const keys = this.byOwner.get(uid);
    if (!keys) return [];
    const out: KubeObject[] = [];
    for (const k of keys) {
      const o = this.store.get(k);
      if (o) out.push(o);
    }
    return out;
  }

  private index(key: string, obj: KubeObject | undefined, add: boolean): void {
    for (const ref of obj?.metadata.ownerReferences ?? []) {
      let set = this.byOwner.get(ref.uid);
      if (add) {
        if (!set) {
          set = new Set();
          this.byOwner.set(ref.uid, set);
        }
        set.add(key);
      } else if (set) {
        set.delete(key);
        if (set.size === 0) this.byOwner.delete(ref.uid);
      }
    }
  }

  private put(obj: KubeObject): void {
    const key = objectKey(obj);
    const old = this.store.get(key);
    this.index(key, old, false);
    this.store.set(key, obj);
    this.index(key, obj, true);
    for (const h of this.handlers) {
      if (old) h.update?.(old, obj);
      else h.add?.(obj);
    }
  }

  private remove(key: string, last?: KubeObject): void {
    const old = this.store.get(key);
    if (!old) return;
    this.index(key, old, false);
    this.store.delete(key);
    for (const h of this.handlers) h.delete?.(last ?? old);
  }

  private scheduleRetry(fn: () => void): void {
    if (this.stopped) return;
    this.failures += 1;
    const base = this.opts.backoffMs ?? 200;
    const delay = Math.min(base * 2 ** (this.failures - 1), this.opts.maxBackoffMs ?? 30_000);
    this.timer = setTimeout(fn, delay);
  }

  /** Full list; applies the difference to the cache as events, then watches from its version. */
  private async relist(): Promise<void> {
    if (this.stopped) return;
    this.stats.lists += 1;
    try {
      const items: KubeObject[] = [];
      let cont: string | undefined;
      let rv = '';
      do {
        const res = await this.client.request('GET', collectionPath(this.resource, this.opts.namespace), {
          query: { limit: 500, continue: cont },
        });
        const body = ensureOk(res, `list ${this.resource.plural}`) as {
          items?: KubeObject[];
          metadata?: { resourceVersion?: string; continue?: string };
        };
        for (const it of body.items ?? [])
          items.push({
            ...it,
            apiVersion: it.apiVersion ?? this.resource.apiVersion,
            kind: it.kind ?? this.resource.kind,
          });
        rv = body.metadata?.resourceVersion ?? rv;
        cont = body.metadata?.continue || undefined;
      } while (cont);
      if (this.stopped) return;
      const seen = new Set<string>();
      for (const it of items) {
        const key = objectKey(it);
        seen.add(key);
        const old = this.store.get(key);
        if (old && old.metadata.resourceVersion === it.metadata.resourceVersion) continue;
        this.put(it);
      }
      for (const key of [...this.store.keys()]) if (!seen.has(key)) this.remove(key);
      this.resourceVersion = rv;
      this.failures = 0;
      if (!this.synced) {
        this.synced = true;
        for (const w of this.syncWaiters.splice(0)) w();
      }
      for (const h of this.handlers) h.relisted?.();
      this.watch();
    } catch (err) {
      this.opts.onError?.(`list ${this.resource.plural} failed`, err);
      this.scheduleRetry(() => void this.relist());
    }
  }

  private watch(): void {
    if (this.stopped) return;
    this.stats.watches += 1;
    let gone = false;
    let gotEvent = false;
    this.watchHandle = this.client.watch(
      collectionPath(this.resource, this.opts.namespace),
      {
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds: this.opts.timeoutSeconds ?? 300,
      },
      (ev) => {
        if (this.stopped || gone) return;
        gotEvent = true;
        if (ev.type === 'ERROR') {
          // a Status object; 410 Gone means our resourceVersion is too old: re-list
          if (ev.object?.code === 410) gone = true;
          else this.opts.onError?.(`watch ${this.resource.plural} error event`, ev.object);
          return;
        }
        const obj = {
          apiVersion: this.resource.apiVersion,
          kind: this.resource.kind,
          ...ev.object,
        } as KubeObject;
        if (obj.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
        if (ev.type === 'BOOKMARK') return;
        if (ev.type === 'DELETED') this.remove(objectKey(obj), obj);
        else this.put(obj);
      },
      (err) => {
        if (this.stopped) return;
        if (gone || err?.statusCode === 410) {
          this.stats.gone += 1;
          this.failures = 0;
          void this.relist();
          return;
        }
        if (err) {
          // any failure other than 410: restart the watch from the last seen version (back-off)
          this.stats.watchFailures += 1;
          this.opts.onError?.(`watch ${this.resource.plural} failed; restarting`, err);
          this.scheduleRetry(() => this.watch());
          return;
        }
        // closed by the server (timeout): watch again at once; an empty stream backs off
        if (gotEvent) {
          this.failures = 0;
          this.watch();
        } else this.scheduleRetry(() => this.watch());
      },
    );
  }
}
