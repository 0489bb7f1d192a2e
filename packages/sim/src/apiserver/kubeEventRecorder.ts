// Stores the Kubernetes events of the simulated scheduler, kubelets and node controller
// (`Simulation.onKubeEvent`, @kruise-ts/cluster's kubeEvents.ts) as core/v1 Events, the way client-go's event
// recorder does: one Event named `<object>.<hex time>` in the object's namespace, with
// `involvedObject` (uid and, for a container, `fieldPath: spec.containers{nginx}`), `source`
// (`kubelet` with the node as host, `default-scheduler`, `node-controller`) and the reporting
// fields; a repeat of the same event (same object, source, type, reason and message) within ten
// minutes bumps `count` and `lastTimestamp` instead of adding an Event, as the recorder's
// correlator does. So `kubectl describe pod` shows `Scheduled`, `Pulling`, `Pulled`, `Created`,
// `Started`, … with their ages and `(x3 over 2m)` counts.
//
// Events are queued as the models raise them and written by `flush()`, outside the simulation's
// settle loop (the server flushes after every clock tick).
import type { KubeObject } from '@kruise-ts/api';
import type { KubeEventRecord } from '@kruise-ts/cluster';
import type { Simulation } from '../simulation';

/** How long a repeat counts as the same Event (client-go's correlator keeps 10 minutes). */
const REPEAT_WINDOW_MS = 10 * 60 * 1000;
/** Aggregation keys kept (oldest forgotten first). */
const MAX_KEYS = 4096;

/** Writes the models' events into the store. */
export class KubeEventRecorder {
  private queue: KubeEventRecord[] = [];
  private counter = 0;
  /** aggregation key → the Event written and when it was first seen. */
  private seen = new Map<string, { name: string; namespace: string; firstMs: number }>();
  private readonly off: () => void;

  constructor(private readonly sim: Simulation) {
    this.off = sim.onKubeEvent((e) => this.queue.push(e));
  }

  /** Writes the queued events. */
  flush(): void {
    const batch = this.queue;
    this.queue = [];
    for (const e of batch) this.write(e);
  }

  private write(e: KubeEventRecord): void {
    const io = e.involved;
    const namespace = io.namespace ?? 'default';
    const key = [
      io.kind,
      namespace,
      io.name,
      io.uid,
      io.fieldPath,
      e.component,
      e.host,
      e.type,
      e.reason,
      e.message,
    ].join('\u0000');
    const ms = Date.parse(e.time);
    const prev = this.seen.get(key);
    if (prev && ms - prev.firstMs <= REPEAT_WINDOW_MS) {
      const stored = this.sim.store.get('v1', 'Event', prev.namespace, prev.name) as
        | (KubeObject & { count?: number })
        | undefined;
      if (stored) {
        this.sim.store.patch(
          { apiVersion: 'v1', kind: 'Event', namespace: prev.namespace, name: prev.name },
          'merge',
          { count: (stored.count ?? 1) + 1, lastTimestamp: e.time },
          'event-recorder',
        );
        return;
      }
    }
    const name = `${io.name}.${(BigInt(ms) * 1_000_000n + BigInt(this.counter++ % 1_000_000)).toString(16)}`;
    const involvedObject: Record<string, unknown> = { kind: io.kind, name: io.name, apiVersion: 'v1' };
    if (io.namespace) involvedObject.namespace = io.namespace;
    if (io.uid) involvedObject.uid = io.uid;
    if (io.fieldPath) involvedObject.fieldPath = io.fieldPath;
    const source: Record<string, string> = { component: e.component };
    if (e.host) source.host = e.host;
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject,
      reason: e.reason,
      message: e.message,
      type: e.type,
      source,
      firstTimestamp: e.time,
      lastTimestamp: e.time,
      count: 1,
      reportingComponent: e.component,
      reportingInstance: e.host ?? '',
    };
    const r = this.sim.store.create(ev, 'event-recorder');
    if (!r.ok) return;
    this.seen.set(key, { name, namespace, firstMs: ms });
    if (this.seen.size > MAX_KEYS) this.seen.delete(this.seen.keys().next().value as string);
  }

  /** Stops listening. */
  close(): void {
    this.off();
  }
}
