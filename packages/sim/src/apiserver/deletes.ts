// DELETE of one object through the simulation (guide §E, §I): DeleteOptions from the body and
// the query, the admission of the delete (the operator's webhooks when configured, otherwise the
// simulated kruise's deletion protection), dry runs, uid and resourceVersion preconditions, a
// pod's grace period, and orphan propagation (dependents lose the owner reference first). A dry
// run (query or DeleteOptions body, dryRun.ts) runs all of it but the write.
import type { KubeObject } from '@kruise-ts/api';
import type { WriteResult } from '@kruise-ts/cluster';
import { type ApiContext, deleteAdmissionContext, getObject, type Reply } from './objects';
import { badRequest, conflictStatus, notFoundStatus, type StatusObject, status } from './status';
import {
  fail,
  isStatus,
  refOf,
  replyAs,
  requestView,
  SOURCE,
  type WriteRequest,
  writeFailure,
} from './writes';

interface DeleteOptions {
  propagationPolicy?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** Reads DeleteOptions from the body (optional) and the query. */
export function deleteOptions(req: WriteRequest): DeleteOptions | StatusObject {
  let opts: DeleteOptions = {};
  if (req.body.trim() !== '') {
    try {
      const v = JSON.parse(req.body);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) opts = v as DeleteOptions;
      else return badRequest('DeleteOptions must be a JSON object');
    } catch (e) {
      return badRequest(`the body of the request could not be decoded: ${(e as Error).message}`);
    }
  }
  const g = req.query.get('gracePeriodSeconds');
  if (g !== null && Number.isFinite(Number(g))) opts.gracePeriodSeconds = Number(g);
  const pp = req.query.get('propagationPolicy');
  if (pp) opts.propagationPolicy = pp;
  return opts;
}

/** DELETE one object. */
export async function deleteObject(ctx: ApiContext, req: WriteRequest, current?: KubeObject): Promise<Reply> {
  const opts = deleteOptions(req);
  if (isStatus(opts)) return fail(opts);
  const obj = current ?? getObject(ctx, req.res, req.namespace, req.name ?? '');
  if (!obj) return fail(notFoundStatus(req.res, req.name ?? ''));
  const name = obj.metadata.name ?? '';
  if (ctx.webhooks) {
    const old = await requestView(ctx, req, obj);
    if (isStatus(old)) return fail(old);
    const w = await ctx.webhooks.admit(req.res, 'DELETE', undefined, old, undefined, req.dryRun === true);
    if (!w.ok) return fail(w.status);
  } else {
    // The server plays kruise: its deletion protection (docs/reference/operator.md §1), dry runs included
    // (D1.11), on the stored object.
    const d = ctx.sim.admission.admitDelete(obj, deleteAdmissionContext(ctx.sim));
    if (!d.allowed) return fail(status(d.code, d.reason, d.message));
  }
  const pre = opts.preconditions ?? undefined;
  for (const [field, given, actual] of [
    ['UID', pre?.uid, obj.metadata.uid],
    ['ResourceVersion', pre?.resourceVersion, obj.metadata.resourceVersion],
  ] as const)
    if (given && given !== actual)
      return fail(
        conflictStatus(
          req.res,
          name,
          `Precondition failed: ${field} in precondition: ${given}, ${field} in object meta: ${actual}`,
        ),
      );
  const target = refOf(req.res, obj);
  if (req.dryRun) {
    // dryRun.ts: the store answers what the delete would do and changes nothing
    const grace =
      typeof opts.gracePeriodSeconds === 'number' && obj.kind === 'Pod'
        ? Math.max(0, opts.gracePeriodSeconds)
        : undefined;
    const d = ctx.sim.store.delete(target, SOURCE, {
      gracePeriodSeconds: grace,
      reason: 'Delete',
      dryRun: true,
    });
    if (!d.ok) return fail(writeFailure(d, req.res, name));
    return replyAs(ctx, req, 200, d.object ?? obj);
  }
  if (opts.propagationPolicy === 'Orphan' && obj.metadata.uid) orphanDependents(ctx, obj.metadata.uid);
  let r: WriteResult;
  if (typeof opts.gracePeriodSeconds === 'number' && obj.kind === 'Pod') {
    r = ctx.sim.store.delete(target, SOURCE, {
      gracePeriodSeconds: Math.max(0, opts.gracePeriodSeconds),
      reason: 'Delete',
    });
    ctx.sim.advance(0);
  } else r = ctx.sim.act({ verb: 'delete', target, reason: 'Delete' }, SOURCE);
  if (!r.ok) return fail(writeFailure(r, req.res, name));
  const after = getObject(ctx, req.res, req.namespace, name);
  return replyAs(ctx, req, 200, after ?? obj);
}

/** Orphan propagation: dependents lose the owner reference before the owner goes. */
function orphanDependents(ctx: ApiContext, uid: string): void {
  for (const dep of ctx.sim.store.listOwnedBy(uid)) {
    const refs = (dep.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    ctx.sim.store.update(
      { ...dep, metadata: { ...dep.metadata, ownerReferences: refs } },
      'garbage-collector',
      'Orphan',
    );
  }
}
