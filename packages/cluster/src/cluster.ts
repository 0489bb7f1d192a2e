// The cluster model wired together once: a virtual clock, a seeded random source, the object
// store (with its admission chain), the event queue and the models that act on their own — the
// kubelet, the scheduler and the node lifecycle — sharing one context and one event log. The
// simulator builds its Simulation on a Cluster and adds controllers, invariants and the timeline;
// a controller's test builds one directly and drives it step by step: `apply` its reconcile's
// actions, `advance` time, read the objects back.
//
// Time moves only when asked: events (a container started, an image pulled, a node's grace
// period over) sit in the queue at their simulated time and run, in time order and then in the
// order they were scheduled, when the clock reaches them. After each write and each batch of
// events the cluster settles: the kubelet syncs the pods it was told about and the scheduler
// binds pending pods, until neither has work left at this time.
import type { KubeObject } from '@kruise-ts/api';
import { type Action, createRng, type FeatureGates, type Rng } from '@kruise-ts/core';
import { actionRecord, eventRecord, type ReasonDetails, type RecordInput } from './actionRecords';
import type { AdmissionChain } from './admission';
import {
  type ClusterPayload,
  defaultTimings,
  type KubeletPayload,
  type NodePayload,
  type SimContext,
  type Timings,
} from './context';
import { EventQueue } from './eventQueue';
import { EventLog, type LogLevel, type SimEvent } from './events';
import { apiVersionOf } from './keys';
import { Kubelet } from './kubelet';
import { type NodeConfig, NodeLifecycle, nodeObject } from './nodes';
import { reactToPodChange } from './podReactions';
import { Scheduler } from './scheduler';
import { type Change, Store, type WriteResult } from './store';
import { DEFAULT_START_TIME, VirtualClock } from './time';

/** How a cluster is built. Every field has a default. */
export interface ClusterOptions {
  /** Seed of every random choice (names, uids, jitter, crashes). Default 1. */
  seed?: number;
  /** Start of simulated time (RFC 3339 text or a Date). Default `2024-01-01T00:00:00Z`. */
  startTime?: string | Date;
  /** Timings of the kubelet and node models; missing fields take `defaultTimings`. */
  timings?: Partial<Timings>;
  /** The admission chain the store runs on create and update. Default: none. */
  admission?: AdmissionChain;
  /** The feature gates admission hooks see. */
  featureGates?: Partial<FeatureGates>;
  /** Every scheduled time is rounded up to a multiple of this. Default 1000 ms. */
  resolutionMs?: number;
  /** Which records the event log keeps (`all` or `summary`). Default `all`. */
  logLevel?: LogLevel;
  /** How many event-log records are kept, the most recent ones; `Infinity` keeps all. */
  eventLogCapacity?: number;
  /** Deep-freeze stored objects, so a caller that mutates one fails at once (tests). */
  freezeObjects?: boolean;
}

/** The options of {@link createCluster}: a cluster's options and its nodes. */
export interface CreateClusterOptions extends ClusterOptions {
  /** The nodes, registered in this order (their pod CIDRs and addresses follow it). */
  nodes: NodeConfig[];
}

/**
 * A simulated cluster without controllers. `Extra` is the type of the events a shell schedules
 * on the same queue beside the model's own (the simulator's requeues and scheduled failures), so
 * that every event runs in one time order; a plain cluster has none.
 */
export class Cluster<Extra extends { type: string } = never> {
  readonly clock: VirtualClock;
  readonly rng: Rng;
  readonly store: Store;
  readonly log: EventLog;
  readonly timings: Timings;
  /** One queue for the model's events and the shell's. */
  readonly queue = new EventQueue<ClusterPayload | Extra>();
  /** The context the models share; a shell's components (controller loop, invariants) read it too. */
  readonly ctx: SimContext;
  readonly kubelet: Kubelet;
  readonly scheduler: Scheduler;
  readonly nodeLifecycle: NodeLifecycle;
  /** Every scheduled time is rounded up to a multiple of this many ms. */
  readonly resolutionMs: number;
  /** The `{reason}` details this cluster's action records share (actionRecords.ts). */
  private readonly reasonDetails: ReasonDetails = new Map();

  /**
   * Builds an empty cluster: no nodes yet (see {@link Cluster.addNodes}), so that a shell can
   * subscribe to the store before the nodes are registered.
   */
  constructor(opts: ClusterOptions = {}) {
    const seed = opts.seed ?? 1;
    this.clock = new VirtualClock(opts.startTime ?? DEFAULT_START_TIME);
    this.rng = createRng(seed);
    this.resolutionMs = Math.max(1, opts.resolutionMs ?? 1000);
    this.log = new EventLog(opts.logLevel ?? 'all', opts.eventLogCapacity);
    this.store = new Store({
      seed,
      now: () => this.clock.now(),
      nowMs: () => this.clock.elapsedMs,
      at: (ms) => this.clock.at(ms),
      admission: opts.admission,
      featureGates: opts.featureGates ?? {},
      freeze: opts.freezeObjects,
    });
    const timings: Timings = { ...defaultTimings, ...(opts.timings ?? {}) };
    timings.imagePull = { ...defaultTimings.imagePull, ...(opts.timings?.imagePull ?? {}) };
    this.timings = timings;
    this.ctx = {
      store: this.store,
      clock: this.clock,
      rng: this.rng,
      timings,
      log: (e) => this.record(e),
      logs: (type) => this.log.keeps(type),
      schedule: (delay, payload) => this.schedule(delay, payload),
      jittered: (ms) =>
        timings.jitter > 0
          ? Math.max(0, Math.round(ms * (1 + timings.jitter * (2 * this.rng.next() - 1))))
          : ms,
      nodeFailed: (name) => this.nodeLifecycle.isFailed(name),
    };
    this.kubelet = new Kubelet(this.ctx);
    this.scheduler = new Scheduler(this.ctx);
    this.nodeLifecycle = new NodeLifecycle(this.ctx, this.kubelet);
    this.store.watch((c) => this.react(c));
  }

  /** Registers nodes (as the `cluster` source) and puts their preloaded images in the kubelet's cache. */
  addNodes(nodes: readonly NodeConfig[]): void {
    const first = this.store.list('v1', 'Node').length;
    for (const [i, n] of nodes.entries()) {
      this.store.create(nodeObject(n, this.clock.now(), first + i), 'cluster', 'NodeRegistered');
      for (const img of n.images ?? []) this.kubelet.images(n.name).add(img);
    }
  }

  // ---------------------------------------------------------------- reading

  /** Simulated milliseconds since the start. */
  get nowMs(): number {
    return this.clock.elapsedMs;
  }

  /** The current simulated time, RFC 3339 at second precision. */
  now(): string {
    return this.clock.now();
  }

  /** The kept event-log records, oldest first. */
  get events(): SimEvent[] {
    return this.log.records;
  }

  /** An object by kind and name (namespace `default` unless given; the kind's usual apiVersion unless given). */
  get<T extends KubeObject = KubeObject>(
    kind: string,
    name: string,
    namespace?: string,
    apiVersion?: string,
  ): T | undefined {
    return this.store.get(apiVersion ?? apiVersionOf(kind), kind, namespace, name) as T | undefined;
  }

  /** Objects of a kind (in every namespace unless one is given), sorted by namespace and name. */
  list<T extends KubeObject = KubeObject>(kind: string, namespace?: string, apiVersion?: string): T[] {
    return this.store.list(apiVersion ?? apiVersionOf(kind), kind, namespace) as T[];
  }

  /** Every stored object. */
  objects(): KubeObject[] {
    return this.store.all();
  }

  // ---------------------------------------------------------------- writing

  /**
   * Writes one action as `source` through the store (admission, versions, garbage collection)
   * and logs it as the simulator does (`Create`, `Patch`, ... or `ActionFailed`; `Event` for an
   * event action, which stores nothing). Does not settle.
   */
  write(action: Action, source: string): WriteResult {
    if (action.verb === 'event') {
      this.record(eventRecord(action, source));
      return { ok: true };
    }
    const res = this.store.apply(action, source);
    this.record(actionRecord(action, res, source, this.reasonDetails));
    return res;
  }

  /**
   * Writes a reconcile's actions in order as `source` (default `controller`), then lets the
   * kubelet and scheduler react. Returns each action's result: a refused write is reported
   * there, never thrown.
   */
  apply(actions: readonly Action[], source = 'controller'): WriteResult[] {
    const results = actions.map((a) => this.write(a, source));
    this.settle();
    return results;
  }

  /** Appends a record to the event log at the current time. */
  record(e: RecordInput): void {
    if (!this.log.keeps(e.type)) return;
    const rec: SimEvent = { t: this.clock.elapsedMs / 1000, time: this.clock.now(), type: e.type };
    if (e.object !== undefined) rec.object = e.object;
    if (e.source !== undefined) rec.source = e.source;
    if (e.detail !== undefined) rec.detail = e.detail;
    this.log.add(rec);
  }

  // ---------------------------------------------------------------- running

  /** Schedules `payload` `delayMs` from now (rounded up to the resolution). */
  schedule(delayMs: number, payload: ClusterPayload | Extra): void {
    this.scheduleAt(this.clock.elapsedMs + Math.max(0, delayMs), payload);
  }

  /** Schedules `payload` at simulated time `ms` (rounded up to the resolution, never in the past). */
  scheduleAt(ms: number, payload: ClusterPayload | Extra): void {
    const t = Math.ceil(ms / this.resolutionMs) * this.resolutionMs;
    this.queue.push(Math.max(t, this.clock.elapsedMs), payload);
  }

  /**
   * Runs one of the model's events. Returns false for an event that is not the model's (one of
   * `Extra`), which the shell handles.
   */
  handle(p: ClusterPayload | Extra): boolean {
    switch (p.type) {
      case 'nodeNotReady':
      case 'nodeEvict':
        this.nodeLifecycle.handle(p as NodePayload);
        return true;
      case 'imagePulled':
      case 'containerStarted':
      case 'containerReady':
      case 'containerCrash':
      case 'containerRestart':
      case 'podTerminated':
        this.kubelet.handle(p as KubeletPayload);
        return true;
      case 'wake':
        return true;
      default:
        return false;
    }
  }

  /**
   * Does one piece of the model's work due now: a kubelet sync of the pods it was told about,
   * else a scheduler run over the pending pods. Returns false when neither has work.
   */
  workOne(): boolean {
    if (this.kubelet.pending) this.kubelet.sync();
    else if (this.scheduler.pending) this.scheduler.run();
    else return false;
    return true;
  }

  /** Lets the kubelet and scheduler work until neither has anything left at this time. */
  settle(): void {
    for (let round = 0; round < 10_000 && this.workOne(); round++);
  }

  /**
   * Lets `ms` of simulated time pass: every event due by then runs at its time, the cluster
   * settling after each batch, and the clock ends at now + `ms`.
   */
  advance(ms: number): void {
    this.runUntil(this.clock.elapsedMs + Math.max(0, ms));
  }

  /**
   * Runs every event due up to simulated time `deadlineMs`, then moves the clock to it and settles.
   * Events of `Extra` are taken off the queue unhandled: a shell with events of its own runs its
   * own loop over `queue` and `handle` (as the simulator does).
   */
  runUntil(deadlineMs: number): void {
    this.settle();
    for (let next = this.queue.peek(); next && next.time <= deadlineMs; next = this.queue.peek()) {
      this.clock.advanceTo(next.time);
      while (this.queue.peek()?.time === next.time) this.handle(this.queue.pop()!.payload);
      this.settle();
    }
    this.clock.advanceTo(deadlineMs);
    this.settle();
  }

  /** The model's reactions to a store write: wake the kubelet, note pods to schedule. */
  private react(c: Change): void {
    if (c.object.kind === 'Pod') reactToPodChange(c, this);
    else if (c.object.kind === 'Node') this.scheduler.bump();
  }
}

/**
 * A cluster with its nodes registered, ready to use.
 *
 * Example: `const c = createCluster({ nodes: [{ name: 'node-1' }], seed: 7 });
 * c.apply(result.actions); c.advance(10_000); c.list('Pod')`.
 */
export function createCluster(opts: CreateClusterOptions): Cluster {
  const cluster = new Cluster(opts);
  cluster.addNodes(opts.nodes);
  return cluster;
}
