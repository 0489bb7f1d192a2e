// Time and randomness of the daemon's I/O shell (docs/reference/daemon.md §11 items 1–2): an injectable
// clock (now, timers, abortable sleep) and RNG, so the logic can run on a fake clock in tests.
import { parseTime as parseKubeTime } from '@kruise-ts/core';

/** A clock: epoch milliseconds, timers and an abortable sleep. */
export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; returns a cancel function. */
  setTimer(fn: () => void, ms: number): () => void;
  /** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A uniform random number in [0, 1). */
export type Rng = () => number;

/** The wall clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
  sleep(ms, signal) {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const t = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  },
};

/**
 * `rfc3339(ms)`: RFC 3339 at second precision (Kubernetes `metav1.Time`), e.g.
 * `2024-01-01T00:00:05Z`, of a clock's epoch milliseconds; the daemon's public name for core's
 * `epochMsToRFC3339`, which throws a KruiseError when `ms` is not a time.
 */
export { epochMsToRFC3339 as rfc3339 } from '@kruise-ts/core';

/**
 * Epoch milliseconds of an RFC 3339 time (core's `parseTime`), `undefined` when invalid, empty or
 * Go's zero time `0001-01-01T00:00:00Z`, which Kubernetes writes for "no time".
 */
export function parseTime(s: string | undefined): number | undefined {
  return parseKubeTime(s)?.getTime();
}

/**
 * A small deterministic RNG (mulberry32) for tests and for a daemon started with a seed.
 *
 * Example: `seededRng(1)()` is always the same number in [0, 1).
 */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
