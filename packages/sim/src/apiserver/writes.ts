// Writes through the simulation (guide §E, §I): create (201, generateName,
// namespace checks), replace (409 on a stale resourceVersion), patch (merge,
// JSON, strategic for built-ins, server-side apply), the status and scale
// subresources (delete with preconditions, grace periods and propagation is in
// deletes.ts). A create or update body is JSON or YAML (bodies.ts), and the
// object's metadata is validated as kube-apiserver does (metadata.ts: 422 before
// any webhook or the store sees it, and again after a mutating webhook changed it).
// Every write goes through `sim.act`, so the admission chain
// runs (defaults, validation, sidecar injection) and the cluster settles.
// Versions (conversion.ts): a write's object is admitted in the request's
// version and stored in the storage version; answers are converted back to the
// request's version; a failed conversion is a 500 Status.
import type { KubeObject } from '@kruise-ts/api';
import type { WriteResult } from '@kruise-ts/cluster';
import type { ObjectRef } from '@kruise-ts/core';
import { decodeObjectBody } from './bodies';
import { toStorage, viewOf } from './conversion';
import { checkUnknownFields } from './fieldValidation';
import { ownApply, ownWrite } from './managedFields/hooks';
import { validateWriteMetadata } from './metadata';
import { type ApiContext, getObject, type Reply, readPath, toScale, writePath } from './objects';
import { applyPatch, CR_PATCH_TYPES, parsePatchBody, patchKind } from './patch';
import type { ResourceInfo } from './registry';
import { schemaFailure } from './schemaValidation';
import {
  alreadyExists,
  badRequest,
  conflictStatus,
  invalidStatus,
  notFoundStatus,
  type StatusObject,
  status,
  unsupportedMediaType,
} from './status';

/** A parsed write request. */
export interface WriteRequest {
  res: ResourceInfo;
  namespace?: string;
  name?: string;
  sub?: string;
  query: URLSearchParams;
  contentType?: string;
  body: string;
  /** The User-Agent header: names the field manager when the query gives no `fieldManager`. */
  userAgent?: string;
  /** `dryRun=All` (dryRun.ts): everything runs, nothing is stored. */
  dryRun?: boolean;
}

/** The source of the API server's writes in the simulation's log. */
export const SOURCE = 'api';

/** A Status as a reply. */
export const fail = (s: StatusObject): Reply => ({ code: s.code, body: s });

/** The store reference of `obj`, with the kind of the request's resource. */
export function refOf(res: ResourceInfo, obj: KubeObject): ObjectRef {
  const r: ObjectRef = { apiVersion: obj.apiVersion, kind: res.kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace) r.namespace = obj.metadata.namespace;
  return r;
}

/** Maps a failed store write to a Status. */
export function writeFailure(
  r: Extract<WriteResult, { ok: false }>,
  res: ResourceInfo,
  name: string,
): StatusObject {
  // 403: a DELETE refused by the simulation's deletion protection (admission.ts)
  if ((r.code as number) === 403) return status(403, r.reason, r.message);
  switch (r.code) {
    case 404:
      return notFoundStatus(res, name);
    case 409:
      if (r.reason === 'AlreadyExists') return alreadyExists(res, name);
      return conflictStatus(res, name, r.message.startsWith('Precondition') ? r.message : undefined);
    case 422:
      if (r.message.startsWith('Internal error')) return status(500, 'InternalError', r.message);
      return invalidStatus(res, name, r.errors ?? [], r.message.replace(/^The /, ''));
    default:
      return badRequest(r.message);
  }
}

/** Is `v` a Status (a failure) rather than an object? */
export const isStatus = (v: unknown): v is StatusObject => (v as StatusObject)?.kind === 'Status';

/** `obj` at the request's version as a reply (500 when the conversion fails). */
export async function replyAs(
  ctx: ApiContext,
  req: WriteRequest,
  code: number,
  obj: KubeObject,
): Promise<Reply> {
  const v = await viewOf(ctx, obj, req.res);
  return v.ok ? { code, body: v.object } : fail(v.status);
}

/** The stored object at the request's version, or a Status. */
export async function requestView(
  ctx: ApiContext,
  req: WriteRequest,
  stored: KubeObject,
): Promise<KubeObject | StatusObject> {
  const v = await viewOf(ctx, stored, req.res);
  return v.ok ? v.object : v.status;
}

/** Fills apiVersion/kind from the path and checks namespace and name against it. */
function normalize(req: WriteRequest, obj: KubeObject, nameRequired: boolean): KubeObject | StatusObject {
  const { res } = req;
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj = { ...obj, apiVersion: res.apiVersion };
  if (obj.kind === undefined || obj.kind === '') obj = { ...obj, kind: res.kind };
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string')
    return badRequest('apiVersion and kind must be strings');
  const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
  if (group !== res.group || obj.kind !== res.kind)
    return badRequest(
      `the API version in the data (${obj.apiVersion}) does not match the expected API version (${res.apiVersion})`,
    );
  const meta = { ...obj.metadata };
  if (res.namespaced) {
    if (meta.namespace && meta.namespace !== req.namespace)
      return badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    meta.namespace = req.namespace;
  } else delete meta.namespace;
  if (nameRequired && meta.name !== req.name)
    return badRequest(
      `the name of the object (${meta.name ?? ''}) does not match the name on the URL (${req.name})`,
    );
  dropEmptyMetadata(meta as Record<string, unknown>);
  return { ...obj, metadata: meta };
}

/** ObjectMeta's maps and lists that Go encodes with `omitempty`. */
const OMIT_EMPTY_MAPS = ['labels', 'annotations'] as const;
const OMIT_EMPTY_LISTS = ['finalizers', 'ownerReferences'] as const;

/**
 * Removes empty labels, annotations, finalizers and ownerReferences from a copy of metadata, as
 * kube-apiserver's typed decoding does: `omitempty` drops them when the object is stored. A
 * client-side `kubectl apply` of a manifest without annotations onto an object created by
 * server-side apply sends the merge patch `{"metadata":{"annotations":{}}}`; stored as is, the
 * empty map would show up in `kubectl diff` and `get -o yaml` where a real cluster shows nothing.
 * Values of the wrong type are left for validation to reject.
 */
function dropEmptyMetadata(meta: Record<string, unknown>): void {
  for (const key of OMIT_EMPTY_MAPS) {
    const v = meta[key];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)
      delete meta[key];
  }
  for (const key of OMIT_EMPTY_LISTS) {
    const v = meta[key];
    if (Array.isArray(v) && v.length === 0) delete meta[key];
  }
}

/** A 422 Invalid for metadata kube-apiserver would refuse (metadata.ts), or undefined. */
function metadataFailure(
  req: WriteRequest,
  obj: KubeObject,
  operation: 'create' | 'update',
): StatusObject | undefined {
  const errors = validateWriteMetadata(req.res, obj, operation);
  if (errors.length === 0) return undefined;
  const m = obj.metadata as { name?: unknown; generateName?: unknown };
  const name = typeof m.name === 'string' && m.name ? m.name : m.generateName;
  return invalidStatus(req.res, typeof name === 'string' ? name : '', errors);
}

function namespaceMissing(ctx: ApiContext, req: WriteRequest): StatusObject | undefined {
  if (!req.res.namespaced || !req.namespace) return undefined;
  if (ctx.sim.store.get('v1', 'Namespace', undefined, req.namespace)) return undefined;
  return status(404, 'NotFound', `namespaces "${req.namespace}" not found`, {
    name: req.namespace,
    kind: 'namespaces',
  });
}

/** POST a collection. */
export async function createObject(ctx: ApiContext, req: WriteRequest, parsed?: KubeObject): Promise<Reply> {
  const p = parsed ?? decodeObjectBody(req.contentType, req.body);
  if (isStatus(p)) return fail(p);
  let obj = normalize(req, p, false);
  if (isStatus(obj)) return fail(obj);
  const missing = namespaceMissing(ctx, req);
  if (missing) return fail(missing);
  const invalidMeta = metadataFailure(req, obj, 'create');
  if (invalidMeta) return fail(invalidMeta);
  // unknown fields pruned or refused per fieldValidation (an apply's configuration is its own)
  const fields = parsed ? undefined : checkUnknownFields(req.res, req.query, obj);
  if (fields && !fields.ok) return fail(fields.status);
  if (fields) obj = fields.object;
  if (obj.apiVersion !== req.res.apiVersion) {
    // a body of another version of the group: admitted at the request's version
    const v = await viewOf(ctx, obj, req.res);
    if (!v.ok) return fail(v.status);
    obj = v.object;
  }
  // field ownership (managedFields/): an apply that creates brings its entries along
  if (!parsed) obj = ownWrite(req, undefined, obj, ctx.sim.clock.now());
  const name = obj.metadata.name ?? obj.metadata.generateName ?? '';
  const dryRun = req.dryRun === true;
  if (ctx.webhooks) {
    // the CRD's schema between the mutating and validating webhooks (schemaValidation.ts); with
    // the simulation's own controllers, their in-process validators check it after defaulting
    const w = await ctx.webhooks.admit(req.res, 'CREATE', obj, undefined, undefined, dryRun, (o) =>
      schemaFailure(req.res, o),
    );
    if (!w.ok) return fail(w.status);
    if (w.object) {
      obj = w.object;
      const mutated = metadataFailure(req, obj, 'create');
      if (mutated) return fail(mutated);
    }
  }
  const stored = await toStorage(ctx, obj, req.res);
  if (!stored.ok) return fail(stored.status);
  const r = dryRun
    ? ctx.sim.store.create(stored.object, SOURCE, 'Create', true)
    : ctx.sim.act({ verb: 'create', object: stored.object, reason: 'Create' }, SOURCE);
  if (!r.ok) return fail(writeFailure(r, req.res, name));
  return { ...(await replyAs(ctx, req, 201, r.object ?? stored.object)), warnings: fields?.warnings };
}

/**
 * Runs an update of the main resource through webhooks and the store. `next` is at the request's
 * version; `currentView` is `current` (stored) at the request's version when already converted.
 */
async function updateMain(
  ctx: ApiContext,
  req: WriteRequest,
  current: KubeObject,
  next: KubeObject,
  currentView?: KubeObject,
): Promise<Reply> {
  // field ownership of an ordinary write (an apply has recorded its own: applyOwned)
  if (patchKind(req.contentType) !== 'apply' || req.sub !== undefined)
    next = ownWrite(req, currentView ?? current, next, ctx.sim.clock.now());
  const dryRun = req.dryRun === true;
  if (ctx.webhooks) {
    const old = currentView ?? (await requestView(ctx, req, current));
    if (isStatus(old)) return fail(old);
    const w = await ctx.webhooks.admit(req.res, 'UPDATE', next, old, req.sub, dryRun, (o) =>
      schemaFailure(req.res, o),
    );
    if (!w.ok) return fail(w.status);
    if (w.object) {
      next = w.object;
      const mutated = req.sub === undefined ? metadataFailure(req, next, 'update') : undefined;
      if (mutated) return fail(mutated);
    }
  }
  const stored = await toStorage(ctx, next, req.res);
  if (!stored.ok) return fail(stored.status);
  const r = dryRun
    ? ctx.sim.store.update(stored.object, SOURCE, 'Update', true)
    : ctx.sim.act({ verb: 'update', object: stored.object, reason: 'Update' }, SOURCE);
  if (!r.ok) return fail(writeFailure(r, req.res, req.name ?? ''));
  return replyAs(ctx, req, 200, r.object ?? stored.object);
}

function staleRv(current: KubeObject, rv: unknown): boolean {
  return rv !== undefined && rv !== null && rv !== '' && rv !== current.metadata.resourceVersion;
}

async function writeStatus(
  ctx: ApiContext,
  req: WriteRequest,
  current: KubeObject,
  next: KubeObject,
): Promise<Reply> {
  if (staleRv(current, next.metadata?.resourceVersion)) return fail(conflictStatus(req.res, req.name ?? ''));
  // the status at the storage version (converted with the object it came in)
  const stored = await toStorage(ctx, next, req.res);
  if (!stored.ok) return fail(stored.status);
  const statusValue = stored.object.status;
  if (req.dryRun) return replyAs(ctx, req, 200, { ...current, status: statusValue });
  const r = ctx.sim.act(
    { verb: 'updateStatus', target: refOf(req.res, current), status: statusValue, reason: 'UpdateStatus' },
    SOURCE,
  );
  if (!r.ok) return fail(writeFailure(r, req.res, req.name ?? ''));
  return replyAs(ctx, req, 200, r.object ?? current);
}

async function writeScale(
  ctx: ApiContext,
  req: WriteRequest,
  current: KubeObject,
  replicas: unknown,
): Promise<Reply> {
  const sp = req.res.scale!;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    return fail(
      invalidStatus({ ...req.res, group: 'autoscaling', kind: 'Scale' }, req.name ?? '', [
        {
          type: 'FieldValueInvalid',
          field: 'spec.replicas',
          badValue: replicas,
          detail: 'must be greater than or equal to 0',
        },
      ]),
    );
  if (readPath(current, sp.specReplicasPath) === replicas)
    return { code: 200, body: toScale(current, req.res) };
  const view = await requestView(ctx, req, current);
  if (isStatus(view)) return fail(view);
  const reply = await updateMain(
    ctx,
    { ...req, sub: 'scale' },
    current,
    writePath(view, sp.specReplicasPath, replicas),
    view,
  );
  if (reply.code !== 200) return reply;
  return { code: 200, body: toScale(reply.body as KubeObject, req.res) };
}

/** PUT an object or its status/scale subresource. */
export async function replaceObject(ctx: ApiContext, req: WriteRequest): Promise<Reply> {
  const p = decodeObjectBody(req.contentType, req.body);
  if (isStatus(p)) return fail(p);
  const current = getObject(ctx, req.res, req.namespace, req.name ?? '');
  if (!current) return fail(notFoundStatus(req.res, req.name ?? ''));
  if (req.sub === 'scale') {
    if (staleRv(current, p.metadata.resourceVersion)) return fail(conflictStatus(req.res, req.name ?? ''));
    return writeScale(ctx, req, current, (p.spec as { replicas?: unknown } | undefined)?.replicas);
  }
  const obj = normalize(req, p, true);
  if (isStatus(obj)) return fail(obj);
  if (req.sub === 'status') return writeStatus(ctx, req, current, obj);
  const invalidMeta = metadataFailure(req, obj, 'update');
  if (invalidMeta) return fail(invalidMeta);
  const fields = checkUnknownFields(req.res, req.query, obj);
  if (!fields.ok) return fail(fields.status);
  return { ...(await updateMain(ctx, req, current, fields.object)), warnings: fields.warnings };
}

/** PATCH an object or its status/scale subresource. */
export async function patchObject(ctx: ApiContext, req: WriteRequest): Promise<Reply> {
  const kind = patchKind(req.contentType);
  const types = req.res.custom ? CR_PATCH_TYPES : `${CR_PATCH_TYPES}, application/strategic-merge-patch+json`;
  if (!kind) return fail(unsupportedMediaType(types));
  if (kind === 'strategic' && req.res.custom && req.sub !== 'scale') return fail(unsupportedMediaType(types));
  const manager = req.query.get('fieldManager') ?? undefined;
  if (kind === 'apply' && !manager)
    return fail(
      badRequest(
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      ),
    );
  let patch: unknown;
  try {
    patch = parsePatchBody(kind, req.body);
  } catch (e) {
    return fail(badRequest(`the body of the request could not be decoded: ${(e as Error).message}`));
  }
  // Like kube-apiserver's GuaranteedUpdate: a patch is applied to the object as it is when the
  // write happens, so a concurrent write during admission (webhooks are awaited) makes the server
  // re-read and re-apply it, unless the patch itself pins a resourceVersion.
  for (let attempt = 1; ; attempt++) {
    const reply = await patchOnce(ctx, req, kind, patch, manager);
    if (reply.code !== 409 || attempt >= PATCH_ATTEMPTS || pinsResourceVersion(kind, patch)) return reply;
  }
}

/** How often a patch is re-applied after a write conflict it did not ask for. */
const PATCH_ATTEMPTS = 5;

/** True when a patch names a resourceVersion (optimistic concurrency requested by the client). */
function pinsResourceVersion(kind: string, patch: unknown): boolean {
  if (kind === 'json')
    return (
      Array.isArray(patch) &&
      patch.some((op) => (op as { path?: unknown })?.path === '/metadata/resourceVersion')
    );
  const rv = (patch as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
  return rv !== undefined && rv !== null && rv !== '';
}

/** Server-side apply of `patch` over the live object `view`, with field ownership (managedFields/). */
function applyOwned(
  ctx: ApiContext,
  req: WriteRequest,
  view: KubeObject,
  patch: unknown,
): KubeObject | StatusObject {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
    return status(
      422,
      'Invalid',
      'the server rejected our request due to an error in our request: an apply patch must be an object',
    );
  // a configuration without a name applies to the object the URL names
  const named = patch as KubeObject;
  const config = normalize(req, { ...named, metadata: { name: req.name, ...named.metadata } }, true);
  if (isStatus(config)) return config;
  const applied = ownApply(req, view, config, ctx.sim.clock.now());
  return applied.ok ? applied.object : applied.status;
}

/** One attempt of a PATCH: read, apply the patch, admit and write. */
async function patchOnce(
  ctx: ApiContext,
  req: WriteRequest,
  kind: NonNullable<ReturnType<typeof patchKind>>,
  patch: unknown,
  manager: string | undefined,
): Promise<Reply> {
  const current = getObject(ctx, req.res, req.namespace, req.name ?? '');
  if (!current) {
    if (
      kind === 'apply' &&
      !req.sub &&
      patch !== null &&
      typeof patch === 'object' &&
      !Array.isArray(patch)
    ) {
      const obj = normalize(req, patch as KubeObject, true);
      if (isStatus(obj)) return fail(obj);
      const applied = ownApply(req, undefined, obj, ctx.sim.clock.now());
      if (!applied.ok) return fail(applied.status);
      return createObject(ctx, req, applied.object);
    }
    return fail(notFoundStatus(req.res, req.name ?? ''));
  }
  let view: KubeObject | undefined;
  if (req.sub !== 'scale') {
    const v = await requestView(ctx, req, current);
    if (isStatus(v)) return fail(v);
    view = v;
  }
  // toScale builds a Scale object: apiVersion, kind and metadata are set
  const base = view ?? (toScale(current, req.res) as KubeObject);
  let patched: KubeObject;
  if (kind === 'apply' && view) {
    const applied = applyOwned(ctx, req, view, patch);
    if (isStatus(applied)) return fail(applied);
    patched = applied;
  } else
    try {
      patched = applyPatch(base, kind === 'strategic' && req.sub === 'scale' ? 'merge' : kind, patch, {
        manager,
        now: ctx.sim.clock.now(),
      });
    } catch (e) {
      return fail(
        status(
          422,
          'Invalid',
          `the server rejected our request due to an error in our request: ${(e as Error).message}`,
        ),
      );
    }
  if (
    patched === null ||
    typeof patched !== 'object' ||
    Array.isArray(patched) ||
    typeof patched.metadata !== 'object' ||
    patched.metadata === null
  )
    return fail(status(422, 'Invalid', 'the patched object is not a valid object'));
  if (req.sub === 'scale') {
    if (staleRv(current, patched.metadata.resourceVersion))
      return fail(conflictStatus(req.res, req.name ?? ''));
    return writeScale(ctx, req, current, (patched.spec as { replicas?: unknown } | undefined)?.replicas);
  }
  const obj = normalize(req, patched, true);
  if (isStatus(obj)) return fail(obj);
  if (req.sub === 'status') return writeStatus(ctx, req, current, obj);
  const invalidMeta = metadataFailure(req, obj, 'update');
  if (invalidMeta) return fail(invalidMeta);
  if (kind === 'apply') return updateMain(ctx, req, current, obj, view);
  const fields = checkUnknownFields(req.res, req.query, obj, true);
  if (!fields.ok) return fail(fields.status);
  return { ...(await updateMain(ctx, req, current, fields.object, view)), warnings: fields.warnings };
}
