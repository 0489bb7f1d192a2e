// Cluster bootstrapping and the bridges the server adds around a simulation:
// the built-in namespaces and the Kruise CRD objects, CRDs created through the
// API registered as resources, controller `event` actions (kept by the
// simulation only in its log) turned into core/v1 Event objects for
// `kubectl describe` and `kubectl get events`, and the real-time clock
// driver (virtual time follows the wall clock × speed).
import type { KubeObject } from '@kruise-ts/api';
import type { SimEvent } from '@kruise-ts/cluster';
import type { Simulation } from '../simulation';
import type { Registry } from './registry';

/** Namespaces every cluster has. */
export const BUILTIN_NAMESPACES: readonly string[] = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
];

function ensureNamespace(sim: Simulation, name: string): void {
  if (sim.store.get('v1', 'Namespace', undefined, name)) return;
  const r = sim.store.create(
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
    },
    'cluster',
    'NamespaceCreated',
  );
  if (r.ok && r.object)
    sim.store.updateStatus({ apiVersion: 'v1', kind: 'Namespace', name }, { phase: 'Active' }, 'cluster');
}

/**
 * Loads the CRD objects and creates the built-in namespaces plus every
 * namespace that already holds objects (a scenario may have filled the store).
 */
export function bootstrap(sim: Simulation, crds: readonly KubeObject[]): void {
  for (const crd of crds)
    if (
      !sim.store.get(
        'apiextensions.k8s.io/v1',
        'CustomResourceDefinition',
        undefined,
        crd.metadata.name ?? '',
      )
    )
      sim.store.load(crd);
  const namespaces = new Set(BUILTIN_NAMESPACES);
  for (const o of sim.store.all()) if (o.metadata.namespace) namespaces.add(o.metadata.namespace);
  for (const ns of namespaces) ensureNamespace(sim, ns);
  // A namespace created through the API is Active at once.
  sim.store.watch((c) => {
    if (
      c.type === 'added' &&
      c.object.kind === 'Namespace' &&
      !(c.object.status as { phase?: string } | undefined)?.phase
    )
      queueMicrotask(() =>
        sim.store.updateStatus(
          { apiVersion: 'v1', kind: 'Namespace', name: c.object.metadata.name ?? '' },
          { phase: 'Active' },
          'cluster',
        ),
      );
  });
}

/** Registers CRDs written through the API as served resources. */
export function followCrds(sim: Simulation, registry: Registry): () => void {
  return sim.store.watch((c) => {
    if (c.object.kind === 'CustomResourceDefinition' && c.type !== 'deleted') registry.addCrd(c.object);
  });
}

/**
 * Turns the simulation's `Event` log records (controller event actions) into
 * core/v1 Event objects. Records are queued and written by `flush()`, outside
 * the simulation's settle loop.
 */
export class EventBridge {
  private queue: SimEvent[] = [];
  private counter = 0;
  private readonly off: () => void;

  constructor(
    private readonly sim: Simulation,
    private readonly registry: Registry,
  ) {
    this.off = sim.log.onRecord((e) => {
      if (e.type === 'Event') this.queue.push(e);
    });
  }

  /** Writes the queued events. */
  flush(): void {
    const batch = this.queue;
    this.queue = [];
    for (const e of batch) this.write(e);
  }

  private write(e: SimEvent): void {
    const parts = (e.object ?? '').split('/');
    if (parts.length < 2) return;
    const [kind, a, b] = parts;
    const namespace = parts.length === 3 ? a : undefined;
    const name = parts.length === 3 ? b : a;
    const res = this.registry.all().find((r) => r.kind === kind);
    const obj = res ? this.sim.store.get(res.apiVersion, kind, namespace, name) : undefined;
    const d = (e.detail ?? {}) as { type?: string; reason?: string; message?: string };
    const ns = namespace ?? 'default';
    const involved: Record<string, unknown> = { kind, name, apiVersion: obj?.apiVersion ?? res?.apiVersion };
    if (namespace) involved.namespace = namespace;
    if (obj?.metadata.uid) involved.uid = obj.metadata.uid;
    if (obj?.metadata.resourceVersion) involved.resourceVersion = obj.metadata.resourceVersion;
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${name}.${(Date.parse(e.time) * 1000 + this.counter++).toString(16)}`,
        namespace: ns,
      },
      involvedObject: involved,
      reason: d.reason ?? '',
      message: d.message ?? '',
      type: d.type ?? 'Normal',
      source: {
        component: `${(e.source ?? 'kruise-manager').replace(/^controller:/, '').toLowerCase()}-controller`,
      },
      firstTimestamp: e.time,
      lastTimestamp: e.time,
      count: 1,
      reportingComponent: '',
      reportingInstance: '',
    };
    this.sim.store.create(ev, 'event-recorder');
  }

  /** Stops listening. */
  close(): void {
    this.off();
  }
}

/** Wall-clock ms one tick may run the simulation before it yields to the event loop. */
const TICK_SLICE_MS = 20;

/**
 * Drives the virtual clock in real time: every tick, simulated time moves to
 * `start + (wall − wallStart) × speed`. A tick runs the simulation for at most
 * TICK_SLICE_MS of wall time and goes on from `setImmediate`, so requests and
 * signals are served between slices while a backlog (a CloneSet of 2,147,483,647
 * replicas getting 500 pods a step) is worked through.
 */
export class RealTimeDriver {
  private timer?: NodeJS.Timeout;
  /** The continuation of a tick that did not reach its target. */
  private resume?: NodeJS.Immediate;
  private stopped = false;
  private readonly wallStart = Date.now();
  private readonly simStart: number;
  /** Extra simulated ms added by `advance()` (tests). */
  private offset = 0;

  constructor(
    private readonly sim: Simulation,
    private readonly speed: number,
    private readonly onTick: () => void,
    tickMs = 100,
  ) {
    this.simStart = sim.nowMs;
    if (speed > 0) {
      this.timer = setInterval(() => this.tick(), tickMs);
      this.timer.unref();
    }
  }

  /** Simulated ms the clock should read now. */
  target(): number {
    return this.simStart + this.offset + (this.speed > 0 ? (Date.now() - this.wallStart) * this.speed : 0);
  }

  /**
   * Moves simulated time toward the target, one slice; the rest follows from `setImmediate`.
   * While that continuation is pending, a tick (a request's) only flushes: the request is
   * answered at once from the state so far instead of doing a slice of the backlog first.
   */
  tick(): void {
    const t = Math.floor(this.target());
    if (t > this.sim.nowMs && !this.resume) {
      const until = Date.now() + TICK_SLICE_MS;
      if (!this.sim.runToward(t, () => Date.now() >= until) && !this.stopped)
        this.resume = setImmediate(() => {
          this.resume = undefined;
          this.tick();
        });
    }
    this.onTick();
  }

  /** Lets `ms` of simulated time pass at once (tests): the clock reads the target on return. */
  advance(ms: number): void {
    this.offset += ms;
    const t = Math.floor(this.target());
    if (t > this.sim.nowMs) this.sim.runUntil(t);
    this.onTick();
  }

  /** Stops the timer and any tick in progress. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.resume) clearImmediate(this.resume);
    this.resume = undefined;
  }
}
