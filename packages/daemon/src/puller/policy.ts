// Pure math of one pull worker (docs/reference/daemon.md §7.5): per-tag timeout, backoff limit and deadline,
// the per-attempt timeout, and the backoff step between attempts.
import type { ImageTagSpec } from '@kruise-ts/api';

/** §7.5 item 1: default per-attempt timeout. */
export const DEFAULT_PULL_TIMEOUT_SECONDS = 600;
/** §7.5 item 1: default backoff limit (also used for a negative value). */
export const DEFAULT_PULL_BACKOFF_LIMIT = 3;
/** §7.5 item 2.4: first backoff step. */
export const PULL_BACKOFF_INITIAL_MS = 1_000;
/** §7.5 item 2.4: backoff cap. */
export const PULL_BACKOFF_MAX_MS = 30_000;
/** §7.5 item 2.1: the last error when the deadline passed. */
export const PULL_DEADLINE_MESSAGE = 'pulling exceeds the activeDeadlineSeconds';

/** The resolved policy of one worker. Times are epoch milliseconds. */
export interface PullWorkerParams {
  timeoutMs: number;
  backoffLimit: number;
  /** Absolute deadline (start + activeDeadlineSeconds), when set. */
  deadlineMs?: number;
}

/**
 * §7.5 item 1: `timeout` = `pullPolicy.timeoutSeconds` (default 600 s); `backoffLimit` =
 * `pullPolicy.backoffLimit` (default 3; negative → 3); `deadline` = start + `activeDeadlineSeconds`.
 *
 * Example: `{pullPolicy: {timeoutSeconds: 2, backoffLimit: -1, activeDeadlineSeconds: 10}}` started
 * at t=1000 ms → `{timeoutMs: 2000, backoffLimit: 3, deadlineMs: 11000}`.
 */
export function pullWorkerParams(tag: Pick<ImageTagSpec, 'pullPolicy'>, startMs: number): PullWorkerParams {
  const pp = tag.pullPolicy ?? {};
  const timeoutSeconds =
    typeof pp.timeoutSeconds === 'number' ? pp.timeoutSeconds : DEFAULT_PULL_TIMEOUT_SECONDS;
  let backoffLimit = typeof pp.backoffLimit === 'number' ? pp.backoffLimit : DEFAULT_PULL_BACKOFF_LIMIT;
  if (backoffLimit < 0) backoffLimit = DEFAULT_PULL_BACKOFF_LIMIT;
  const out: PullWorkerParams = { timeoutMs: timeoutSeconds * 1000, backoffLimit };
  if (typeof pp.activeDeadlineSeconds === 'number')
    out.deadlineMs = startMs + pp.activeDeadlineSeconds * 1000;
  return out;
}

/**
 * §7.5 items 2.1–2.2: the timeout of the next attempt, `min(timeout, deadline − now)`, or
 * `undefined` when the deadline has passed (then the worker stops trying).
 *
 * Example: timeout 600 s, deadline at 10 000 ms, now 7 500 ms → 2 500 ms; now 10 001 ms → `undefined`.
 */
export function attemptTimeoutMs(params: PullWorkerParams, nowMs: number): number | undefined {
  if (params.deadlineMs === undefined) return params.timeoutMs;
  if (nowMs > params.deadlineMs) return undefined;
  return Math.min(params.timeoutMs, params.deadlineMs - nowMs);
}

/**
 * §7.5 item 2.4: the sleep after failed attempt `i` (0-based): 1 s doubling, capped at 30 s.
 *
 * Example: attempts 0,1,2,3,4,5,6 → 1, 2, 4, 8, 16, 30, 30 s.
 */
export function backoffStepMs(attempt: number): number {
  return Math.min(PULL_BACKOFF_INITIAL_MS * 2 ** Math.max(0, attempt), PULL_BACKOFF_MAX_MS);
}

/** §7.5 item 2: the number of attempts, `backoffLimit + 1`. */
export function maxAttempts(params: PullWorkerParams): number {
  return params.backoffLimit + 1;
}

/** §7.6 item 2: the error text when a pull is stopped. */
export function pullStoppedMessage(name: string, tag: string): string {
  return `pulling image ${name}:${tag} is stopped`;
}

/** §7.6 item 2: the error text when an attempt hits its timeout. */
export function pullCanceledMessage(name: string, tag: string): string {
  return `pulling image ${name}:${tag} is canceled`;
}
