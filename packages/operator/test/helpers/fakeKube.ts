// An in-memory KubeClient for unit tests: objects by path with numeric resourceVersions,
// optimistic concurrency on PUT, preconditions on DELETE, merge patches, watch streams that a
// test can feed, fail or end, and a log of every request.

import type {
  KubeClient,
  KubeResponse,
  RequestOptions,
  WatchEvent,
  WatchHandle,
} from '../../src/kube/client';
import { resources } from '../../src/kube/resources';

const PLURALS = new Set(resources.map((r) => r.plural));

interface Watcher {
  path: string;
  query: Record<string, unknown>;
  onEvent: (ev: WatchEvent) => void;
  onDone: (err?: Error & { statusCode?: number }) => void;
  stopped: boolean;
}

type Obj = any;

export class FakeKube implements KubeClient {
  objects = new Map<string, Obj>();
  rv = 100;
  uid = 0;
  log: Array<{ method: string; path: string; body?: unknown; contentType?: string }> = [];
  watchers: Watcher[] = [];
  /** Respond with this status to the next request matching (method, path prefix). */
  failNext: Array<{ method: string; status: number; reason?: string }> = [];

  private collection(path: string): string {
    return path.split('?')[0];
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<KubeResponse> {
    this.log.push({ method, path, body: opts.body, contentType: opts.contentType });
    const f = this.failNext.findIndex((x) => x.method === method);
    if (f >= 0) {
      const [x] = this.failNext.splice(f, 1);
      return {
        status: x.status,
        body: { kind: 'Status', code: x.status, reason: x.reason ?? 'Conflict', message: 'injected' },
      };
    }
    const p = path.replace(/\/status$/, '');
    if (method === 'GET') {
      const o = this.objects.get(p);
      if (o) return { status: 200, body: o };
      const last = p.split('/').pop() ?? '';
      if (!PLURALS.has(last)) return { status: 404, body: { reason: 'NotFound', code: 404 } };
      const items = [...this.objects.entries()]
        .filter(([k]) => k.startsWith(`${p}/`) && !k.slice(p.length + 1).includes('/'))
        .map(([, v]) => v);
      return { status: 200, body: { items, metadata: { resourceVersion: String(this.rv) } } };
    }
    if (method === 'POST') {
      const body = structuredClone(opts.body) as Obj;
      const name = body.metadata.name ?? `${body.metadata.generateName}${++this.uid}`;
      const key = `${this.collection(p)}/${name}`;
      if (this.objects.has(key)) return { status: 409, body: { reason: 'AlreadyExists', code: 409 } };
      body.metadata = {
        ...body.metadata,
        name,
        uid: `uid-${++this.uid}`,
        resourceVersion: String(++this.rv),
      };
      this.objects.set(key, body);
      this.emit(key, 'ADDED', body);
      return { status: 201, body };
    }
    const cur = this.objects.get(p);
    if (!cur) return { status: 404, body: { reason: 'NotFound', code: 404 } };
    if (method === 'DELETE') {
      const pre = (opts.body as Obj)?.preconditions;
      if (pre?.uid && pre.uid !== cur.metadata.uid)
        return { status: 409, body: { reason: 'Conflict', code: 409 } };
      if (pre?.resourceVersion && pre.resourceVersion !== cur.metadata.resourceVersion)
        return { status: 409, body: { reason: 'Conflict', code: 409 } };
      this.objects.delete(p);
      this.emit(p, 'DELETED', cur);
      return { status: 200, body: cur };
    }
    let next: Obj;
    if (method === 'PUT') {
      next = structuredClone(opts.body) as Obj;
      if (next.metadata.resourceVersion && next.metadata.resourceVersion !== cur.metadata.resourceVersion) {
        return {
          status: 409,
          body: { reason: 'Conflict', code: 409, message: 'the object has been modified' },
        };
      }
    } else {
      next = mergePatch(structuredClone(cur), opts.body);
    }
    next.metadata = { ...next.metadata, uid: cur.metadata.uid, resourceVersion: String(++this.rv) };
    this.objects.set(p, next);
    this.emit(p, 'MODIFIED', next);
    return { status: 200, body: next };
  }

  private emit(key: string, type: WatchEvent['type'], object: Obj): void {
    for (const w of this.watchers)
      if (!w.stopped && key.startsWith(`${w.path}/`)) w.onEvent({ type, object });
  }

  watch(
    path: string,
    query: Record<string, unknown>,
    onEvent: Watcher['onEvent'],
    onDone: Watcher['onDone'],
  ): WatchHandle {
    const w: Watcher = { path, query, onEvent, onDone, stopped: false };
    this.watchers.push(w);
    return { stop: () => (w.stopped = true) };
  }

  /** Ends every open watch with `err` (or a clean close). */
  endWatches(err?: Error & { statusCode?: number }): void {
    for (const w of this.watchers.splice(0)) if (!w.stopped) w.onDone(err);
  }

  /** Puts an object directly (as another client would), emitting ADDED/MODIFIED. */
  put(path: string, obj: Obj): Obj {
    const exists = this.objects.has(path);
    const o = {
      ...obj,
      metadata: { uid: `uid-${++this.uid}`, ...obj.metadata, resourceVersion: String(++this.rv) },
    };
    this.objects.set(path, o);
    this.emit(path, exists ? 'MODIFIED' : 'ADDED', o);
    return o;
  }
}

function mergePatch(target: Obj, patch: Obj): Obj {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
