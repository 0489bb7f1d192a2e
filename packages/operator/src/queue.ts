// The controller work queue (docs/reference/operator.md O3.3–O3.4): keyed, deduplicating, with per-key
// mutual exclusion (a key is never processed by two workers at once; an add while in flight
// causes exactly one more run afterwards), delayed adds (RequeueAfter), and rate-limited
// re-adds: max(per-key exponential back-off base·2^failures capped at max, an overall token
// bucket of qps/burst). Success (`forget`) resets a key's back-off.

/** Rate limiter settings (flags `--rate-limiter-*`, O3.4). */
export interface RateLimiterOptions {
  /** Per-key base delay, ms. Default 5. */
  baseDelayMs?: number;
  /** Per-key maximum delay, ms. Default 1 000 000 (1000 s). */
  maxDelayMs?: number;
  /** Overall token bucket refill rate, per second. Default 10. */
  qps?: number;
  /** Overall token bucket size. Default 100. */
  burst?: number;
}

/**
 * The kruise rate limiter (O3.4): the larger of the per-key exponential delay and the token
 * bucket's wait. Example with the defaults: a key's 1st failure waits 5 ms, the 5th
 * 5·2^4 = 80 ms; 101 failures within one second of different keys leave the last waiting
 * 100 ms for a token (10 qps after the burst of 100).
 */
export class RateLimiter {
  private failures = new Map<string, number>();
  private tokens: number;
  private last: number;
  constructor(
    private readonly o: RateLimiterOptions = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.tokens = o.burst ?? 100;
    this.last = clock();
  }

  /** The delay before `key` may run again, recording one more failure. */
  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const perKey = Math.min((this.o.baseDelayMs ?? 5) * 2 ** n, this.o.maxDelayMs ?? 1_000_000);
    const qps = this.o.qps ?? 10;
    const burst = this.o.burst ?? 100;
    const now = this.clock();
    this.tokens = Math.min(burst, this.tokens + ((now - this.last) / 1000) * qps);
    this.last = now;
    this.tokens -= 1;
    const bucket = this.tokens >= 0 ? 0 : (-this.tokens / qps) * 1000;
    return Math.max(perKey, bucket);
  }

  /** Failures recorded for `key`. */
  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Resets `key`'s back-off. */
  forget(key: string): void {
    this.failures.delete(key);
  }
}

/** A keyed work queue with N workers. */
export class WorkQueue {
  private queue: string[] = [];
  private dirty = new Set<string>();
  private processing = new Set<string>();
  private timers = new Map<string, { at: number; t: NodeJS.Timeout }>();
  private waiters: Array<() => void> = [];
  private shut = false;
  readonly limiter: RateLimiter;
  /** Counters (metrics): adds, retries. */
  readonly stats = { adds: 0, retries: 0 };

  constructor(opts: RateLimiterOptions = {}) {
    this.limiter = new RateLimiter(opts);
  }

  /** Enqueues `key` unless it is already waiting (coalescing). */
  add(key: string): void {
    if (this.shut) return;
    this.stats.adds += 1;
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return; // re-run after the current one finishes
    this.queue.push(key);
    this.waiters.shift()?.();
  }

  /** Enqueues `key` after `ms` (an earlier pending delay wins). */
  addAfter(key: string, ms: number): void {
    if (this.shut) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + ms;
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.t);
    const t = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, ms);
    t.unref?.();
    this.timers.set(key, { at, t });
  }

  /** Re-enqueues `key` after its rate-limited delay. */
  addRateLimited(key: string): void {
    this.stats.retries += 1;
    this.addAfter(key, this.limiter.when(key));
  }

  /** Resets `key`'s back-off (after a successful reconcile). */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  /** Waits for the next key; undefined after shutdown. The key must be passed to `done`. */
  async get(): Promise<string | undefined> {
    while (!this.shut && this.queue.length === 0) await new Promise<void>((r) => this.waiters.push(r));
    if (this.shut) return undefined;
    const key = this.queue.shift() as string;
    this.dirty.delete(key);
    this.processing.add(key);
    return key;
  }

  /** Marks `key` finished; if it was added meanwhile it is queued again. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.waiters.shift()?.();
    }
  }

  /** Keys waiting to run. */
  len(): number {
    return this.queue.length;
  }

  /** True when nothing is queued, in flight or scheduled. */
  idle(): boolean {
    return this.queue.length === 0 && this.processing.size === 0 && this.timers.size === 0;
  }

  /** Stops the queue: pending gets return undefined; timers are cleared. */
  shutdown(): void {
    this.shut = true;
    for (const { t } of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w();
  }

  /** Runs `n` workers calling `fn` for each key until shutdown. */
  run(n: number, fn: (key: string) => Promise<void>): Promise<unknown> {
    const worker = async () => {
      for (;;) {
        const key = await this.get();
        if (key === undefined) return;
        try {
          await fn(key);
        } finally {
          this.done(key);
        }
      }
    };
    return Promise.all(Array.from({ length: n }, worker));
  }
}
