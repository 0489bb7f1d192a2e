// The failed-pod back-off of docs/reference/daemonset.md §5.5, kept in `controllerState` (docs/architecture.md)
// instead of controller memory: per key `<ds uid>/<observedGeneration>/<node>` a window that
// starts at 1 s and doubles on every deletion of a failed pod, up to 15 min.
import { FAILED_POD_BACKOFF_INITIAL_SECONDS, FAILED_POD_BACKOFF_MAX_SECONDS } from './constants';
import { toEpochSeconds } from './time';
import type { DaemonSet } from './types';

/** One back-off window. */
export interface BackoffEntry {
  /** Current window length in seconds. */
  backoffSeconds: number;
  /** When the window started (ISO 8601 / RFC 3339). */
  lastUpdate: string;
}

/** The controller memory a DaemonSet reconcile takes and returns (`controllerState`). */
export interface DaemonSetControllerState {
  /** Failed-pod back-off windows by key `<ds uid>/<observedGeneration>/<node>` (§5.5). */
  failedPodsBackoff?: Record<string, BackoffEntry>;
}

/** §5.5 back-off key. Example: uid `u1`, observedGeneration 3, node `n1` → `u1/3/n1`. */
export function failedPodsBackoffKey(ds: DaemonSet, nodeName: string): string {
  return `${ds.metadata.uid ?? ds.metadata.name ?? ''}/${ds.status?.observedGeneration ?? 0}/${nodeName}`;
}

/**
 * An exponential back-off over plain JSON state (Kubernetes `flowcontrol.Backoff` semantics):
 * `isInBackOffSinceUpdate` is true while `now − lastUpdate < backoff`; `next` starts a 1 s
 * window for a new (or expired: idle for more than 2 × 15 min) key, else doubles it, capped
 * at 15 min. Example: deletions at t=0, 2, 5 give windows 1 s, 2 s, 4 s; a failed pod seen
 * at t=5.5 is inside the 4 s window and is left alone.
 */
export class FailedPodsBackoff {
  private readonly entries: Map<string, BackoffEntry>;
  private readonly nowSeconds: number;
  private readonly nowText: string;

  constructor(state: DaemonSetControllerState | undefined, now: string | Date) {
    this.entries = new Map(Object.entries(state?.failedPodsBackoff ?? {}));
    this.nowSeconds = toEpochSeconds(now);
    this.nowText = new Date(this.nowSeconds * 1000).toISOString();
  }

  /** The window is open: the last deletion was less than the current delay ago. */
  isInBackOffSinceUpdate(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    return this.nowSeconds - toEpochSeconds(e.lastUpdate) < e.backoffSeconds;
  }

  /** The current delay of a key (0 when unknown). */
  get(key: string): number {
    return this.entries.get(key)?.backoffSeconds ?? 0;
  }

  /** Records a deletion: start (1 s) or double the window. */
  next(key: string): void {
    const e = this.entries.get(key);
    if (!e || this.expired(e)) {
      this.entries.set(key, { backoffSeconds: FAILED_POD_BACKOFF_INITIAL_SECONDS, lastUpdate: this.nowText });
    } else {
      this.entries.set(key, {
        backoffSeconds: Math.min(e.backoffSeconds * 2, FAILED_POD_BACKOFF_MAX_SECONDS),
        lastUpdate: this.nowText,
      });
    }
  }

  private expired(e: BackoffEntry): boolean {
    return this.nowSeconds - toEpochSeconds(e.lastUpdate) > 2 * FAILED_POD_BACKOFF_MAX_SECONDS;
  }

  /** The state to return, without expired entries, keys sorted (`{}` when none is left). */
  toState(): DaemonSetControllerState {
    const kept = [...this.entries.entries()]
      .filter(([, e]) => !this.expired(e))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    if (kept.length === 0) return {};
    return { failedPodsBackoff: Object.fromEntries(kept) };
  }
}
