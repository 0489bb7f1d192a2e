// The cluster's object store: an in-memory API server for what it holds.
// It applies the action vocabulary of @kruise-ts/core (create, update, patch,
// updateStatus, delete, event) and adds what an API server adds around it:
// uids, resourceVersions, generation bumped on spec change, timestamps from the
// virtual clock, admission on create/update, finalizers and deletionTimestamp,
// pod deletion grace periods, background garbage collection of dependents, and
// watch-like change notifications. This file holds deletion and GC; writes are
// in storeWrites.ts, storage and indexes in storeIndex.ts.
import type { KubeObject } from '@kruise-ts/api';
import type { Action, ObjectRef } from '@kruise-ts/core';
import { objectKey, refKey } from './keys';
import { specGracePeriodSeconds, specNodeName } from './storeIndex';
import { conflict, notFound, type WriteResult } from './storeResults';
import { StoreSubresources } from './storeSubresources';

export type { WriteResult } from './storeResults';
export type { Change, StoreOptions } from './storeWrites';

/**
 * The store. Objects are immutable once stored: every write stores a new object,
 * so what `get`/`list` hand out never changes under the reader.
 */
export class Store extends StoreSubresources {
  /**
   * Applies one action of the core vocabulary as `source`. `event` actions are
   * not stored (the simulation logs them); they return ok.
   */
  apply(action: Action, source: string): WriteResult {
    switch (action.verb) {
      case 'create':
        return this.create(action.object, source, action.reason);
      case 'update':
        return this.update(action.object, source, action.reason);
      case 'patch':
        return this.patch(action.target, action.patchType, action.patch, source, action.reason);
      case 'updateStatus':
        return this.updateStatus(action.target, action.status, source, action.reason);
      case 'delete':
        return this.delete(action.target, source, {
          preconditions: action.preconditions,
          reason: action.reason,
        });
      case 'event':
        return { ok: true };
    }
  }

  /**
   * Deletes an object. With finalizers, or for a pod bound to a node with a
   * grace period, it only gets a deletionTimestamp (a pod's is now + grace).
   * Removal garbage-collects dependents (background propagation). With `dryRun` the checks and
   * DELETE admission run and the answer is what the delete would do (`removed`, or the object with
   * its deletionTimestamp at the stored resourceVersion); nothing changes.
   */
  delete(
    target: ObjectRef,
    source: string,
    opts: {
      preconditions?: { uid?: string; resourceVersion?: string };
      gracePeriodSeconds?: number;
      reason?: string;
      dryRun?: boolean;
    } = {},
  ): WriteResult {
    const key = refKey(target);
    const old = this.objects.get(key);
    if (!old) return notFound(target.kind, target.name);
    const pre = opts.preconditions;
    if ((target.uid && target.uid !== old.metadata.uid) || (pre?.uid && pre.uid !== old.metadata.uid))
      return conflict(target.kind, target.name, 'uid');
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion)
      return conflict(target.kind, target.name);
    // DELETE admission (deletion protection, docs/reference/operator.md §1) on the stored object.
    const denial = this.opts.admission?.admitDelete(old, {
      now: this.opts.now(),
      featureGates: this.opts.featureGates ?? {},
      list: this.listForAdmission,
      get: this.getForAdmission,
    });
    if (denial && !denial.allowed)
      return {
        ok: false,
        code: denial.code === 403 ? 403 : 500,
        reason: denial.reason,
        message: denial.message,
      };
    const isPod = old.kind === 'Pod';
    let grace = 0;
    if (isPod && specNodeName(old)) grace = opts.gracePeriodSeconds ?? specGracePeriodSeconds(old) ?? 30;
    if (old.metadata.deletionTimestamp) {
      // Already terminating: a shorter grace period may cut it short.
      const cur = old.metadata.deletionGracePeriodSeconds ?? 0;
      if (opts.dryRun) return { ok: true, object: old };
      if (isPod && opts.gracePeriodSeconds !== undefined && opts.gracePeriodSeconds < cur)
        return this.setGrace(old, opts.gracePeriodSeconds, source, opts.reason);
      return { ok: true, object: old };
    }
    const hasFinalizers = (old.metadata.finalizers ?? []).length > 0;
    if (!hasFinalizers && grace <= 0) {
      if (opts.dryRun) return { ok: true, object: old, removed: true };
      this.remove(old, source, opts.reason);
      return { ok: true, removed: true };
    }
    const meta = {
      ...old.metadata,
      deletionTimestamp: this.opts.at(this.opts.nowMs() + grace * 1000),
      deletionGracePeriodSeconds: grace,
      resourceVersion: opts.dryRun ? old.metadata.resourceVersion : String(++this.rv),
    };
    if (opts.dryRun) return { ok: true, object: { ...old, metadata: meta } };
    const stored = this.commit({ ...old, metadata: meta });
    this.notify({ type: 'modified', key, old, object: stored, source, verb: 'delete', reason: opts.reason });
    return { ok: true, object: stored };
  }

  /** The kubelet's final delete of a terminated pod (grace period 0): removed once no finalizers remain. */
  finishPodTermination(key: string, source: string): WriteResult {
    const old = this.objects.get(key);
    if (!old) return { ok: true, removed: true };
    if (!old.metadata.deletionTimestamp) return { ok: true, object: old };
    return this.setGrace(old, 0, source);
  }

  private setGrace(old: KubeObject, grace: number, source: string, reason?: string): WriteResult {
    if ((old.metadata.finalizers ?? []).length === 0 && grace <= 0) {
      this.remove(old, source, reason);
      return { ok: true, removed: true };
    }
    const meta = { ...old.metadata, deletionGracePeriodSeconds: grace, resourceVersion: String(++this.rv) };
    if (grace <= 0) meta.deletionTimestamp = this.opts.now();
    const stored = this.commit({ ...old, metadata: meta });
    this.notify({
      type: 'modified',
      key: objectKey(stored),
      old,
      object: stored,
      source,
      verb: 'delete',
      reason,
    });
    return { ok: true, object: stored };
  }

  protected removable(obj: KubeObject): boolean {
    if (obj.kind !== 'Pod') return true;
    return !specNodeName(obj) || (obj.metadata.deletionGracePeriodSeconds ?? 0) <= 0;
  }

  protected remove(obj: KubeObject, source: string, reason?: string, old?: KubeObject): void {
    const pending: { obj: KubeObject; source: string; reason?: string; old?: KubeObject }[] = [
      { obj, source, reason, old },
    ];
    while (pending.length > 0) {
      const cur = pending.shift()!;
      const key = objectKey(cur.obj);
      const stored = this.objects.get(key);
      if (!stored) continue;
      this.uncommit(stored);
      // A deletion gets its own resourceVersion (as in kube-apiserver), so a watch resumed from
      // any earlier version replays the DELETED event.
      const gone = { ...cur.obj, metadata: { ...cur.obj.metadata, resourceVersion: String(++this.rv) } };
      this.notify({
        type: 'deleted',
        key,
        old: cur.old ?? stored,
        object: gone,
        source: cur.source,
        verb: 'delete',
        reason: cur.reason,
      });
      // Garbage collection (background): dependents lose the owner reference, and
      // those left without any existing owner are deleted.
      const uid = stored.metadata.uid;
      if (!uid) continue;
      for (const dep of this.listOwnedBy(uid)) {
        const refs = dep.metadata.ownerReferences ?? [];
        const alive = refs.filter((r) => r.uid !== uid && this.byUid.has(r.uid));
        if (alive.length > 0) {
          this.replace(
            dep,
            { ...dep, metadata: { ...dep.metadata, ownerReferences: refs.filter((r) => r.uid !== uid) } },
            'garbage-collector',
            'patch',
            'OwnerGone',
            false,
          );
        } else {
          const r = this.delete(
            {
              apiVersion: dep.apiVersion,
              kind: dep.kind,
              namespace: dep.metadata.namespace,
              name: dep.metadata.name ?? '',
            },
            'garbage-collector',
            { reason: 'GarbageCollected' },
          );
          void r;
        }
      }
    }
  }
}
