// Watch support (guide §G): a bounded history of store changes keyed by the
// store's global resourceVersion, resume from a resourceVersion (replay of
// every event after it), 410 Expired when it is older than the history
// window, and fan-out of live events to watchers with the same label/field
// filters as list. An object that stops (starts) matching a watcher's filter
// is sent as DELETED (ADDED), as kube-apiserver's cacher does.
import type { KubeObject } from '@kruise-ts/api';
import type { Change, Store } from '@kruise-ts/cluster';
import { matchesFilter, type ObjectFilter } from './filters';

/** A watch event type. */
export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One stored change. */
export interface HistoryEntry {
  rv: number;
  type: WatchType;
  /** `group/Kind` of the object. */
  gk: string;
  object: KubeObject;
  old?: KubeObject;
  /** JSON of `object` per apiVersion it was served as (fan-out serializes once). */
  json?: Map<string, string>;
}

/** A live watcher. */
export interface Watcher {
  gk: string;
  filter: ObjectFilter;
  send(type: WatchType, entry: HistoryEntry, object: KubeObject): void;
  /** Ends the stream (history expired or server closing). */
  end(): void;
}

/** `group/Kind` of an apiVersion and kind. */
export function gkOf(apiVersion: string, kind: string): string {
  const i = apiVersion.indexOf('/');
  return `${i < 0 ? '' : apiVersion.slice(0, i)}/${kind}`;
}

/** The change history and the watchers. */
export class WatchHub {
  private history: HistoryEntry[] = [];
  private head = 0;
  /** Every change with rv > floor is in the history. */
  private floor: number;
  private watchers = new Set<Watcher>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    private readonly capacity = 50_000,
  ) {
    this.floor = store.resourceVersion;
    this.unsubscribe = store.watch((c) => this.onChange(c));
  }

  /** The current resourceVersion (of the latest write). */
  get currentRv(): number {
    return this.store.resourceVersion;
  }

  /** The oldest resourceVersion a watch may resume from. */
  get oldestRv(): number {
    return this.floor;
  }

  private onChange(c: Change): void {
    const object = c.object;
    const rv = Number(object.metadata.resourceVersion ?? 0);
    const type: WatchType = c.type === 'added' ? 'ADDED' : c.type === 'modified' ? 'MODIFIED' : 'DELETED';
    const entry: HistoryEntry = { rv, type, gk: gkOf(object.apiVersion, object.kind), object, old: c.old };
    this.history.push(entry);
    if (this.history.length - this.head > this.capacity) {
      this.floor = this.history[this.head].rv;
      this.head++;
      if (this.head > 4096) {
        this.history = this.history.slice(this.head);
        this.head = 0;
      }
    }
    for (const w of this.watchers) if (w.gk === entry.gk) deliver(w, entry);
  }

  /**
   * Registers a watcher. With `fromRv`, first replays every stored event after it;
   * returns false (nothing registered) when `fromRv` is older than the window.
   */
  add(w: Watcher, fromRv?: number): boolean {
    if (fromRv !== undefined) {
      if (fromRv < this.floor) return false;
      for (let i = this.head; i < this.history.length; i++) {
        const e = this.history[i];
        if (e.rv > fromRv && e.gk === w.gk) deliver(w, e);
      }
    }
    this.watchers.add(w);
    return true;
  }

  /**
   * The stored changes of `gk` after `rv`, newest first (pagination.ts rolls the current state
   * back through them); undefined when `rv` is older than the window.
   */
  changesAfter(rv: number, gk: string): HistoryEntry[] | undefined {
    if (rv < this.floor) return undefined;
    const out: HistoryEntry[] = [];
    for (let i = this.history.length - 1; i >= this.head; i--) {
      const e = this.history[i];
      if (e.rv <= rv) break;
      if (e.gk === gk) out.push(e);
    }
    return out;
  }

  /** Unregisters a watcher. */
  remove(w: Watcher): void {
    this.watchers.delete(w);
  }

  /** Number of live watchers. */
  get size(): number {
    return this.watchers.size;
  }

  /** Forgets the history and ends every stream (clients must relist: the test hook of guide §G). */
  expire(): void {
    this.history = [];
    this.head = 0;
    this.floor = this.currentRv;
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      w.end();
    }
  }

  /** Ends every stream and stops listening to the store. */
  close(): void {
    this.unsubscribe();
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      w.end();
    }
  }
}

function deliver(w: Watcher, e: HistoryEntry): void {
  const now = matchesFilter(e.object, w.filter);
  if (e.type === 'MODIFIED' && e.old) {
    const before = matchesFilter(e.old, w.filter);
    if (now && !before) w.send('ADDED', e, e.object);
    else if (!now && before) w.send('DELETED', e, e.object);
    else if (now) w.send('MODIFIED', e, e.object);
    return;
  }
  if (now) w.send(e.type, e, e.object);
}
