// Drives one controller: informer events → work-queue keys; each key → gate on expectations
// (E4.10) → the pure reconcile on the cached objects → the executor → requeue policy (O3.3:
// error or 409 → rate-limited; result requeueAfterSeconds → delayed; success → forget). The
// controllerState a reconcile returns is kept per key and passed back (docs/architecture.md).
import { createStructureCache, type KubeObject } from '@kruise-ts/api';
import type { InformerCache } from './cache';
import type { CacheReader, ControllerEnv, OperatorController } from './controllers/index';
import { type ExecuteResult, executeActions } from './executor';
import { Expectations } from './expectations';
import type { KubeClient } from './kube/client';
import { keyFor } from './kube/resources';
import type { Logger } from './log';
import type { OperatorMetrics } from './metrics';
import { type RateLimiterOptions, WorkQueue } from './queue';

/** Settings of a runner. */
export interface RunnerOptions {
  workers: number;
  env: ControllerEnv;
  rateLimiter?: RateLimiterOptions;
  expectationTimeoutSeconds?: number;
  events?: boolean;
  concurrency?: number;
  now?: () => Date;
}

function splitKey(key: string): { namespace: string | undefined; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: undefined, name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** One controller's queue, workers, expectations and per-key controllerState. */
export class ControllerRunner {
  queue: WorkQueue;
  readonly expectations: Expectations;
  private states = new Map<string, unknown>();
  /** The controller's reconcile for this runner (with the cache it keeps, `makeReconcile`). */
  private readonly reconcile: OperatorController['reconcile'];
  private running: Promise<unknown> | undefined;
  private active = false;
  private seq = 0;
  /** Observed objects that passed the reconcile entries' structural check (core.md §10.1). */
  private readonly structureCache = createStructureCache();
  /** Totals (tests and the benchmark). */
  readonly stats = { reconciles: 0, gated: 0, conflicts: 0, errors: 0, writes: 0 };

  constructor(
    readonly controller: OperatorController,
    private readonly cache: InformerCache,
    private readonly client: KubeClient,
    private readonly log: Logger,
    private readonly metrics: OperatorMetrics,
    private readonly opts: RunnerOptions,
  ) {
    this.queue = new WorkQueue(opts.rateLimiter);
    this.expectations = new Expectations(opts.expectationTimeoutSeconds);
    this.reconcile = controller.makeReconcile?.() ?? ((...args) => controller.reconcile(...args));
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  /** Registers the informer handlers (call before the caches start). */
  wire(): void {
    const c = this.controller;
    const primary = this.cache.informer(c.primary);
    const enqueue = (o: KubeObject) =>
      this.active && this.queue.add(keyFor(o.metadata.namespace, o.metadata.name ?? ''));
    primary.on({
      add: (o) => {
        this.expectations.onEvent('add', o);
        enqueue(o);
      },
      update: (_old, o) => {
        this.expectations.onEvent('update', o);
        enqueue(o);
      },
      delete: (o) => {
        this.expectations.onEvent('delete', o);
        enqueue(o);
      },
    });
    for (const ref of c.secondary) {
      const inf = this.cache.informer(ref);
      const keys = (o: KubeObject) => (c.keysFor ? c.keysFor(o, this.cache) : defaultKeys(o, c));
      const fire = (type: 'add' | 'update' | 'delete', o: KubeObject, old?: KubeObject) => {
        this.expectations.onEvent(type, o);
        if (!this.active) return;
        const ks = new Set(keys(o));
        if (old) for (const k of keys(old)) ks.add(k); // an owner change notifies both owners
        for (const k of ks) this.queue.add(k);
      };
      inf.on({
        add: (o) => fire('add', o),
        update: (old, o) => fire('update', o, old),
        delete: (o) => fire('delete', o),
      });
    }
  }

  /** Starts the workers and enqueues every cached primary object (leader gained). */
  start(): void {
    if (this.active) return;
    this.active = true;
    if (this.running) this.queue = new WorkQueue(this.opts.rateLimiter); // restarted after a leader change
    for (const o of this.cache.list(this.controller.primary))
      this.queue.add(keyFor(o.metadata.namespace, o.metadata.name ?? ''));
    this.running = this.queue.run(this.opts.workers, (k) => this.process(k));
  }

  /** Stops the workers (leadership lost or shutdown); waits for in-flight reconciles. */
  async stop(): Promise<void> {
    this.active = false;
    this.queue.shutdown();
    await this.running;
  }

  /** One key: gate, reconcile, execute, requeue. */
  async process(key: string): Promise<void> {
    const c = this.controller;
    const started = Date.now();
    const { namespace, name } = splitKey(key);
    const obj = this.cache.get(c.primary, namespace, name);
    if (!obj) {
      // E4.10 step 1: the workload is gone
      this.expectations.forget(key);
      this.states.delete(key);
      this.queue.forget(key);
      return;
    }
    const now = this.now();
    const gate = this.expectations.gate(key, c.readSet(obj, this.cache as CacheReader), now);
    if (!gate.proceed) {
      this.stats.gated += 1;
      this.log.debug(
        { controller: c.name, key, pending: gate.pending.slice(0, 5) },
        'expectations unsatisfied; waiting',
      );
      this.metrics.reconciles.inc({ controller: c.name, result: 'gated' });
      this.queue.addAfter(key, gate.requeueAfterSeconds * 1000);
      return;
    }
    this.stats.reconciles += 1;
    let result: ExecuteResult;
    let requeueAfter: number | undefined;
    try {
      const env = {
        ...this.opts.env,
        seed: (this.opts.env.seed + this.seq++) >>> 0,
        structureCache: this.structureCache,
      };
      const r = this.reconcile(obj, this.cache, now, this.states.get(key), env);
      if (r.controllerState !== undefined) this.states.set(key, r.controllerState);
      if (r.errors.length > 0)
        this.log.warn({ controller: c.name, key, errors: r.errors }, 'invalid object; no destructive action');
      requeueAfter = r.requeueAfterSeconds;
      result = await executeActions(r.actions, {
        client: this.client,
        expectations: this.expectations,
        workloadKey: key,
        cached: (ref) => this.cache.get(ref, ref.namespace, ref.name),
        now: () => this.now(),
        events: this.opts.events,
        concurrency: this.opts.concurrency,
      });
    } catch (err) {
      result = {
        done: 0,
        writes: 0,
        conflict: false,
        error: err instanceof Error ? err : new Error(String(err)),
      };
    }
    this.stats.writes += result.writes;
    this.metrics.reconcileSeconds.observe({ controller: c.name }, (Date.now() - started) / 1000);
    if (result.error) {
      if (result.conflict) this.stats.conflicts += 1;
      else this.stats.errors += 1;
      this.metrics.reconciles.inc({ controller: c.name, result: result.conflict ? 'conflict' : 'error' });
      this.metrics.queueRetries.inc({ name: c.name });
      this.log.info(
        { controller: c.name, key, err: result.error.message },
        result.conflict ? 'conflict; requeue' : 'reconcile failed; requeue',
      );
      this.queue.addRateLimited(key);
      return;
    }
    this.metrics.reconciles.inc({ controller: c.name, result: 'success' });
    this.queue.forget(key);
    if (requeueAfter !== undefined && requeueAfter > 0) this.queue.addAfter(key, requeueAfter * 1000);
    this.metrics.queueDepth.set({ name: c.name }, this.queue.len());
  }
}

function defaultKeys(o: KubeObject, c: OperatorController): string[] {
  const group = c.primary.apiVersion.split('/')[0];
  const ref = o.metadata.ownerReferences?.find(
    (r) => r.controller && r.kind === c.primary.kind && r.apiVersion.split('/')[0] === group,
  );
  return ref ? [keyFor(o.metadata.namespace, ref.name)] : [];
}
