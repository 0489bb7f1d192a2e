// Paged lists (`limit` and `continue`), with the rule kube-apiserver follows over etcd: every page
// of a list is served at the resourceVersion of its first page, so a client that pages through
// 10,000 pods while the cluster changes still sees one consistent list; a continue token whose
// resourceVersion has left the history window (etcd's compaction; here the watch history,
// watch.ts) is `410 Expired`, and the Status carries a token to go on at the latest state.
//
// How a page at an older resourceVersion is found: the store keeps only the latest objects, so
// the objects of the kind as they were at `rv` are the current ones rolled back through the
// watch history's changes after `rv` (an ADDED is taken out, a MODIFIED or DELETED puts back the
// object it replaced). The last few such snapshots are kept, so paging through a list costs one
// roll-back, not one per page.
//
// The token is kube-apiserver's: base64url (no padding) of
// `{"v":"meta.k8s.io/v1","rv":<resourceVersion>,"start":"<key of the last item>\u0000"}`, the key
// being `<namespace>/<name>` in a list over all namespaces and `<name>` otherwise. `rv: -1` (the
// token a 410 carries) continues at the latest state.
import type { KubeObject } from '@kruise-ts/api';
import { objectKey, type Store } from '@kruise-ts/cluster';
import { matchesFilter, type ObjectFilter } from './filters';
import { type StatusObject, status } from './status';
import { gkOf, type WatchHub } from './watch';

/** kube-apiserver's message for a continue token whose resourceVersion was compacted. */
export const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** A decoded continue token. */
export interface ContinueToken {
  rv: number;
  start: string;
}

/** Encodes a continue token as kube-apiserver does. */
export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

/**
 * Decodes a continue token, or answers the 400 kube-apiserver gives a token it cannot read.
 *
 * Example: `decodeContinue(encodeContinue(12, 'default/web-0\u0000'))` → `{rv: 12, start: 'default/web-0\u0000'}`.
 */
export function decodeContinue(token: string): ContinueToken | StatusObject {
  const bad = (why: string) => status(400, 'BadRequest', `continue key is not valid: ${why}`);
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(token)) return bad('illegal base64 data');
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return bad('invalid character in the token');
  }
  const t = v as { v?: unknown; rv?: unknown; start?: unknown } | null;
  if (t === null || typeof t !== 'object' || t.v !== 'meta.k8s.io/v1')
    return bad('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || (t.rv < 0 && t.rv !== -1) || t.rv === 0)
    return bad('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof t.start !== 'string' || t.start === '') return bad('encoded start key is empty');
  return { rv: t.rv, start: t.start };
}

/** The paging parameters of a list request, checked. */
export interface PageRequest {
  limit?: number;
  token?: ContinueToken;
}

/** Reads `limit` and `continue` (a non-positive or malformed limit means no limit, as in Kubernetes). */
export function pageRequest(query: URLSearchParams): PageRequest | StatusObject {
  const out: PageRequest = {};
  const l = query.get('limit');
  if (l !== null && /^\d+$/.test(l) && Number(l) > 0) out.limit = Number(l);
  const c = query.get('continue');
  if (c !== null && c !== '') {
    const rvParam = query.get('resourceVersion');
    if (rvParam !== null && rvParam !== '')
      return status(400, 'BadRequest', 'specifying resource version is not allowed when using continue');
    const t = decodeContinue(c);
    if ('kind' in t) return t;
    out.token = t;
  }
  return out;
}

/** One page of a list: its items, its resourceVersion and the list metadata to add. */
export interface Page {
  items: KubeObject[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
}

/** Snapshots of kinds at past resourceVersions, built from the watch history. */
export class ListSnapshots {
  private cache: { gk: string; rv: number; items: KubeObject[] }[] = [];
  private static readonly KEEP = 4;

  constructor(
    private readonly store: Store,
    private readonly hub: WatchHub,
  ) {}

  /**
   * Every object of the kind as it was at `rv`, sorted by store key, or undefined when `rv` is
   * older than the history window.
   */
  at(apiVersion: string, kind: string, rv: number): KubeObject[] | undefined {
    const gk = gkOf(apiVersion, kind);
    const hit = this.cache.find((c) => c.gk === gk && c.rv === rv);
    if (hit) return hit.items;
    const changes = this.hub.changesAfter(rv, gk);
    if (!changes) return undefined;
    const byKey = new Map<string, KubeObject>();
    for (const o of this.store.list(apiVersion, kind)) byKey.set(objectKey(o), o);
    for (const e of changes) {
      const key = objectKey(e.object);
      if (e.type === 'ADDED' || !e.old) byKey.delete(key);
      else byKey.set(key, e.old);
    }
    const items = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
    this.cache.push({ gk, rv, items });
    if (this.cache.length > ListSnapshots.KEEP) this.cache.shift();
    return items;
  }
}

/** The key of an item in a continue token: `namespace/name` over all namespaces, else `name`. */
function pageKey(o: KubeObject, allNamespaces: boolean): string {
  const name = o.metadata.name ?? '';
  return allNamespaces && o.metadata.namespace ? `${o.metadata.namespace}/${name}` : name;
}

/**
 * One page of a list. `current` gives the filtered items at the latest resourceVersion (`rvNow`);
 * a token of an older resourceVersion is served from a snapshot. A token whose resourceVersion
 * has been compacted is `410 Expired` with {@link INCONSISTENT_CONTINUE} and a token at `rv: -1`.
 */
export function listPage(
  snapshots: ListSnapshots,
  hub: WatchHub,
  target: { apiVersion: string; kind: string; namespace?: string; namespaced: boolean },
  filter: ObjectFilter,
  page: PageRequest,
  rvNow: number,
  current: () => KubeObject[],
): Page | StatusObject {
  const allNamespaces = target.namespaced && target.namespace === undefined;
  let items: KubeObject[];
  let rv = rvNow;
  const t = page.token;
  if (t && t.rv !== -1 && t.rv !== rvNow) {
    const snap = t.rv < hub.oldestRv ? undefined : snapshots.at(target.apiVersion, target.kind, t.rv);
    if (!snap) {
      const s = status(410, 'Expired', INCONSISTENT_CONTINUE);
      (s.metadata as Record<string, unknown>).continue = encodeContinue(-1, t.start);
      return s;
    }
    rv = t.rv;
    const ns = target.namespaced ? target.namespace : undefined;
    items = snap.filter(
      (o) => (ns === undefined || (o.metadata.namespace ?? '') === ns) && matchesFilter(o, filter),
    );
  } else items = current();
  if (t) {
    const start = t.start;
    // the first item after the start key (items are in key order)
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pageKey(items[mid], allNamespaces) < start) lo = mid + 1;
      else hi = mid;
    }
    items = items.slice(lo);
  }
  const out: Page = { items, resourceVersion: rv };
  if (page.limit !== undefined && items.length > page.limit) {
    out.items = items.slice(0, page.limit);
    out.continue = encodeContinue(rv, `${pageKey(out.items[page.limit - 1], allNamespaces)}\u0000`);
    // like kube-apiserver, the count only when nothing is filtered (it would cost a full scan)
    if (filter.labels.length === 0 && filter.fields.length === 0)
      out.remainingItemCount = items.length - page.limit;
  }
  return out;
}
