// GET of collections and objects, and watch streams (guide §E, §F, §G):
// lists as `<Kind>List` or Table, get of an object or its status/scale
// subresource, and `?watch=true` as a chunked `application/json;stream=watch`
// stream with headers flushed at once, resume from a resourceVersion, 410
// Expired, bookmarks, timeoutSeconds and Table events. Objects are converted to
// the requested version (conversion.ts); a failed conversion is a 500 Status
// (a watch gets an ERROR event and ends).
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '@kruise-ts/api';
import { viewOf, viewSync, viewsOf } from './conversion';
import { compileFilter, matchesFilter, type ObjectFilter } from './filters';
import {
  type ApiContext,
  getObject,
  includeObject,
  listFiltered,
  listObjects,
  type Reply,
  toScale,
} from './objects';
import { ListSnapshots, listPage, pageRequest } from './pagination';
import type { ResourceInfo } from './registry';
import { badRequest, expired, notFoundStatus } from './status';
import { printerFor, tableRow, toTable, wantsTable } from './tables';
import { gkOf, type HistoryEntry, type Watcher, type WatchType } from './watch';

/** A parsed read request. */
export interface ReadRequest {
  res: ResourceInfo;
  namespace?: string;
  name?: string;
  sub?: string;
  query: URLSearchParams;
  accept?: string;
}

function selectorError(e: unknown): Reply {
  const s = badRequest((e as Error).message);
  return { code: 400, body: s };
}

/** GET a collection (list), one page of it with `limit`/`continue` (pagination.ts). */
export async function listReply(ctx: ApiContext, req: ReadRequest): Promise<Reply> {
  let filter: ObjectFilter;
  try {
    filter = compileFilter(req.query.get('labelSelector'), req.query.get('fieldSelector'));
  } catch (e) {
    return selectorError(e);
  }
  const paging = pageRequest(req.query);
  if ('kind' in paging) return { code: paging.code, body: paging };
  const page = listPage(
    ctx.snapshots ?? new ListSnapshots(ctx.sim.store, ctx.hub),
    ctx.hub,
    {
      apiVersion: req.res.apiVersion,
      kind: req.res.kind,
      namespace: req.namespace,
      namespaced: req.res.namespaced,
    },
    filter,
    paging,
    ctx.hub.currentRv,
    () => listFiltered(ctx, req.res, req.namespace, filter),
  );
  if ('kind' in page) return { code: page.code, body: page };
  let items = page.items;
  const rv = String(page.resourceVersion);
  const listMeta: Record<string, unknown> = { resourceVersion: rv };
  if (page.continue !== undefined) listMeta.continue = page.continue;
  if (page.remainingItemCount !== undefined) listMeta.remainingItemCount = page.remainingItemCount;
  const views = await viewsOf(ctx, items, req.res);
  if (!views.ok) return { code: views.status.code, body: views.status };
  items = views.objects;
  const table = wantsTable(req.accept);
  if (table) {
    const t = toTable(req.res, items, ctx.nowMs(), {
      resourceVersion: rv,
      include: includeObject(req.query),
    });
    if (table === 'v1beta1') t.apiVersion = 'meta.k8s.io/v1beta1';
    t.metadata = listMeta;
    return { code: 200, body: t, contentType: `application/json;as=Table;v=${table};g=meta.k8s.io` };
  }
  return {
    code: 200,
    body: {
      kind: req.res.listKind,
      apiVersion: req.res.apiVersion,
      metadata: listMeta,
      items,
    },
  };
}

/** GET an object or subresource. */
export async function getReply(ctx: ApiContext, req: ReadRequest): Promise<Reply> {
  const stored = getObject(ctx, req.res, req.namespace, req.name ?? '');
  if (!stored) return { code: 404, body: notFoundStatus(req.res, req.name ?? '') };
  if (req.sub === 'scale') return { code: 200, body: toScale(stored, req.res) };
  const view = await viewOf(ctx, stored, req.res);
  if (!view.ok) return { code: view.status.code, body: view.status };
  const obj = view.object;
  const table = wantsTable(req.accept);
  if (table && !req.sub) {
    const t = toTable(req.res, [obj], ctx.nowMs(), {
      resourceVersion: obj.metadata.resourceVersion,
      include: includeObject(req.query),
    });
    if (table === 'v1beta1') t.apiVersion = 'meta.k8s.io/v1beta1';
    return { code: 200, body: t, contentType: `application/json;as=Table;v=${table};g=meta.k8s.io` };
  }
  return { code: 200, body: obj };
}

/** Common response headers. */
export const BASE_HEADERS = { 'Cache-Control': 'no-cache, private' };

/**
 * Serves a watch stream. Resolves when the stream ends (client gone, timeout,
 * history expired or server closing).
 */
export function serveWatch(
  ctx: ApiContext,
  req: ReadRequest,
  res: ServerResponse,
  closing: Set<() => void>,
): void {
  let filter: ObjectFilter;
  try {
    filter = compileFilter(
      req.query.get('labelSelector'),
      req.query.get('fieldSelector'),
      req.res.namespaced ? req.namespace : undefined,
    );
    if (req.name) filter.fields.push({ path: ['metadata', 'name'], op: '=', value: req.name });
  } catch (e) {
    const r = selectorError(e);
    res.writeHead(r.code, { ...BASE_HEADERS, 'Content-Type': 'application/json' });
    res.end(JSON.stringify(r.body));
    return;
  }
  const table = wantsTable(req.accept);
  const include = includeObject(req.query);
  const printer = printerFor(req.res);
  const bookmarks = req.query.get('allowWatchBookmarks') === 'true';
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': table
      ? `application/json;as=Table;v=${table};g=meta.k8s.io;stream=watch`
      : 'application/json;stream=watch',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  let headersSent = false;
  let ended = false;
  const timers: NodeJS.Timeout[] = [];
  const write = (line: string) => {
    if (!ended) res.write(line);
  };
  /** `view`: the object at the requested version; `cache`: derived from `entry` without I/O. */
  const encode = (
    type: WatchType,
    entry: HistoryEntry | undefined,
    view: KubeObject,
    cache: boolean,
  ): string => {
    if (table) {
      const t = {
        kind: 'Table',
        apiVersion: `meta.k8s.io/${table}`,
        metadata: { resourceVersion: view.metadata.resourceVersion },
        columnDefinitions: headersSent ? [] : printer.columns,
        rows: [tableRow(printer, view, ctx.nowMs(), include)],
      };
      headersSent = true;
      return `{"type":"${type}","object":${JSON.stringify(t)}}\n`;
    }
    let json: string | undefined;
    if (entry && cache) {
      entry.json ??= new Map();
      json = entry.json.get(view.apiVersion);
      if (json === undefined) {
        json = JSON.stringify(view);
        entry.json.set(view.apiVersion, json);
      }
    } else json = JSON.stringify(view);
    return `{"type":"${type}","object":${json}}\n`;
  };
  // An event whose object needs a conversion webhook is converted asynchronously; later events
  // queue behind it so the stream keeps the store's order. A failed conversion ends the stream
  // with an ERROR event carrying the 500 Status.
  let backlog: Promise<void> = Promise.resolve();
  let queued = 0;
  const emit = (type: WatchType, entry: HistoryEntry | undefined, obj: KubeObject) => {
    if (queued === 0) {
      const view = viewSync(ctx, obj, req.res);
      if (view) {
        write(encode(type, entry, view, true));
        return;
      }
    }
    queued++;
    backlog = backlog
      .then(async () => {
        const v = await viewOf(ctx, obj, req.res);
        if (ended) return;
        if (v.ok) write(encode(type, entry, v.object, false));
        else {
          write(`{"type":"ERROR","object":${JSON.stringify(v.status)}}\n`);
          finish();
        }
      })
      .finally(() => {
        queued--;
      });
  };
  const finish = () => {
    if (ended) return;
    ended = true;
    ctx.hub.remove(watcher);
    closing.delete(finish);
    for (const t of timers) clearTimeout(t);
    res.end();
  };
  const watcher: Watcher = {
    gk: gkOf(req.res.apiVersion, req.res.kind),
    filter,
    send: emit,
    end: finish,
  };
  closing.add(finish);
  res.on('close', finish);
  const rvParam = req.query.get('resourceVersion');
  if (rvParam === null || rvParam === '' || rvParam === '0') {
    // Synthetic ADDED events for the current state, then live events.
    for (const o of listObjects(ctx, req.res, req.res.namespaced ? req.namespace : undefined, null, null))
      if (matchesFilter(o, filter)) emit('ADDED', undefined, o);
    ctx.hub.add(watcher);
  } else {
    const rv = Number(rvParam);
    if (!/^\d+$/.test(rvParam) || !ctx.hub.add(watcher, rv)) {
      const st = expired(rvParam, ctx.hub.oldestRv + 1);
      write(`{"type":"ERROR","object":${JSON.stringify(st)}}\n`);
      finish();
      return;
    }
  }
  const timeout = Number(req.query.get('timeoutSeconds'));
  if (Number.isFinite(timeout) && timeout > 0) timers.push(setTimeout(finish, timeout * 1000));
  if (bookmarks) {
    const tick = () => {
      if (queued > 0) {
        // a bookmark must not overtake events still being converted
        timers.push(setTimeout(tick, 1000));
        return;
      }
      const bm = {
        kind: req.res.kind,
        apiVersion: req.res.apiVersion,
        metadata: { resourceVersion: String(ctx.hub.currentRv) },
      };
      write(`{"type":"BOOKMARK","object":${JSON.stringify(bm)}}\n`);
      timers.push(setTimeout(tick, 10_000));
    };
    timers.push(setTimeout(tick, 1000));
  }
}
