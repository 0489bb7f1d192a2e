// The cluster's event log (the one `kruise-ts simulate` prints): a list of plain JSON records
// (time, type, object, detail). `--json` prints it as JSON lines; the same scenario and seed give
// a byte-identical log. It is bounded by default: it keeps the most recent records (listeners
// still see every one as it comes), so a long or large run does not hold its whole history.

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
const CHATTY: ReadonlySet<string> = new Set([
  'ImagePulling',
  'ImagePulled',
  'ContainerStarted',
  'ContainerReady',
]);

/**
 * Records kept by default: the most recent 10 000 (a few MB; a 10k-pod rollout writes about
 * 80 000 at level `summary`). `Infinity` keeps the full log.
 */
export const DEFAULT_EVENT_LOG_CAPACITY = 10_000;

/**
 * An event log with listeners (the CLI prints from them as the run goes). It keeps at most
 * `capacity` records, the most recent ones; older ones are counted in {@link EventLog.dropped}.
 * Listeners see every record whatever the capacity.
 */
export class EventLog {
  /** The kept records, oldest first; between `capacity` and twice it before trimming. */
  private buffer: SimEvent[] = [];
  private listeners: ((e: SimEvent) => void)[] = [];
  /** Records dropped to keep within the capacity. */
  dropped = 0;
  readonly capacity: number;
  constructor(
    readonly level: LogLevel = 'all',
    capacity: number = DEFAULT_EVENT_LOG_CAPACITY,
  ) {
    this.capacity = capacity >= 1 ? capacity : DEFAULT_EVENT_LOG_CAPACITY;
  }

  /** The kept records, oldest first: the most recent `capacity` (all of them with `Infinity`). */
  get records(): SimEvent[] {
    if (this.buffer.length > this.capacity) this.trim();
    return this.buffer;
  }

  /** True when a record of this type would be kept at this level. */
  keeps(type: string): boolean {
    return this.level !== 'summary' || !CHATTY.has(type);
  }

  /** Appends a record (unless filtered by the level) and tells the listeners. */
  add(e: SimEvent): void {
    if (!this.keeps(e.type)) return;
    this.buffer.push(e);
    // trimming once the buffer holds twice the capacity makes each add O(1) amortised
    if (this.buffer.length >= 2 * this.capacity) this.trim();
    for (const l of this.listeners) l(e);
  }

  /** Drops the oldest records beyond the capacity. */
  private trim(): void {
    const extra = this.buffer.length - this.capacity;
    this.dropped += extra;
    this.buffer = this.buffer.slice(extra);
  }

  /** Subscribes to new records; returns an unsubscribe function. */
  onRecord(listener: (e: SimEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** The kept records as JSON lines (one record per line, trailing newline). */
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
