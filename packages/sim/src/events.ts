// The simulator's event log: a list of plain JSON records (time, type, object,
// detail). `--json` prints it as JSON lines; the same scenario and seed give a
// byte-identical log.

/** One record of the event log. Key order is fixed so the JSON is byte-stable. */
export interface SimEvent {
  /** Simulated seconds since the start (milliseconds as a fraction). */
  t: number;
  /** RFC 3339 time (second precision). */
  time: string;
  /** What happened: `Create`, `Patch`, `Scheduled`, `ContainerStarted`, `InvariantViolation`, ... */
  type: string;
  /** `Kind/namespace/name` (or `Kind/name` for cluster-scoped objects) when an object is involved. */
  object?: string;
  /** Who did it: `user`, `controller:CloneSet`, `scheduler`, `kubelet:node-1`, `node-lifecycle`, `garbage-collector`, `step`. */
  source?: string;
  /** Free-form plain JSON details. */
  detail?: Record<string, unknown>;
}

/** Which records are kept: `all`, or `summary` (no per-container kubelet chatter). */
export type LogLevel = 'all' | 'summary';

/** Kubelet record types dropped at log level `summary`. */
const CHATTY = new Set(['ImagePulling', 'ImagePulled', 'ContainerStarted', 'ContainerReady']);

/** An append-only event log with listeners (the CLI prints from them as the run goes). */
export class EventLog {
  readonly records: SimEvent[] = [];
  private listeners: ((e: SimEvent) => void)[] = [];
  constructor(readonly level: LogLevel = 'all') {}

  /** True when a record of this type would be kept at this level. */
  keeps(type: string): boolean {
    return this.level !== 'summary' || !CHATTY.has(type);
  }

  /** Appends a record (unless filtered by the level) and tells the listeners. */
  add(e: SimEvent): void {
    if (!this.keeps(e.type)) return;
    this.records.push(e);
    for (const l of this.listeners) l(e);
  }

  /** Subscribes to new records; returns an unsubscribe function. */
  onRecord(listener: (e: SimEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** The log as JSON lines (one record per line, trailing newline). */
  toJSONLines(): string {
    let out = '';
    for (const r of this.records) out += `${JSON.stringify(r)}\n`;
    return out;
  }
}

/** `Kind/namespace/name`, or `Kind/name` without a namespace. */
export function objectLabel(kind: string, namespace: string | undefined, name: string): string {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}
