// Time as Kubernetes writes it (metav1.Time): RFC 3339 text in UTC with whole seconds, Go's zero
// time read as "no time". Pure functions never read a clock: `now` is always an input, a
// {@link Now}, and these helpers parse, compare and format it. The controllers, the shells and the
// daemon import them from @kruise-ts/core rather than keep their own.
import { KruiseError } from '../contract/errors';

/** A point in time as accepted by every pure function: RFC 3339 text or a Date. */
export type Now = string | Date;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** Go's zero time `0001-01-01T00:00:00Z`, which Kubernetes serialises as `null` (docs/reference/core.md §0.3). */
const ZERO_MS = Date.parse('0001-01-01T00:00:00Z');

/**
 * Parses an RFC 3339 timestamp (`2024-01-01T00:00:00Z`, offsets and fractions accepted).
 * Returns `null` for a zero time — absent, `null`, `""` or Go's `0001-01-01T00:00:00Z` — and
 * for text that is not RFC 3339 (never throws).
 */
export function parseTime(s: string | Date | null | undefined): Date | null {
  if (s === null || s === undefined || s === '') return null;
  if (s instanceof Date) {
    const ms = s.getTime();
    return Number.isNaN(ms) || ms === ZERO_MS ? null : new Date(ms);
  }
  if (typeof s !== 'string' || !RFC3339.test(s)) return null;
  const ms = Date.parse(s.toUpperCase());
  if (Number.isNaN(ms) || ms === ZERO_MS) return null;
  return new Date(ms);
}

/** `now` (RFC 3339 string or Date) in epoch milliseconds. @throws KruiseError if it is not a valid time. */
export function timeOf(now: Now): number {
  const ms =
    now instanceof Date ? now.getTime() : RFC3339.test(now) ? Date.parse(now.toUpperCase()) : Number.NaN;
  if (Number.isNaN(ms)) throw new KruiseError(`invalid time ${JSON.stringify(String(now))}`, now);
  return ms;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * True when `s` is exactly what {@link toRFC3339} would return for it: `YYYY-MM-DDTHH:MM:SSZ`
 * with every field in range (Date.parse rolls `2024-02-30` over to March 1, so the day is
 * checked against the month). The fast path of per-pod time formatting: no Date and no regex
 * match is built, only the 20 characters are read.
 */
function isCanonicalRFC3339(s: string): boolean {
  if (
    s.length !== 20 ||
    s.charCodeAt(4) !== 45 || // -
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 || // T
    s.charCodeAt(13) !== 58 || // :
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 90 // Z
  )
    return false;
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hour = digitsAt(s, 11, 2);
  const minute = digitsAt(s, 14, 2);
  const second = digitsAt(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || minute < 0 || second < 0) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const dim = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= dim && hour < 24 && minute < 60 && second < 60;
}

/** The decimal number written by the `n` ASCII digits of `s` at `at`; -1 if one is not a digit. */
function digitsAt(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Serialises a time as Kubernetes does: RFC 3339, UTC, whole seconds (fraction truncated).
 * Example: `toRFC3339('2024-01-01T08:00:00.900+08:00')` → `"2024-01-01T00:00:00Z"`.
 * @throws KruiseError if `now` is not a valid time.
 */
export function toRFC3339(now: Now): string {
  if (typeof now === 'string' && isCanonicalRFC3339(now)) return now; // already in this form
  const ms = timeOf(now);
  const secs = Math.floor(ms / 1000) * 1000;
  return new Date(secs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * {@link toRFC3339} of a count of epoch milliseconds, for the shells' clocks, which keep time as a
 * number: RFC 3339, UTC, whole seconds (fraction truncated).
 * Example: `epochMsToRFC3339(Date.parse('2024-01-01T00:00:05.900Z'))` → `"2024-01-01T00:00:05Z"`.
 * @throws KruiseError if `ms` is not a time (NaN, or beyond the range a Date holds).
 */
export function epochMsToRFC3339(ms: number): string {
  return toRFC3339(new Date(ms));
}

/**
 * Seconds from `from` to `to` (negative when `to` is earlier), with millisecond precision.
 * Example: `secondsBetween('2024-01-01T00:00:00Z', '2024-01-01T00:01:30Z')` → 90.
 * @throws KruiseError for an invalid time.
 */
export function secondsBetween(from: Now, to: Now): number {
  return (timeOf(to) - timeOf(from)) / 1000;
}

/**
 * `now` as RFC 3339 text (UTC, whole seconds), or `undefined` when it is not a valid time: an
 * entry point parses `now` once with this and passes the text on, which later formatting returns
 * without building a Date. Example: `validNowText('2024-01-01T08:00:00+08:00')` →
 * `"2024-01-01T00:00:00Z"`; `validNowText('yesterday')` → `undefined`.
 */
export function validNowText(now: Now): string | undefined {
  try {
    return toRFC3339(now);
  } catch {
    return undefined;
  }
}
