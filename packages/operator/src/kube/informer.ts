// A shared informer for one resource on @kubernetes/client-node's ListWatch: ListWatch lists,
// watches from the list's resourceVersion, keeps the object cache and, on 410 Gone (an expired
// resourceVersion, as a Status event or as the watch request's status), re-lists and delivers
// the differences as add/update/delete, so no change is lost. What it leaves to its user, and
// this file adds: a restart after a failed list or watch (ListWatch only reports those, on its
// `error` callback) with exponential back-off, resuming from the last seen resourceVersion; the
// previous object on update (an owner change notifies both owners); an owner-UID index
// (docs/reference/operator.md O3.8); and a "first list applied" signal for the sync gate (O3.5).
// The watch stream itself comes from the operator's KubeClient (client-node's Watch for a real
// server, an in-memory fake in unit tests), adapted to the Watch class ListWatch expects.
import type { KubeObject } from '@kruise-ts/api';
import {
  ADD,
  DELETE,
  ERROR,
  KubeConfig,
  type KubernetesObject,
  ListWatch,
  UPDATE,
  Watch,
} from '@kubernetes/client-node';
import { ensureOk, type KubeClient } from './client';
import { collectionPath, keyFor, type ResourceDef } from './resources';

/** Handlers of cache changes. */
export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(oldObj: KubeObject, newObj: KubeObject): void;
  delete?(obj: KubeObject): void;
}

/** Informer tuning (tests shorten the delays). */
export interface InformerOptions {
  /** Restrict to one namespace (`--namespace`, O3.9). */
  namespace?: string;
  /** First restart delay after a failed list or watch, ms (doubles up to maxBackoffMs). Default 200. */
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

/**
 * What ListWatch caches: the JSON objects exactly as listed or watched. client-node types
 * timestamps as Date because its typed APIs deserialize; ListWatch never does, so a cached object
 * is also a KubeObject (timestamps are strings).
 */
type Cached = KubeObject & KubernetesObject;

type WatchCallback = Parameters<Watch['watch']>[2];
type WatchDone = Parameters<Watch['watch']>[3];

/**
 * The Watch ListWatch drives, opening its streams through a KubeClient. The hooks tell the
 * informer what ListWatch does not report: each watch opened (ListWatch opens one right after
 * applying a list), each event, and how each stream ended.
 */
class ClientWatch extends Watch {
  constructor(
    private readonly client: KubeClient,
    private readonly extraQuery: Record<string, string | number | boolean>,
    private readonly hooks: {
      opening(): boolean;
      /** Sees each event; returns the object to hand on. */
      event(phase: string, obj: unknown): unknown;
      ended(err: unknown): void;
    },
  ) {
    super(new KubeConfig());
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: WatchCallback,
    done: WatchDone,
  ): Promise<AbortController> {
    const abort = new AbortController();
    // a restart ListWatch schedules after stop() must not open a stream
    if (!this.hooks.opening()) return abort;
    const handle = this.client.watch(
      path,
      { ...queryParams, ...this.extraQuery },
      (ev) => callback(ev.type, this.hooks.event(ev.type, ev.object)),
      (err) => {
        this.hooks.ended(err);
        done(err ?? null);
      },
    );
    abort.signal.addEventListener('abort', () => handle.stop(), { once: true });
    return abort;
  }
}

/** List + watch of one resource with a local cache (client-node's ListWatch). */
export class Informer {
  private readonly lw: ListWatch<Cached>;
  /** The version each handler last saw, per key: the old object of an update, and the owner index. */
  private readonly seen = new Map<string, KubeObject>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly handlers: InformerHandlers[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private synced = false;
  /** A list was applied and no watch opened since (the next opening marks the sync). */
  private listed = false;
  /** The last attempt that failed was a list (else a watch). */
  private listFailed = false;
  private failures = 0;
  private syncWaiters: Array<() => void> = [];
  /** Counters for tests and metrics. */
  readonly stats = { lists: 0, watches: 0, watchFailures: 0, gone: 0 };

  constructor(
    private readonly client: KubeClient,
    readonly resource: ResourceDef,
    private readonly opts: InformerOptions = {},
  ) {
    const path = collectionPath(resource, opts.namespace);
    const watch = new ClientWatch(
      client,
      { allowWatchBookmarks: true, timeoutSeconds: opts.timeoutSeconds ?? 300 },
      {
        opening: () => this.opening(),
        event: (phase, obj) => {
          this.failures = 0;
          if (phase !== 'ERROR') return this.withKind(obj as KubeObject);
          // a Status object; 410 Gone makes ListWatch re-list when the stream ends
          if ((obj as { code?: number } | undefined)?.code === 410) this.stats.gone += 1;
          else this.opts.onError?.(`watch ${resource.plural} error event`, obj);
          return obj;
        },
        ended: (err) => {
          if ((err as { statusCode?: number } | undefined)?.statusCode === 410) this.stats.gone += 1;
        },
      },
    );
    this.lw = new ListWatch<Cached>(path, watch, () => this.listAll(), false, undefined, undefined, {
      // ListWatch's own delay (1 s doubling to 30 s) before re-watching a stream the server
      // closed without sending anything, scaled to this informer's back-off
      delayFn: (ms) => this.sleep((ms * (this.opts.backoffMs ?? 200)) / 1000),
    });
    this.lw.on(ADD, (o) => this.deliver(o, 'add'));
    this.lw.on(UPDATE, (o) => this.deliver(o, 'update'));
    this.lw.on(DELETE, (o) => this.deliver(o, 'delete'));
    this.lw.on(ERROR, (err) => this.failed(err));
  }

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

  /** Starts listing and watching (a restart resumes from the last seen resourceVersion). */
  start(): void {
    this.stopped = false;
    this.run();
  }

  /** Stops the watch and any pending restart. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    void this.lw.stop();
  }

  /** The cached object at `namespace/name`. */
  get(key: string): KubeObject | undefined {
    const i = key.indexOf('/');
    return i < 0 ? this.lw.get(key) : this.lw.get(key.slice(i + 1), key.slice(0, i));
  }

  /** Cached objects, optionally of one namespace. */
  list(namespace?: string): KubeObject[] {
    if (namespace === '') return []; // no object lives in the empty namespace
    return [...this.lw.list(namespace)];
  }

  /** Cached objects with an ownerReference to `uid` (index `ownerRefUID`, O3.8). */
  listOwnedBy(uid: string): KubeObject[] {
    const keys = this.byOwner.get(uid);
    if (!keys) return [];
    const out: KubeObject[] = [];
    for (const k of keys) {
      const o = this.get(k);
      if (o) out.push(o);
    }
    return out;
  }

  private run(): void {
    this.lw.start().catch((err: unknown) => this.failed(err));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => {
      this.timer = setTimeout(r, Math.min(ms, this.opts.maxBackoffMs ?? 30_000));
    });
  }

  /** Every page of the collection; objects get the resource's apiVersion/kind (lists omit them). */
  private async listAll(): Promise<{ items: Cached[]; metadata: { resourceVersion?: string } }> {
    this.stats.lists += 1;
    this.listFailed = true;
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv: string | undefined;
    do {
      const res = await this.client.request('GET', collectionPath(this.resource, this.opts.namespace), {
        query: { limit: 500, continue: cont },
      });
      const body = ensureOk(res, `list ${this.resource.plural}`) as {
        items?: KubeObject[];
        metadata?: { resourceVersion?: string; continue?: string };
      };
      for (const it of body.items ?? []) items.push(this.withKind(it));
      rv = body.metadata?.resourceVersion ?? rv;
      cont = body.metadata?.continue || undefined;
    } while (cont);
    this.listFailed = false;
    this.listed = true;
    // the one place JSON enters the cache typed (see Cached)
    return { items: items as Cached[], metadata: { resourceVersion: rv } };
  }

  /** ListWatch is about to open a watch; the list before it (if any) has been applied. */
  private opening(): boolean {
    if (this.stopped) return false;
    this.stats.watches += 1;
    if (this.listed) {
      this.listed = false;
      this.failures = 0;
      if (!this.synced) {
        this.synced = true;
        for (const w of this.syncWaiters.splice(0)) w();
      }
    }
    return true;
  }

  /** A list or watch failed (ListWatch stopped): restart after a back-off, from the last version. */
  private failed(err: unknown): void {
    if (this.stopped) return;
    if (this.listFailed) this.opts.onError?.(`list ${this.resource.plural} failed`, err);
    else {
      this.stats.watchFailures += 1;
      this.opts.onError?.(`watch ${this.resource.plural} failed; restarting`, err);
    }
    this.failures += 1;
    const base = this.opts.backoffMs ?? 200;
    const delay = Math.min(base * 2 ** (this.failures - 1), this.opts.maxBackoffMs ?? 30_000);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.stopped) this.run();
    }, delay);
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

  /** The object with the resource's apiVersion/kind when it lacks them (list items omit them). */
  private withKind(obj: KubeObject): KubeObject {
    if (obj.apiVersion && obj.kind) return obj;
    return {
      ...obj,
      apiVersion: obj.apiVersion ?? this.resource.apiVersion,
      kind: obj.kind ?? this.resource.kind,
    };
  }

  /** One change ListWatch applied: keep the index and the last-seen version, call the handlers. */
  private deliver(obj: KubeObject, type: 'add' | 'update' | 'delete'): void {
    const key = objectKey(obj);
    const old = this.seen.get(key);
    this.index(key, old, false);
    if (type === 'delete') {
      this.seen.delete(key);
      for (const h of this.handlers) h.delete?.(obj);
      return;
    }
    this.seen.set(key, obj);
    this.index(key, obj, true);
    for (const h of this.handlers) {
      if (old && type === 'update') h.update?.(old, obj);
      else h.add?.(obj);
    }
  }
}
