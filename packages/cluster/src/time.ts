// Time helpers of the cluster model: the virtual clock, scenario durations ("1m30s",
// "500ms", plain numbers = seconds) and kubectl's human-readable AGE format. Timestamps are
// formatted by core's epochMsToRFC3339, as everywhere else.
import { epochMsToRFC3339 } from '@kruise-ts/core';

/** Default start of simulated time: 2024-01-01T00:00:00Z. */
export const DEFAULT_START_TIME = '2024-01-01T00:00:00Z';

/**
 * The virtual clock. Time is an integer count of milliseconds since the
 * scenario's start; `now()` renders it as the RFC 3339 string (second
 * precision, UTC) that every API timestamp uses.
 *
 * Example: start `2024-01-01T00:00:00Z`, after `advanceTo(61_500)` the clock
 * reads `2024-01-01T00:01:01Z` (milliseconds are dropped, as in the API).
 */
export class VirtualClock {
  /** Epoch milliseconds of simulated time 0. */
  readonly startEpochMs: number;
  private ms = 0;

  constructor(startTime: string | Date = DEFAULT_START_TIME) {
    const d = typeof startTime === 'string' ? new Date(startTime) : startTime;
    const epoch = d.getTime();
    if (!Number.isFinite(epoch)) throw new RangeError(`invalid start time ${String(startTime)}`);
    this.startEpochMs = Math.floor(epoch / 1000) * 1000;
  }

  /** Milliseconds since the start. */
  get elapsedMs(): number {
    return this.ms;
  }

  /** Moves the clock forward (never backward). */
  advanceTo(ms: number): void {
    if (ms > this.ms) this.ms = ms;
  }

  private nowCache = { ms: -1, text: '' };

  /** The current time as an RFC 3339 string, second precision. */
  now(): string {
    if (this.nowCache.ms !== this.ms)
      this.nowCache = { ms: this.ms, text: epochMsToRFC3339(this.startEpochMs + this.ms) };
    return this.nowCache.text;
  }

  /** The RFC 3339 string of simulated time `ms`. */
  at(ms: number): string {
    return epochMsToRFC3339(this.startEpochMs + ms);
  }

  /** Simulated milliseconds of an RFC 3339 timestamp (may be negative). */
  toElapsedMs(timestamp: string): number {
    return new Date(timestamp).getTime() - this.startEpochMs;
  }
}

/**
 * `rfc3339(epochMs)`: epoch milliseconds as RFC 3339 at second precision in UTC
 * (`2024-01-01T00:00:00Z`), the cluster's public name for core's `epochMsToRFC3339`.
 */
export { epochMsToRFC3339 as rfc3339 } from '@kruise-ts/core';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a scenario duration into milliseconds, or returns undefined when it is
 * malformed. A number is seconds (`2.5` → 2500); a string is a sequence of
 * `<number><unit>` with units ms, s, m, h, d (`"1m30s"` → 90000, `"500ms"` → 500).
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (s === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let pos = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
  }
  if (pos !== s.length) return undefined;
  return Math.round(total);
}

/**
 * A compact duration for logs and summaries: `0s`, `45s`, `2m5s`, `1h2m3s`,
 * `1.5s` (fractions shown only below one minute).
 */
export function formatDuration(ms: number): string {
  if (ms < 60_000) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1).replace(/\.0$/, '')}s`;
  }
  let rest = Math.floor(ms / 1000);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s > 0 || (h === 0 && m === 0) ? `${s}s` : ''}`;
}

/**
 * kubectl's AGE column (apimachinery `duration.HumanDuration`): seconds up to
 * 2 minutes (`119s`), then `2m5s` up to 10 minutes, whole minutes up to 3 hours
 * (`95m`), `4h10m` up to 8 hours, hours up to 2 days, `3d4h` up to 8 days, then days.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}
