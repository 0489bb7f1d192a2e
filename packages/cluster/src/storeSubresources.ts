// The store's subresource writes: `status` (no admission, no generation bump; the kubelet's
// write by store key) and the pod `binding` the scheduler posts (nodeName and PodScheduled=True
// in one write, as the API server does for a Binding).
import type { KubeObject } from '@kruise-ts/api';
import { extend, jsonEqual, type ObjectRef } from '@kruise-ts/core';
import { refKey } from './keys';
import { specNodeName } from './storeIndex';
import { conflict, notFound, type WriteResult } from './storeResults';
import { StoreWrites } from './storeWrites';

/** Status and binding writes on top of {@link StoreWrites}; deletion is in `Store` (store.ts). */
export abstract class StoreSubresources extends StoreWrites {
  /**
   * Writes the status subresource (no admission, no generation bump). `assumeChanged`
   * skips the equality check when the caller already compared (the kubelet does).
   */
  updateStatus(
    target: ObjectRef,
    status: unknown,
    source: string,
    reason?: string,
    assumeChanged = false,
  ): WriteResult {
    const key = refKey(target);
    const old = this.objects.get(key);
    if (!old) return notFound(target.kind, target.name);
    if (target.uid && old.metadata.uid !== target.uid) return conflict(target.kind, target.name, 'uid');
    if (!assumeChanged && jsonEqual(status, old.status)) return { ok: true, object: old };
    return this.storeStatus(key, old, status, source, reason);
  }

  /**
   * The kubelet's status write: like {@link updateStatus} with `assumeChanged`, for the object
   * stored at `key` that the caller has just read (`expected`); no reference to resolve. When the
   * stored object is no longer `expected` the write goes through {@link updateStatus}.
   */
  updateStatusAt(
    key: string,
    expected: KubeObject,
    status: unknown,
    source: string,
    reason?: string,
  ): WriteResult {
    const old = this.objects.get(key);
    if (old !== expected || old === undefined)
      return this.updateStatus(
        {
          apiVersion: expected.apiVersion,
          kind: expected.kind,
          namespace: expected.metadata.namespace,
          name: expected.metadata.name ?? '',
        },
        status,
        source,
        reason,
        true,
      );
    return this.storeStatus(key, old, status, source, reason);
  }

  /** Stores `old` with a new status and resourceVersion, and notifies. */
  private storeStatus(
    key: string,
    old: KubeObject,
    status: unknown,
    source: string,
    reason: string | undefined,
  ): WriteResult {
    const metadata = extend(old.metadata, { resourceVersion: String(++this.rv) });
    const out: KubeObject = extend(old, { metadata, status });
    const stored = this.commit(out, old, key);
    this.notify({ type: 'modified', key, old, object: stored, source, verb: 'updateStatus', reason });
    return { ok: true, object: stored };
  }

  /**
   * The binding subresource: sets a pending pod's `spec.nodeName` and its
   * `PodScheduled=True` condition in one write (as the API server does for a Binding).
   */
  bind(podKey: string, nodeName: string, source: string): WriteResult {
    const old = this.objects.get(podKey);
    if (old?.kind !== 'Pod') return notFound('Pod', podKey.split('/').pop() ?? '');
    const boundTo = specNodeName(old);
    if (boundTo)
      return {
        ok: false,
        code: 409,
        reason: 'Conflict',
        message: `pod ${old.metadata.name} is already assigned to node "${boundTo}"`,
      };
    const status = isObject(old.status) ? old.status : {};
    const given = 'conditions' in status && Array.isArray(status.conditions) ? status.conditions : [];
    const conditions: unknown[] = [
      ...given.filter((c: unknown) => !(isObject(c) && 'type' in c && c.type === 'PodScheduled')),
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: this.opts.now() },
    ];
    const out: KubeObject = extend(old, {
      metadata: extend(old.metadata, { resourceVersion: String(++this.rv) }),
      spec: extend(isObject(old.spec) ? old.spec : undefined, { nodeName }),
      status: extend(status, { conditions }),
    });
    const stored = this.commit(out, old, podKey);
    this.notify({
      type: 'modified',
      key: podKey,
      old,
      object: stored,
      source,
      verb: 'bind',
      reason: 'Scheduled',
    });
    return { ok: true, object: stored };
  }
}

/** True for a JSON object (not null); its fields are then read with `in` and a type check. */
function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}
