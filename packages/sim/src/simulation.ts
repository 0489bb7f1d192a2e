// The simulation: a discrete-event loop over a virtual clock. Each step takes
// the events due at the next time (kubelet transitions, node timers, scheduled
// failures, controller requeues), then settles the cluster at that time: the
// kubelet syncs touched pods, the scheduler binds pending pods, and the
// controller work queue is drained (each reconcile: input from the store →
// pure reconcile → actions through admission + store → affected keys
// enqueued). Then invariants are checked and the timeline sampled. Same
// scenario and seed, same event log, byte for byte. The cluster model (store, clock, event
// queue, kubelet, scheduler, node lifecycle) is a @kruise-ts/cluster Cluster; this file adds the
// controllers, scheduled failures, invariants and the timeline around it.
import type { KubeObject } from '@kruise-ts/api';
import {
  AdmissionChain,
  type Change,
  Cluster,
  type ClusterPayload,
  displayName,
  type EventLog,
  type EventQueue,
  type KubeEventRecord,
  type Kubelet,
  type NodeLifecycle,
  objectKey,
  type Scheduler,
  type SimContext,
  type SimEvent,
  type Store,
  type VirtualClock,
  type WriteResult,
} from '@kruise-ts/cluster';
import type { Action, FeatureGates, Rng } from '@kruise-ts/core';
import { AvailabilityMemo } from './availabilityMemo';
import { ControllerLoop } from './controllerLoop';
import { type ControllerRegistry, createDefaultRegistry } from './controllers';
import { injectFailure, type ScheduledFailure } from './failures';
import { InvariantChecker, type InvariantReport, type Violation } from './invariants';
import { defaultNodes, type SimStats, type SimulationOptions } from './options';
import { countPodChange } from './podCounters';
import { Timeline } from './report/timeline';

export type { ScheduledFailure } from './failures';
export { defaultNodes, type SimStats, type SimulationOptions } from './options';

/** Everything on a simulation's event queue: the cluster model's events and the simulator's own. */
export type SimPayload =
  | ClusterPayload
  | { type: 'requeue'; key: string }
  | { type: 'failure'; index: number };

/** A running simulation. */
export class Simulation {
  readonly clock: VirtualClock;
  readonly store: Store;
  readonly log: EventLog;
  /** Availability answers shared by the timeline and the invariant checker (availabilityMemo.ts). */
  private readonly availability = new AvailabilityMemo();
  readonly timeline = new Timeline(this.availability);
  readonly stats: SimStats = {
    reconciles: 0,
    podsCreated: 0,
    podsDeleted: 0,
    podsUpdatedInPlace: 0,
    actionsFailed: 0,
    steps: 0,
  };
  readonly registry: ControllerRegistry;
  readonly admission: AdmissionChain;
  readonly kubelet: Kubelet;
  readonly scheduler: Scheduler;
  readonly nodeLifecycle: NodeLifecycle;
  readonly invariants: InvariantChecker;
  /** The cluster model the controllers run against. */
  readonly cluster: Cluster<SimPayload>;
  private readonly queue: EventQueue<SimPayload>;
  private readonly rng: Rng;
  private readonly ctx: SimContext;
  private readonly resolution: number;
  /** The feature gates the simulated kruise runs with (scenario `cluster.featureGates`). */
  readonly featureGates: Partial<FeatureGates>;
  private readonly failures: ScheduledFailure[];
  private requeueAt = new Map<string, number>();
  private readonly loop: ControllerLoop;
  private timelineDirty = true;
  private lastCheckedMs = -1;
  private settleListeners: ((sim: Simulation) => void)[] = [];
  private kubeEventListeners: ((e: KubeEventRecord) => void)[] = [];
  /** The deadline a `runToward` paused at while settling there (the clock is at it already). */
  private pausedAtDeadline?: number;

  constructor(opts: SimulationOptions = {}) {
    this.featureGates = opts.featureGates ?? {};
    this.failures = [...(opts.failures ?? [])];
    this.registry = opts.registry?.clone() ?? createDefaultRegistry();
    this.admission = this.registry.installAdmission(opts.admission?.clone() ?? new AdmissionChain());
    this.cluster = new Cluster<SimPayload>({
      seed: opts.seed,
      startTime: opts.startTime,
      timings: opts.timings,
      admission: this.admission,
      featureGates: this.featureGates,
      resolutionMs: opts.resolutionMs,
      logLevel: opts.logLevel,
      eventLogCapacity: opts.eventLogCapacity,
      freezeObjects: opts.freezeObjects,
    });
    this.clock = this.cluster.clock;
    this.rng = this.cluster.rng;
    this.store = this.cluster.store;
    this.log = this.cluster.log;
    this.queue = this.cluster.queue;
    this.ctx = this.cluster.ctx;
    this.kubelet = this.cluster.kubelet;
    this.scheduler = this.cluster.scheduler;
    this.nodeLifecycle = this.cluster.nodeLifecycle;
    this.resolution = this.cluster.resolutionMs;
    const inv = (opts.invariants ?? []).map((i) => (typeof i === 'string' ? { name: i } : i));
    this.invariants = new InvariantChecker(this.ctx, inv, (v) => this.onViolation(v), this.availability);
    this.loop = new ControllerLoop({
      store: this.store,
      clock: this.clock,
      rng: this.rng,
      registry: this.registry,
      featureGates: this.featureGates,
      stats: this.stats,
      maxPerStep: opts.maxReconcilesPerStep ?? 50,
      record: (e) => this.record(e),
      scheduleRequeue: (key, delayMs) => this.requeue(key, delayMs),
      applyAction: (a, source) => this.applyAction(a, source),
    });
    this.store.watch((c) => this.onChange(c));
    this.cluster.addNodes(opts.nodes ?? defaultNodes());
    this.failures.forEach((f, index) => {
      this.cluster.scheduleAt(f.atMs, { type: 'failure', index });
    });
  }

  // ---------------------------------------------------------------- reading

  /** The event log records. */
  get events(): SimEvent[] {
    return this.cluster.events;
  }

  /** Simulated ms since the start. */
  get nowMs(): number {
    return this.cluster.nowMs;
  }

  /** An object by kind and name (namespace `default` unless given). */
  get<T extends KubeObject = KubeObject>(
    kind: string,
    name: string,
    namespace?: string,
    apiVersion?: string,
  ): T | undefined {
    return this.cluster.get<T>(kind, name, namespace, apiVersion);
  }

  /** Objects of a kind, sorted by namespace and name. */
  list<T extends KubeObject = KubeObject>(kind: string, namespace?: string, apiVersion?: string): T[] {
    return this.cluster.list<T>(kind, namespace, apiVersion);
  }

  /** Invariant results so far. */
  invariantResults(): InvariantReport[] {
    return this.invariants.results();
  }

  // ---------------------------------------------------------------- writing

  /**
   * Applies a manifest as `kubectl apply` would: creates it, or replaces its
   * labels, annotations and spec (status and server fields kept). Admission
   * runs; a rejected object returns the 422 result.
   */
  apply(obj: KubeObject, source = 'user'): WriteResult {
    const key = objectKey(obj);
    const existing = this.store.getByKey(key);
    let res: WriteResult;
    if (!existing) res = this.store.create(obj, source, 'Apply');
    else {
      const { status: _ignored, ...rest } = obj;
      const next: KubeObject = {
        ...existing,
        ...rest,
        metadata: {
          ...existing.metadata,
          labels: obj.metadata.labels,
          annotations: obj.metadata.annotations,
          resourceVersion: existing.metadata.resourceVersion,
        },
      };
      if (obj.metadata.finalizers) next.metadata.finalizers = obj.metadata.finalizers;
      res = this.store.update(next, source, 'Apply');
    }
    const label = res.ok && res.object ? displayName(res.object) : displayName(obj);
    if (res.ok)
      this.record({
        type: 'Apply',
        object: label,
        source,
        detail: { result: existing ? 'configured' : 'created' },
      });
    else
      this.record({
        type: 'Rejected',
        object: label,
        source,
        detail: { code: res.code, message: res.message },
      });
    this.settle();
    return res;
  }

  /** Applies one action (e.g. a patch or delete) as `source`, then settles. */
  act(action: Action, source = 'user'): WriteResult {
    const res = this.applyAction(action, source);
    this.settle();
    return res;
  }

  /** Deletes a pod (as a user would: graceful). */
  deletePod(name: string, namespace = 'default', source = 'user'): WriteResult {
    return this.act(
      { verb: 'delete', target: { apiVersion: 'v1', kind: 'Pod', namespace, name }, reason: 'DeletePod' },
      source,
    );
  }

  /** Fails a node now. */
  failNode(name: string): void {
    this.nodeLifecycle.fail(name);
    this.settle();
  }

  /** Recovers a failed node now. */
  recoverNode(name: string): void {
    this.nodeLifecycle.recover(name);
    this.scheduler.bump();
    this.settle();
  }

  /** Crashes a pod's container (default: the first) now. */
  crashPod(name: string, namespace = 'default', container?: string): boolean {
    const pod = this.store.get('v1', 'Pod', namespace, name);
    const rt = pod?.metadata.uid ? this.kubelet.runtime(pod.metadata.uid) : undefined;
    const c = rt?.containers.find((x) => container === undefined || x.name === container);
    if (!rt || !c || c.state !== 'running') return false;
    this.kubelet.crash(rt.rt, c, 'ScheduledCrash');
    this.settle();
    return true;
  }

  /** Makes a pod's container fail readiness for `ms` now. */
  failReadiness(name: string, ms: number, namespace = 'default', container?: string): boolean {
    const pod = this.store.get('v1', 'Pod', namespace, name);
    const rt = pod?.metadata.uid ? this.kubelet.runtime(pod.metadata.uid) : undefined;
    const c = rt?.containers.find((x) => container === undefined || x.name === container);
    if (!rt || !c || c.state !== 'running') return false;
    this.kubelet.failReadiness(rt.rt, c, ms);
    this.settle();
    return true;
  }

  /** Picks `n` distinct items from `pool` at random (seeded). */
  pick<T>(pool: readonly T[], n: number): T[] {
    const rest = [...pool];
    const out: T[] = [];
    for (let i = 0; i < n && rest.length > 0; i++) out.push(rest.splice(this.rng.int(rest.length), 1)[0]);
    return out;
  }

  /** Calls `listener` every time the simulation has settled (after each step and each write). */
  onSettle(listener: (sim: Simulation) => void): () => void {
    this.settleListeners.push(listener);
    return () => {
      this.settleListeners = this.settleListeners.filter((l) => l !== listener);
    };
  }

  /**
   * Calls `listener` with every Kubernetes event the scheduler, kubelet and node lifecycle models
   * raise (kubeEvents.ts: `Scheduled`, `Pulling`, `Started`, `BackOff`, …). They are not in the
   * event log; with no listener the models do not build them.
   */
  onKubeEvent(listener: (e: KubeEventRecord) => void): () => void {
    this.kubeEventListeners.push(listener);
    this.ctx.kubeEvent = (e) => {
      const record: KubeEventRecord = { ...e, time: this.clock.now() };
      for (const l of this.kubeEventListeners) l(record);
    };
    return () => {
      this.kubeEventListeners = this.kubeEventListeners.filter((l) => l !== listener);
      if (this.kubeEventListeners.length === 0) this.ctx.kubeEvent = undefined;
    };
  }

  // ---------------------------------------------------------------- running

  /**
   * Processes the events due at the next scheduled time (advancing the clock
   * to it) and settles. Returns false when nothing is scheduled.
   */
  step(): boolean {
    this.settle();
    if (!this.takeNextEvents()) return false;
    this.settle();
    return true;
  }

  /** The first half of a step: the clock to the next scheduled time, its events handled. */
  private takeNextEvents(): boolean {
    const first = this.queue.peek();
    if (!first) return false;
    this.clock.advanceTo(first.time);
    this.loop.newStep();
    while (this.queue.peek()?.time === first.time) this.handle(this.queue.pop()!.payload);
    this.stats.steps++;
    return true;
  }

  /**
   * Runs until `target` holds (a predicate) or the clock reaches it (a time in
   * ms since the start). A predicate run stops at `timeoutMs` (an absolute time
   * in ms since the start; default: 24 h of simulated time from now) or when
   * nothing more is scheduled. Returns true when the target was reached.
   */
  runUntil(target: ((sim: Simulation) => boolean) | number, opts: { timeoutMs?: number } = {}): boolean {
    const deadline =
      typeof target === 'number' ? target : (opts.timeoutMs ?? this.clock.elapsedMs + 86_400_000);
    const done = typeof target === 'number' ? () => false : () => target(this);
    const end = this.runSteps(deadline, done, () => false);
    return typeof target === 'number' || end === 'target' || done();
  }

  /**
   * Runs toward `ms` (a time in ms since the start) as `runUntil(ms)` does, but asks `pause()`
   * between two pieces of work — a kubelet sync, a scheduler run, one reconcile — and, when it
   * answers true, returns false with the rest of the work still due; calling again goes on from
   * there. Returns true once the clock reads `ms` and the cluster has settled. A shell running
   * in real time passes a wall-clock budget, so one call holds its event loop for about one
   * reconcile at most, however much work is due (the simulation itself reads no wall clock).
   *
   * Example: `while (!sim.runToward(60_000, () => Date.now() > t0 + 20)) await yieldToEventLoop()`.
   */
  runToward(ms: number, pause: () => boolean): boolean {
    return this.runSteps(ms, () => false, pause) !== 'paused';
  }

  /** The step loop of runUntil and runToward: until `done`, the deadline, or a pause. */
  private runSteps(
    deadline: number,
    done: () => boolean,
    pause: () => boolean,
  ): 'target' | 'deadline' | 'paused' {
    if (!this.settle(pause)) return 'paused';
    for (;;) {
      if (done()) return 'target';
      const next = this.queue.peek();
      if (!next || next.time > deadline) {
        if (Number.isFinite(deadline)) {
          // Resuming a settle at this deadline: the step began in the call that paused.
          if (this.pausedAtDeadline !== deadline || this.clock.elapsedMs !== deadline) {
            this.clock.advanceTo(deadline);
            this.loop.newStep();
          }
          this.pausedAtDeadline = deadline;
          if (!this.settle(pause)) return 'paused';
          this.pausedAtDeadline = undefined;
        }
        return 'deadline';
      }
      this.takeNextEvents();
      if (!this.settle(pause) || pause()) return 'paused';
    }
  }

  /** Lets `ms` of simulated time pass. */
  advance(ms: number): void {
    this.runUntil(this.clock.elapsedMs + ms);
  }

  // ---------------------------------------------------------------- internals

  /** Appends a record to the event log at the current time. */
  record(e: Omit<SimEvent, 't' | 'time'>): void {
    this.cluster.record(e);
  }

  private onViolation(v: Violation): void {
    this.record({
      type: 'InvariantViolation',
      object: v.object,
      source: 'invariants',
      detail: { invariant: v.invariant, message: v.message, pods: v.pods },
    });
  }

  private handle(p: SimPayload): void {
    switch (p.type) {
      case 'requeue':
        if (this.requeueAt.get(p.key) === this.clock.elapsedMs) this.requeueAt.delete(p.key);
        this.loop.enqueue(p.key);
        return;
      case 'failure':
        injectFailure(this.failures[p.index], {
          store: this.store,
          kubelet: this.kubelet,
          nodeLifecycle: this.nodeLifecycle,
          scheduler: this.scheduler,
          pick: (pool, n) => this.pick(pool, n),
          record: (e) => this.record(e),
          defaultReadinessFailureMs: this.ctx.timings.readinessFailureMs,
        });
        return;
      default:
        this.cluster.handle(p);
    }
  }

  /**
   * Runs kubelet, scheduler and controllers until nothing is left to do at this time. With
   * `pause`, asks it after each piece of work and returns false when it answers true: the rest
   * stays due for the next settle, and the checks, samples and listeners wait for a settled
   * cluster. Returns true when settled.
   */
  private settle(pause?: () => boolean): boolean {
    for (let round = 0; round < 10_000; round++) {
      if (!this.cluster.workOne()) {
        // One reconcile at a time, so the kubelet and scheduler react to its actions before the next one.
        if (this.loop.pending) this.loop.drainOne();
        else break;
      }
      if (pause?.()) return false;
    }
    // Checks, samples and listeners only when something changed or time moved since the last settle.
    if (!this.timelineDirty && this.lastCheckedMs === this.clock.elapsedMs) return true;
    this.lastCheckedMs = this.clock.elapsedMs;
    this.invariants.check();
    if (this.timelineDirty) {
      this.timeline.sample(
        this.store,
        this.clock.elapsedMs / 1000,
        this.clock.startEpochMs + this.clock.elapsedMs,
      );
      this.timelineDirty = false;
    }
    for (const l of this.settleListeners) l(this);
    return true;
  }

  /** Schedules a reconcile of `key` (keeps only the earliest pending one). */
  private requeue(key: string, delayMs: number): void {
    const at = Math.ceil((this.clock.elapsedMs + delayMs) / this.resolution) * this.resolution;
    const cur = this.requeueAt.get(key);
    if (cur !== undefined && cur <= at && cur >= this.clock.elapsedMs) return;
    this.requeueAt.set(key, at);
    this.queue.push(at, { type: 'requeue', key });
  }

  private applyAction(a: Action, source: string): WriteResult {
    const res = this.cluster.write(a, source);
    if (!res.ok) this.stats.actionsFailed++;
    return res;
  }

  /**
   * Reacts to every store write: enqueue controllers, count pods, track invariants (the cluster
   * wakes its kubelet and scheduler itself).
   */
  private onChange(c: Change): void {
    this.timelineDirty = true;
    this.timeline.onChange(c);
    this.invariants.onChange(c);
    if (c.object.kind === 'Pod') countPodChange(c, this.stats);
    this.loop.onChange(c);
  }
}
