// Request routing: version, discovery and OpenAPI paths, and resource paths
// `/api/v1/...` and `/apis/<g>/<v>/...` with or without `namespaces/<ns>`
// (guide §E), dispatched by method to reads.ts and writes.ts. Unknown paths
// answer a 404 Status; wrong methods a 405 Status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { reviewReply } from './authReviews';
import { deleteObject } from './deletes';
import {
  aggregatedDiscovery,
  aggregatedVersion,
  legacyApi,
  legacyApis,
  legacyGroup,
  openApiDoc,
  openApiRoot,
  resourceList,
  SERVER_VERSION,
} from './discovery';
import { dryRunOf } from './dryRun';
import { type ApiContext, listObjects, type Reply } from './objects';
import type { OpenApiHashes } from './openApiHashes';
import { POD_SUBRESOURCES, podSubresource } from './podSubresources';
import { getReply, listReply, type ReadRequest, serveWatch } from './reads';
import type { ResourceInfo } from './registry';
import { badRequest, methodNotAllowed, unknownPath } from './status';
import { createObject, patchObject, replaceObject, type WriteRequest } from './writes';

/** What the router needs besides the context. */
export interface RouteEnv {
  ctx: ApiContext;
  /** `127.0.0.1:PORT` for legacy `/api`. */
  serverAddress(): string;
  /** Ends of open watch streams (server close). */
  closing: Set<() => void>;
  /** This server's OpenAPI document hashes for `/openapi/v3`. */
  openApiHashes: OpenApiHashes;
}

/** A route's answer: a reply, or `stream` when the handler wrote the response itself. */
export type RouteResult = Reply | 'stream';

const ok = (body: unknown, contentType?: string): Reply => ({ code: 200, body, contentType });
const notFound = (): Reply => ({ code: 404, body: unknownPath() });

/** The resource part of a path, after `/api/v1` or `/apis/<g>/<v>`. */
interface Target {
  res: ResourceInfo;
  namespace?: string;
  name?: string;
  sub?: string;
}

function resolve(env: RouteEnv, group: string, version: string, segs: string[]): Target | undefined {
  const reg = env.ctx.registry;
  let namespace: string | undefined;
  let rest = segs;
  // `namespaces/<ns>/<resource>/...`, except `namespaces/<name>[/status|/finalize]` (the Namespace itself).
  if (
    group === '' &&
    segs[0] === 'namespaces' &&
    segs.length >= 3 &&
    segs[2] !== 'status' &&
    segs[2] !== 'finalize'
  ) {
    namespace = segs[1];
    rest = segs.slice(2);
  } else if (group !== '' && segs[0] === 'namespaces' && segs.length >= 3) {
    namespace = segs[1];
    rest = segs.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) return undefined;
  const res = reg.lookup(group, version, rest[0]);
  if (!res) return undefined;
  if (namespace !== undefined && !res.namespaced) return undefined;
  const [, name, sub] = rest;
  if (name === '') return undefined;
  if (sub !== undefined && !((sub === 'status' && res.status) || (sub === 'scale' && res.scale)))
    return undefined;
  return { res, namespace, name, sub };
}

/** Routes one request whose body has been read. */
export async function route(
  env: RouteEnv,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: string,
): Promise<RouteResult> {
  const { ctx } = env;
  const method = req.method ?? 'GET';
  const accept = req.headers.accept;
  const segs = url.pathname.split('/').filter((s, i, a) => s !== '' || (i > 0 && i < a.length - 1));
  let parts: string[];
  try {
    parts = segs.map((x) => decodeURIComponent(x));
  } catch {
    return { code: 400, body: badRequest('malformed request path') };
  }
  const reg = ctx.registry;
  const path = `/${parts.join('/')}`;

  if (path === '/version')
    return method === 'GET' ? ok(SERVER_VERSION) : { code: 405, body: methodNotAllowed() };
  if (path === '/healthz' || path === '/readyz' || path === '/livez') return ok('ok', 'text/plain');
  if (path === '/api' || path === '/apis') {
    const core = path === '/api';
    const v = aggregatedVersion(accept);
    if (v)
      return ok(
        aggregatedDiscovery(reg, core, v),
        `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`,
      );
    return ok(core ? legacyApi(env.serverAddress()) : legacyApis(reg));
  }
  if (path === '/openapi/v3') {
    return ok(openApiRoot(reg, (gv) => env.openApiHashes.hashFor(reg, gv)));
  }
  if (parts[0] === 'openapi' && parts[1] === 'v3') {
    const gv = parts.slice(2);
    const doc =
      gv[0] === 'api' && gv.length === 2
        ? openApiDoc(reg, '', gv[1])
        : gv[0] === 'apis' && gv.length === 3
          ? openApiDoc(reg, gv[1], gv[2])
          : undefined;
    const [g, v] = gv[0] === 'api' ? ['', gv[1]] : [gv[1], gv[2]];
    if (!doc || !reg.hasGroupVersion(g ?? '', v ?? '')) return notFound();
    return ok(doc);
  }

  // kubectl auth can-i / whoami (authReviews.ts)
  const review = reviewReply(path, method, body);
  if (review) return review;

  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 2) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 2) {
    if (parts.length === 2) {
      const g = legacyGroup(reg, parts[1]);
      return g ? ok(g) : notFound();
    }
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else return notFound();
  if (!reg.hasGroupVersion(group, version)) return notFound();
  // pods/<name>/log|exec|attach|portforward (podSubresources.ts)
  if (
    group === '' &&
    version === 'v1' &&
    rest.length === 5 &&
    rest[0] === 'namespaces' &&
    rest[2] === 'pods' &&
    POD_SUBRESOURCES.has(rest[4])
  ) {
    const pods = reg.lookup('', 'v1', 'pods');
    if (pods) return podSubresource(ctx, pods, rest[1], rest[3], rest[4], method, url.searchParams);
  }
  if (rest.length === 0)
    return method === 'GET' ? ok(resourceList(reg, group, version)) : { code: 405, body: methodNotAllowed() };
  const t = resolve(env, group, version, rest);
  if (!t) return notFound();
  const query = url.searchParams;
  let dryRun = false;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
    const d = dryRunOf(method, query, body);
    if (typeof d !== 'boolean') return { code: d.code, body: d };
    dryRun = d;
  }
  const writeReq = (t: Target, query: URLSearchParams, req: IncomingMessage, body: string): WriteRequest => ({
    ...t,
    query,
    contentType: req.headers['content-type'],
    body,
    dryRun,
    userAgent: req.headers['user-agent'],
  });
  if (t.name === undefined) {
    // Collection.
    const rr: ReadRequest = { res: t.res, namespace: t.namespace, query, accept };
    switch (method) {
      case 'GET': {
        const w = query.get('watch');
        if (w === 'true' || w === '1') {
          serveWatch(ctx, rr, res, env.closing);
          return 'stream';
        }
        return listReply(ctx, rr);
      }
      case 'POST':
        if (t.res.namespaced && t.namespace === undefined) return notFound();
        return createObject(ctx, writeReq(t, query, req, body));
      case 'DELETE':
        return deleteCollection(ctx, writeReq(t, query, req, body));
      default:
        return { code: 405, body: methodNotAllowed() };
    }
  }
  if (t.res.namespaced && t.namespace === undefined) return notFound();
  switch (method) {
    case 'GET':
      return getReply(ctx, { res: t.res, namespace: t.namespace, name: t.name, sub: t.sub, query, accept });
    case 'PUT':
      return replaceObject(ctx, writeReq(t, query, req, body));
    case 'PATCH':
      return patchObject(ctx, writeReq(t, query, req, body));
    case 'DELETE':
      if (t.sub) return { code: 405, body: methodNotAllowed() };
      return deleteObject(ctx, writeReq(t, query, req, body));
    default:
      return { code: 405, body: methodNotAllowed() };
  }
}

/** DELETE of a collection: each selected object deleted with the request's options (dry run included). */
async function deleteCollection(ctx: ApiContext, w: WriteRequest): Promise<Reply> {
  const { query } = w;
  let items: ReturnType<typeof listObjects>;
  try {
    items = listObjects(ctx, w.res, w.namespace, query.get('labelSelector'), query.get('fieldSelector'));
  } catch (e) {
    return { code: 400, body: badRequest((e as Error).message) };
  }
  const out: unknown[] = [];
  for (const o of items) {
    const r = await deleteObject(ctx, { ...w, namespace: o.metadata.namespace, name: o.metadata.name }, o);
    if (r.code === 200) out.push(r.body);
  }
  return ok({
    kind: w.res.listKind,
    apiVersion: w.res.apiVersion,
    metadata: { resourceVersion: String(ctx.hub.currentRv) },
    items: out,
  });
}
