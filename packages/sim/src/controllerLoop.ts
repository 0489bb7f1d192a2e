// The controller loop: a coalescing work queue of object keys; each reconcile
// builds its input from the store through the registered controller, applies
// the returned actions (through admission and the store), keeps the returned
// controllerState, and schedules `requeueAfterSeconds`. Change notifications
// enqueue the changed object's own controller and its controller owners. A
// reconcile that stopped at its burst (`requeueAfterSeconds: 0`) runs again at
// the next step, not in this one.
import { createStructureCache, type KubeObject } from '@kruise-ts/api';
import {
  type Change,
  displayName,
  keyOf,
  objectKey,
  type SimEvent,
  type Store,
  type VirtualClock,
  type WriteResult,
} from '@kruise-ts/cluster';
import { type Action, type FeatureGates, formatFieldError, REQUEUE_NOW, type Rng } from '@kruise-ts/core';
import type { ControllerRegistration, ControllerRegistry } from './controllers';
import { WorkQueue } from './workqueue';

/** What the loop needs from the simulation. */
export interface LoopDeps {
  store: Store;
  clock: VirtualClock;
  rng: Rng;
  registry: ControllerRegistry;
  featureGates: Partial<FeatureGates>;
  /** Counters; the loop adds its reconciles. */
  stats: { reconciles: number };
  /** A key reconciled more often than this in one step is deferred. */
  maxPerStep: number;
  record(e: Omit<SimEvent, 't' | 'time'>): void;
  /** Schedules a requeue of `key` `delayMs` from now; returns nothing. */
  scheduleRequeue(key: string, delayMs: number): void;
  /** Applies one action as `source` (and logs it). */
  applyAction(a: Action, source: string): WriteResult;
}

/** The controller loop. */
export class ControllerLoop {
  private readonly work = new WorkQueue();
  private readonly lastErrors = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  /**
   * Keys whose reconcile stopped at its burst in this step. A real controller's next sync waits
   * until its informer has seen the burst it created (expectations); here the store sees it at
   * once, so without this the changes of its own 500 pods would run it again and again in the
   * same step — 50 bursts, 25,000 pods, per step for a CloneSet of 2,147,483,647 replicas. With
   * it, a key creates at most one burst per step.
   */
  private readonly burstDone = new Set<string>();
  /** Owner uid → its store key. */
  private readonly ownerKeys = new Map<string, string>();
  private readonly watchers: ControllerRegistration[];
  /** The reconcile of each registration for this simulation (`makeReconcile`, made on first use). */
  private readonly reconcilers = new Map<ControllerRegistration, ControllerRegistration['reconcile']>();
  /** The observed objects that passed the reconcile entries' structural check (core.md §10.1). */
  private readonly structureCache = createStructureCache();

  constructor(private readonly d: LoopDeps) {
    this.watchers = d.registry.all().filter((r) => r.watches !== undefined);
  }

  /** True when a key waits. */
  get pending(): boolean {
    return this.work.length > 0;
  }

  /** Enqueues a key (a requeue came due). */
  enqueue(key: string): void {
    if (this.d.store.getByKey(key)) this.work.add(key);
  }

  /** A new step began: the per-step reconcile counts restart. */
  newStep(): void {
    this.counts.clear();
    this.burstDone.clear();
  }

  /** Enqueues the controllers a change concerns. */
  onChange(c: Change): void {
    const obj = c.object;
    const reg = this.d.registry;
    // The object's own controller (not for its own status writes).
    const own = reg.forKind(obj.apiVersion, obj.kind);
    if (
      own &&
      c.type !== 'deleted' &&
      !(c.verb === 'updateStatus' && c.source === `controller:${own.name ?? own.kind}`)
    )
      this.work.add(c.key);
    if (c.type === 'deleted') {
      if (obj.metadata.uid) this.ownerKeys.delete(obj.metadata.uid);
      this.d.store.setControllerState(c.key, undefined);
      this.lastErrors.delete(c.key);
    }
    // Owners with a registered controller.
    for (const ref of obj.metadata.ownerReferences ?? []) {
      if (!reg.forKind(ref.apiVersion, ref.kind)) continue;
      // An owner's key never changes for its uid: built once, not on each of its pods' writes.
      let key = this.ownerKeys.get(ref.uid);
      if (key === undefined) {
        key = keyOf(ref.apiVersion, ref.kind, obj.metadata.namespace, ref.name);
        if (ref.uid) this.ownerKeys.set(ref.uid, key);
      }
      this.work.add(key);
    }
    for (let i = 0; i < this.watchers.length; i++) {
      const watched = this.watchers[i].watches?.(c, this.d.store);
      if (watched) for (let k = 0; k < watched.length; k++) this.work.add(objectKey(watched[k]));
    }
  }

  /** Runs one reconcile (the next key). */
  drainOne(): void {
    const key = this.work.next();
    if (key === undefined) return;
    // its reconcile at the next step is scheduled already
    if (this.burstDone.has(key)) return;
    const obj = this.d.store.getByKey(key);
    if (!obj) return;
    const reg = this.d.registry.forKind(obj.apiVersion, obj.kind);
    if (!reg) return;
    const name = reg.name ?? reg.kind;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n > this.d.maxPerStep) {
      if (n === this.d.maxPerStep + 1)
        this.d.record({
          type: 'ReconcileLoop',
          object: displayName(obj),
          source: `controller:${name}`,
          detail: { reconciles: this.d.maxPerStep },
        });
      this.d.scheduleRequeue(key, 1);
      return;
    }
    this.reconcile(key, obj, name, reg);
  }

  private reconcile(key: string, obj: KubeObject, name: string, reg: ControllerRegistration): void {
    const { store, clock } = this.d;
    const source = `controller:${name}`;
    this.d.stats.reconciles++;
    let result: ReturnType<ControllerRegistration['reconcile']>;
    try {
      let reconcile = this.reconcilers.get(reg);
      if (reconcile === undefined) {
        reconcile = reg.makeReconcile?.() ?? reg.reconcile;
        this.reconcilers.set(reg, reconcile);
      }
      result = reconcile(store, obj, clock.now(), store.getControllerState(key), {
        featureGates: this.d.featureGates,
        seed: this.d.rng.int(2 ** 31),
        structureCache: this.structureCache,
      });
    } catch (e) {
      this.d.record({
        type: 'ReconcileError',
        object: displayName(obj),
        source,
        detail: { message: e instanceof Error ? e.message : String(e) },
      });
      this.d.scheduleRequeue(key, 5000);
      return;
    }
    if ('controllerState' in result) store.setControllerState(key, result.controllerState);
    const errs = (result.errors ?? []).map(formatFieldError).join('; ');
    if (errs !== (this.lastErrors.get(key) ?? '')) {
      if (errs)
        this.d.record({
          type: 'ReconcileError',
          object: displayName(obj),
          source,
          detail: { message: errs },
        });
      this.lastErrors.set(key, errs);
    }
    for (const a of result.actions) this.d.applyAction(a, source);
    if (result.requeueAfterSeconds === REQUEUE_NOW) {
      this.burstDone.add(key);
      this.d.scheduleRequeue(key, 1);
    } else if (result.requeueAfterSeconds !== undefined && result.requeueAfterSeconds > 0)
      this.d.scheduleRequeue(key, result.requeueAfterSeconds * 1000);
  }
}
