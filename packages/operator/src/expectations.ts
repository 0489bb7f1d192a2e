// The operator's expectations (docs/reference/operator.md §4.4, docs/reference/core.md §8): process-local memory of
// this controller's own writes, so a reconcile never runs on a cache that lags them. A thin
// mutable holder around core's pure helpers (scale expectations by object name, resourceVersion
// expectations by uid): E4.8 record before write / roll back on failure, E4.9 observe from the
// watch stream, E4.10 gate each reconcile, with the uniform timeout policy (drop, requeue 10 s).
import type { KubeObject } from '@kruise-ts/api';
import type { ObservedObject } from '@kruise-ts/core';
import {
  deleteResourceVersionExpectations,
  deleteScaleExpectations,
  EXPECTATION_TIMEOUT_SECONDS,
  expectResourceVersion,
  expectScale,
  observeResourceVersion,
  observeScale,
  type ResourceVersionExpectations,
  resourceVersionSatisfied,
  type ScaleAction,
  type ScaleExpectations,
  scaleExpectationsSatisfied,
} from '@kruise-ts/core/expectations';

/** The gate's answer for one workload. */
export interface GateResult {
  /** The reconcile may run. */
  proceed: boolean;
  /** When not proceeding: requeue after this many seconds. */
  requeueAfterSeconds: number;
  /** Why it waits (logs): pending names or uids. */
  pending: string[];
}

/** Requeue delay after a timed-out scale expectation is dropped (E4.10 step 2, ForceDelete policy). */
export const EXPIRED_REQUEUE_SECONDS = 10;

/** The object name used in scale expectations: `Kind/name` (pods and PVCs may share names). */
export function scaleName(kind: string, name: string): string {
  return `${kind}/${name}`;
}

/** Expectations of one controller (E4.12: never shared between controllers). */
export class Expectations {
  private scale: ScaleExpectations = {};
  private rv: ResourceVersionExpectations = {};
  /** `Kind/namespace/name` → workload key, for observing from any watch event. */
  private owners = new Map<string, string>();

  constructor(readonly timeoutSeconds = EXPECTATION_TIMEOUT_SECONDS) {}

  private objId(kind: string, namespace: string | undefined, name: string): string {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  /** E4.8: before a create/delete of `kind` `name` for workload `key`. */
  expect(
    key: string,
    action: ScaleAction,
    kind: string,
    namespace: string | undefined,
    name: string,
    now: Date,
  ): void {
    this.scale = expectScale(this.scale, key, action, scaleName(kind, name), now);
    this.owners.set(`${action}:${this.objId(kind, namespace, name)}`, key);
  }

  /** Marks a create/delete observed (or rolls it back after a failed request). */
  observe(action: ScaleAction, kind: string, namespace: string | undefined, name: string): void {
    const id = `${action}:${this.objId(kind, namespace, name)}`;
    const key = this.owners.get(id);
    if (key === undefined) return;
    this.owners.delete(id);
    this.scale = observeScale(this.scale, key, action, scaleName(kind, name));
  }

  /** E4.8: after a successful update/patch/status write, the response's resourceVersion. */
  expectVersion(uid: string | undefined, resourceVersion: string | undefined, now: Date): void {
    if (!uid || !resourceVersion) return;
    this.rv = expectResourceVersion(this.rv, uid, resourceVersion, now);
  }

  /**
   * E4.9: feed every watch event. ADDED (without deletionTimestamp) observes a create; DELETED,
   * or ADDED with a deletionTimestamp, observes a delete; DELETED also observes a pending create
   * of the same name (hardening) and drops the uid's resourceVersion record.
   */
  onEvent(type: 'add' | 'update' | 'delete', obj: KubeObject): void {
    const { kind } = obj;
    const { namespace, name = '', uid, resourceVersion } = obj.metadata;
    if (type === 'delete') {
      this.observe('delete', kind, namespace, name);
      this.observe('create', kind, namespace, name);
      if (uid) this.rv = deleteResourceVersionExpectations(this.rv, uid);
      return;
    }
    if (obj.metadata.deletionTimestamp) this.observe('delete', kind, namespace, name);
    this.observe('create', kind, namespace, name);
    if (uid && resourceVersion) this.rv = observeResourceVersion(this.rv, uid, resourceVersion);
  }

  /** E4.10 step 1: the workload is gone; forget everything recorded for it. */
  forget(key: string, uid?: string): void {
    this.scale = deleteScaleExpectations(this.scale, key);
    for (const [id, k] of this.owners) if (k === key) this.owners.delete(id);
    if (uid) this.rv = deleteResourceVersionExpectations(this.rv, uid);
  }

  /**
   * E4.10 steps 2–3: may workload `key` be reconciled from a cache showing `cached` (the workload
   * and the objects it reads)? Pending creates/deletes wait up to the timeout, then are dropped and
   * the key requeued after 10 s; each cached object with a resourceVersion record must show at
   * least that version (numeric compare, equal is enough), else wait; past the timeout the record
   * is cleared. Example: the controller patched pod p1 and got resourceVersion "42"; the cache
   * still shows "41" → { proceed: false, requeueAfterSeconds: 300 } until the watch delivers "42".
   */
  gate(key: string, cached: readonly ObservedObject[], now: Date): GateResult {
    const s = scaleExpectationsSatisfied(this.scale, key, now, this.timeoutSeconds);
    if (!s.satisfied) {
      const pending = [
        ...s.pending.create.map((n) => `create ${n}`),
        ...s.pending.delete.map((n) => `delete ${n}`),
      ];
      if (s.expired) {
        this.forget(key);
        return { proceed: false, requeueAfterSeconds: EXPIRED_REQUEUE_SECONDS, pending };
      }
      return { proceed: false, requeueAfterSeconds: s.waitSeconds, pending };
    }
    let wait = 0;
    const pending: string[] = [];
    for (const o of cached) {
      const uid = o.metadata?.uid;
      if (!uid || !Object.hasOwn(this.rv, uid)) continue;
      const c = resourceVersionSatisfied(
        this.rv,
        uid,
        o.metadata?.resourceVersion ?? '',
        now,
        this.timeoutSeconds,
      );
      if (c.satisfied || c.expired) this.rv = deleteResourceVersionExpectations(this.rv, uid);
      else {
        pending.push(`${o.kind}/${o.metadata?.name}@${this.rv[uid].resourceVersion}`);
        wait = Math.max(wait, c.waitSeconds);
      }
    }
    return pending.length > 0
      ? { proceed: false, requeueAfterSeconds: wait, pending }
      : { proceed: true, requeueAfterSeconds: 0, pending };
  }

  /** Number of pending records (metrics/tests). */
  size(): { scale: number; resourceVersions: number } {
    return { scale: Object.keys(this.scale).length, resourceVersions: Object.keys(this.rv).length };
  }
}
