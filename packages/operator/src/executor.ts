// The executor of the action vocabulary (packages/core/src/actions.ts) against the API server:
// create; delete with uid/resourceVersion preconditions; patch (merge / json / strategic);
// update with the object's resourceVersion (409 → requeue, never a blind overwrite); status
// through the status subresource with the cached resourceVersion; events best-effort. It keeps
// the expectations of §4.4 E4.8: creates/deletes recorded before the request and rolled back on
// failure, resourceVersions recorded from each write's response.
import type { KubeObject } from '@kruise-ts/api';
import { type Action, isKubeObject, type ObjectRef, toRFC3339 } from '@kruise-ts/core';
import type { Expectations } from './expectations';
import { ApiError, type KubeClient, type KubeResponse } from './kube/client';
import { collectionPath, objectPath, resourceFor } from './kube/resources';

/** What the executor needs besides the client. */
export interface ExecuteContext {
  client: KubeClient;
  expectations: Expectations;
  /** The workload key (`namespace/name`) the actions belong to. */
  workloadKey: string;
  /** The cached copy of an object (status writes take its resourceVersion). */
  cached(ref: ObjectRef): KubeObject | undefined;
  now(): Date;
  /** Write events (default true). */
  events?: boolean;
  /** Max concurrent requests within one run of independent pod writes (default 16). */
  concurrency?: number;
  /** Event names need a unique suffix (the shell may use randomness). */
  uniqueSuffix?: () => string;
}

/** The outcome of executing one reconcile's actions. */
export interface ExecuteResult {
  /** Actions that succeeded. */
  done: number;
  /** Writes sent (requests other than GET). */
  writes: number;
  /** True when a 409 Conflict stopped execution (the key is requeued, nothing overwritten). */
  conflict: boolean;
  /** The first failure, if any (execution stops there, like a reconcile returning an error). */
  error?: ApiError | Error;
}

const PATCH_TYPES = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

function fail(res: KubeResponse, what: string): ApiError {
  const reason = typeof res.body?.reason === 'string' ? res.body.reason : String(res.status);
  const msg = typeof res.body?.message === 'string' ? res.body.message : '';
  return new ApiError(res.status, reason, `${what}: ${res.status} ${msg}`.trim());
}

const ok = (res: KubeResponse) => res.status >= 200 && res.status < 300;

/**
 * The object a successful write answered with, or the failure to report when the body is not one
 * (a proxy's HTML page, an empty body): the write's outcome is then unknown, so the action fails
 * and the key is requeued like any other failed write, instead of reading fields of a non-object.
 */
function writtenObject(res: KubeResponse, what: string): KubeObject | Error {
  const body: unknown = res.body;
  if (isKubeObject(body)) return body;
  return new Error(`${what}: ${res.status} response body is not a Kubernetes object`);
}

/** The `path` of one JSON-patch operation, when it has one as text. */
function opPath(op: unknown): string | undefined {
  if (typeof op !== 'object' || op === null || !('path' in op)) return undefined;
  return typeof op.path === 'string' ? op.path : undefined;
}

/** Whether a JSON-patch operation writes the status (its path is `/status` or under it). */
function isStatusOp(op: unknown): boolean {
  const path = opPath(op);
  return path === '/status' || (path?.startsWith('/status/') ?? false);
}

/**
 * Splits a patch into the part for the status subresource (sent first, like kruise's condition
 * write before the spec patch) and the rest. Merge/strategic: the `status` member; JSON patch:
 * ops under `/status`. Example: `{metadata: {labels: {a: "1"}}, status: {conditions: [...]}}` →
 * `[{status: true, patch: {status: {...}}}, {status: false, patch: {metadata: {...}}}]`.
 */
export function splitStatusPatch(
  patchType: 'merge' | 'json' | 'strategic',
  patch: unknown,
  hasStatus: boolean,
): Array<{ status: boolean; patch: unknown }> {
  if (!hasStatus) return [{ status: false, patch }];
  if (patchType === 'json') {
    const ops: readonly unknown[] = Array.isArray(patch) ? patch : [];
    const st = ops.filter(isStatusOp);
    const rest = ops.filter((o) => !st.includes(o));
    const out: Array<{ status: boolean; patch: unknown }> = [];
    if (st.length) out.push({ status: true, patch: st });
    if (rest.length || !st.length) out.push({ status: false, patch: rest });
    return out;
  }
  if (!patch || typeof patch !== 'object' || !('status' in patch)) return [{ status: false, patch }];
  const { status, ...rest } = patch;
  const out: Array<{ status: boolean; patch: unknown }> = [{ status: true, patch: { status } }];
  if (Object.keys(rest).length > 0) out.push({ status: false, patch: rest });
  return out;
}

/** Executes one action. Returns undefined on success, or the failure. */
export async function executeAction(a: Action, ctx: ExecuteContext): Promise<ApiError | Error | undefined> {
  const { client, expectations: exp } = ctx;
  switch (a.verb) {
    case 'create': {
      const obj = a.object;
      const res0 = resourceFor(obj.apiVersion, obj.kind);
      const ns = obj.metadata.namespace;
      const name = obj.metadata.name;
      // E4.8: record before sending when the name is known
      if (name) exp.expect(ctx.workloadKey, 'create', obj.kind, ns, name, ctx.now());
      const res = await client.request('POST', collectionPath(res0, ns), { body: obj });
      if (!ok(res)) {
        if (name) exp.observe('create', obj.kind, ns, name); // roll back (AlreadyExists too)
        return fail(res, `create ${obj.kind} ${name ?? obj.metadata.generateName ?? ''}`);
      }
      const created = writtenObject(res, `create ${obj.kind} ${name ?? obj.metadata.generateName ?? ''}`);
      if (created instanceof Error) return created;
      // generateName: the name is known only now; the watch may already have delivered it
      if (!name && created.metadata.name) {
        const cachedCopy = ctx.cached({
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          namespace: ns,
          name: created.metadata.name,
        });
        if (!cachedCopy)
          exp.expect(ctx.workloadKey, 'create', obj.kind, ns, created.metadata.name, ctx.now());
      }
      return undefined;
    }
    case 'delete': {
      const t = a.target;
      const res0 = resourceFor(t.apiVersion, t.kind);
      exp.expect(ctx.workloadKey, 'delete', t.kind, t.namespace, t.name, ctx.now());
      const pre = a.preconditions ?? (t.uid ? { uid: t.uid } : undefined);
      const res = await client.request('DELETE', objectPath(res0, t.namespace, t.name), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', ...(pre ? { preconditions: pre } : {}) },
      });
      if (res.status === 404) {
        // already gone: nothing to wait for unless the cache still shows it
        if (!ctx.cached(t)) exp.observe('delete', t.kind, t.namespace, t.name);
        return undefined;
      }
      if (!ok(res)) {
        exp.observe('delete', t.kind, t.namespace, t.name);
        return fail(res, `delete ${t.kind} ${t.name}`);
      }
      return undefined;
    }
    case 'patch': {
      const t = a.target;
      const res0 = resourceFor(t.apiVersion, t.kind);
      // status changes go to the status subresource (the API server ignores them on the object)
      const parts = splitStatusPatch(a.patchType, a.patch, res0.status);
      for (const part of parts) {
        const res = await client.request(
          'PATCH',
          objectPath(res0, t.namespace, t.name, part.status ? 'status' : undefined),
          {
            body: part.patch,
            contentType: PATCH_TYPES[a.patchType],
          },
        );
        const what = `patch ${t.kind} ${t.name}${part.status ? '/status' : ''}`;
        if (!ok(res)) return fail(res, what);
        const patched = writtenObject(res, what);
        if (patched instanceof Error) return patched;
        exp.expectVersion(patched.metadata.uid, patched.metadata.resourceVersion, ctx.now());
      }
      return undefined;
    }
    case 'update': {
      const obj = a.object;
      const res0 = resourceFor(obj.apiVersion, obj.kind);
      // full replace carrying the object's resourceVersion: a stale one gets 409, never overwrites
      const res = await client.request(
        'PUT',
        objectPath(res0, obj.metadata.namespace, obj.metadata.name ?? ''),
        {
          body: obj,
        },
      );
      const what = `update ${obj.kind} ${obj.metadata.name}`;
      if (!ok(res)) return fail(res, what);
      const updated = writtenObject(res, what);
      if (updated instanceof Error) return updated;
      exp.expectVersion(updated.metadata.uid, updated.metadata.resourceVersion, ctx.now());
      return undefined;
    }
    case 'updateStatus': {
      const t = a.target;
      const res0 = resourceFor(t.apiVersion, t.kind);
      const current = ctx.cached(t);
      if (!current) return new ApiError(404, 'NotFound', `updateStatus ${t.kind} ${t.name}: not in cache`);
      const body = { ...current, status: a.status };
      const res = await client.request(
        'PUT',
        objectPath(res0, t.namespace, t.name, res0.status ? 'status' : undefined),
        { body },
      );
      const what = `updateStatus ${t.kind} ${t.name}`;
      if (!ok(res)) return fail(res, what);
      const updated = writtenObject(res, what);
      if (updated instanceof Error) return updated;
      exp.expectVersion(updated.metadata.uid, updated.metadata.resourceVersion, ctx.now());
      return undefined;
    }
    case 'event': {
      if (ctx.events === false) return undefined;
      const io = a.involvedObject;
      const ns = io.namespace ?? 'default';
      const now = toRFC3339(ctx.now());
      const suffix = ctx.uniqueSuffix?.() ?? Math.random().toString(16).slice(2, 10);
      const ev = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${io.name}.${suffix}`, namespace: ns },
        involvedObject: io,
        reason: a.reason,
        message: a.message,
        type: a.type,
        source: { component: 'kruise-ts-operator' },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      };
      // best effort: a failed event never fails the reconcile
      await client
        .request('POST', collectionPath(resourceFor('v1', 'Event'), ns), { body: ev })
        .catch(() => undefined);
      return undefined;
    }
  }
}

/** Independent pod writes that may run concurrently (a run of same-verb actions on distinct pods). */
function parallelizable(a: Action): string | undefined {
  if (a.verb === 'create' && a.object.kind === 'Pod') return 'create';
  if ((a.verb === 'delete' || a.verb === 'patch') && a.target.kind === 'Pod') return a.verb;
  return undefined;
}

/**
 * Executes a reconcile's actions in order, stopping at the first failure (a 409 marks
 * `conflict`). Consecutive same-verb writes to distinct pods run with bounded concurrency (like
 * kruise's slow-start batches), every other action runs alone.
 */
export async function executeActions(
  actions: readonly Action[],
  ctx: ExecuteContext,
): Promise<ExecuteResult> {
  const out: ExecuteResult = { done: 0, writes: 0, conflict: false };
  const conc = Math.max(1, ctx.concurrency ?? 16);
  let i = 0;
  while (i < actions.length) {
    const kind = parallelizable(actions[i]);
    let j = i + 1;
    if (kind) while (j < actions.length && parallelizable(actions[j]) === kind && j - i < conc) j++;
    const batch = actions.slice(i, j);
    const errors = await Promise.all(
      batch.map((a) =>
        executeAction(a, ctx).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
      ),
    );
    for (const a of batch) if (a.verb !== 'event' || ctx.events !== false) out.writes += 1;
    const firstErr = errors.find((e) => e !== undefined);
    out.done += errors.filter((e) => e === undefined).length;
    if (firstErr) {
      out.error = firstErr;
      out.conflict = errors.some((e) => e instanceof ApiError && e.statusCode === 409);
      return out;
    }
    i = j;
  }
  return out;
}
