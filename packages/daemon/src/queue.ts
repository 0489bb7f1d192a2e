// A work queue with per-item exponential backoff and delayed adds, the shape of client-go's
// rate-limited queue that both daemon controllers use (docs/reference/daemon.md §7.2 item 2, §9.2 item 2):
// a key is never processed by two workers at once, and a key added while it is processed runs again.
import type { Clock, Rng } from './clock';

/** §7.2 / §9.2: 500 ms doubling per failure, capped at 50 s + uniform[0, 5) s. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  maxJitterMs: number;
}

/** The upstream policy. */
export const DEFAULT_QUEUE_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 50_000, maxJitterMs: 5_000 };

/**
 * The delay before retry number `failures` (0-based): `min(base·2^failures, max + u·jitter)`.
 *
 * Example: failures 0, 1, 2 → 500, 1 000, 2 000 ms; failures 20 with u = 0.5 → 52 500 ms.
 */
export function backoffDelayMs(
  failures: number,
  u: number,
  p: BackoffPolicy = DEFAULT_QUEUE_BACKOFF,
): number {
  return Math.min(p.baseMs * 2 ** Math.min(failures, 30), p.maxMs + Math.floor(u * p.maxJitterMs));
}

/** What a processing function returns: optionally a requeue delay. */
export interface ProcessResult {
  requeueAfterMs?: number;
}

/** A keyed work queue served by `workers` concurrent workers. */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly order: string[] = [];
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, { at: number; cancel: () => void }>();
  private running = 0;
  private stopped = false;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    private readonly process: (key: string) => Promise<ProcessResult | undefined>,
    private readonly opts: {
      clock: Clock;
      rng: Rng;
      workers: number;
      backoff?: BackoffPolicy;
      onError?: (key: string, err: unknown) => void;
    },
  ) {}

  /** Enqueues `key` now. */
  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (!this.pending.has(key)) {
      this.pending.add(key);
      this.order.push(key);
    }
    this.pump();
  }

  /** Enqueues `key` after `ms`; an earlier pending timer for the key wins. */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.opts.clock.now() + ms;
    const prev = this.timers.get(key);
    if (prev && prev.at <= at) return;
    prev?.cancel();
    const cancel = this.opts.clock.setTimer(() => {
      this.timers.delete(key);
      this.add(key);
    }, ms);
    this.timers.set(key, { at, cancel });
  }

  /** Number of keys waiting or being processed (timers not counted). */
  get length(): number {
    return this.pending.size + this.processing.size;
  }

  /** Stops: no new work starts; delayed adds are cancelled. Resolves when running work ends. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    this.pending.clear();
    this.order.length = 0;
    if (this.running === 0) return;
    await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  private pump(): void {
    while (!this.stopped && this.running < this.opts.workers && this.order.length > 0) {
      const key = this.order.shift() as string;
      this.pending.delete(key);
      this.processing.add(key);
      this.running++;
      void this.run(key);
    }
  }

  private async run(key: string): Promise<void> {
    let retryMs: number | undefined;
    try {
      const res = await this.process(key);
      this.failures.delete(key);
      retryMs = res?.requeueAfterMs;
    } catch (e) {
      const n = this.failures.get(key) ?? 0;
      this.failures.set(key, n + 1);
      retryMs = backoffDelayMs(n, this.opts.rng(), this.opts.backoff);
      this.opts.onError?.(key, e);
    } finally {
      this.processing.delete(key);
      this.running--;
    }
    if (this.dirty.delete(key)) this.add(key);
    if (retryMs !== undefined) this.addAfter(key, retryMs);
    if (this.running === 0 && this.stopped) for (const w of this.idleWaiters.splice(0)) w();
    this.pump();
  }
}
