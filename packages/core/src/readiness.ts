// Pod readiness and availability (docs/reference/core.md §5): conditions, Ready (R5.1),
// Kubernetes' Available (R5.2), active/terminating pods, the set-condition rule (R5.5)
// and the Ready recomputation from readiness gates (R5.4). Also the time helpers every
// rule here needs: `now` is always an input (RFC 3339 string or Date).
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { KruiseError } from './errors';

// ---- time ---------------------------------------------------------------------

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
export function timeOf(now: string | Date): number {
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
export function toRFC3339(now: string | Date): string {
  if (typeof now === 'string' && isCanonicalRFC3339(now)) return now; // already in this form
  const ms = timeOf(now);
  const secs = Math.floor(ms / 1000) * 1000;
  return new Date(secs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Seconds from `from` to `to` (negative when `to` is earlier), with millisecond precision.
 * Example: `secondsBetween('2024-01-01T00:00:00Z', '2024-01-01T00:01:30Z')` → 90.
 * @throws KruiseError for an invalid time.
 */
export function secondsBetween(from: string | Date, to: string | Date): number {
  return (timeOf(to) - timeOf(from)) / 1000;
}

// ---- conditions -----------------------------------------------------------------

/** The pod condition of that type, if any. */
export function getPodCondition(pod: Pod | null | undefined, type: string): PodCondition | undefined {
  return pod?.status?.conditions?.find((c) => c.type === type);
}

/** R5.1: the pod has condition `Ready` with status `True`. */
export function isPodReady(pod: Pod | null | undefined): boolean {
  return getPodCondition(pod, 'Ready')?.status === 'True';
}

/**
 * R5.2, Kubernetes' `IsPodAvailable`: Ready, and either `minReadySeconds == 0` or the Ready
 * condition has a non-zero `lastTransitionTime` with `lastTransitionTime + minReadySeconds`
 * **strictly before** `now`.
 *
 * Example: Ready since 10:00:00, minReadySeconds 10 → not available at 10:00:10, available
 * at 10:00:11 (and at 10:00:10.5).
 */
export function isPodAvailable(
  pod: Pod | null | undefined,
  minReadySeconds: number,
  now: string | Date,
): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = parseTime(getPodCondition(pod, 'Ready')?.lastTransitionTime);
  if (since === null) return false;
  return since.getTime() + minReadySeconds * 1000 < timeOf(now);
}

/** When the pod became Ready (its Ready=True condition's `lastTransitionTime`), else `null`. */
export function podReadySince(pod: Pod | null | undefined): Date | null {
  const c = getPodCondition(pod, 'Ready');
  return c?.status === 'True' ? parseTime(c.lastTransitionTime) : null;
}

/** The pod has a `deletionTimestamp`. */
export function isPodTerminating(pod: Pod | null | undefined): boolean {
  return !!pod?.metadata?.deletionTimestamp;
}

/** Kubernetes' `IsPodActive`: phase is neither Succeeded nor Failed and no `deletionTimestamp`. */
export function isPodActive(pod: Pod | null | undefined): boolean {
  if (!pod) return false;
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isPodTerminating(pod);
}

/**
 * R5.5 "set condition": returns a new list. The condition of the same type is replaced
 * entirely only when its `status` differs (same status keeps the old one, message included);
 * a new type is appended. With `ifMessageChanged`, a different `message` also replaces it.
 *
 * Example: `[{type:'A',status:'True',message:'m0'}]` + `{type:'A',status:'True',message:'m1'}`
 * → unchanged; + `{type:'A',status:'False'}` → `[{type:'A',status:'False'}]`.
 */
export function setCondition<C extends { type: string; status: string; message?: string }>(
  conditions: readonly C[] | null | undefined,
  cond: C,
  opts: { ifMessageChanged?: boolean } = {},
): C[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === cond.type);
  if (i < 0) {
    list.push(cond);
    return list;
  }
  const old = list[i];
  const changed =
    old.status !== cond.status ||
    (opts.ifMessageChanged === true && (old.message ?? '') !== (cond.message ?? ''));
  if (changed) list[i] = cond;
  return list;
}

/** R5.5 on a pod: a new pod whose `status.conditions` went through {@link setCondition}. */
export function setPodCondition(
  pod: Pod,
  cond: PodCondition,
  opts: { ifMessageChanged?: boolean } = {},
): Pod {
  return {
    ...pod,
    status: { ...(pod.status ?? {}), conditions: setCondition(pod.status?.conditions, cond, opts) },
  };
}

/**
 * R5.4, `SetPodReadyCondition`: nothing happens unless the pod has a `Ready` condition and
 * `ContainersReady` is `True`. Then, for each readiness gate in order, a message is collected
 * if its condition is missing or not True; with messages, Ready becomes
 * `{status: False, reason: ReadinessGatesNotReady, message: <messages joined by ", ">}`,
 * otherwise `{status: True, lastTransitionTime: now}` — applied with R5.5. Returns a new pod.
 *
 * Example: gate `InPlaceUpdateReady` with condition False, Ready True, ContainersReady True →
 * Ready False, message `the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False`.
 */
export function recomputeReadyCondition(pod: Pod, now: string | Date): Pod {
  const ready = recomputedReadyCondition(pod.status?.conditions ?? [], pod.spec?.readinessGates, now);
  return ready === undefined ? pod : setPodCondition(pod, ready);
}

/**
 * The `Ready` condition R5.4 sets on a pod with these conditions and readiness gates (applied
 * with R5.5 by the caller), or `undefined` when R5.4 leaves the pod alone (no `Ready`
 * condition, or `ContainersReady` not True). Lets a caller that is already building a new
 * condition list recompute Ready on the list, without an intermediate pod. Conditions are
 * looked up by their first occurrence, as {@link getPodCondition} does.
 */
export function recomputedReadyCondition(
  conditions: readonly PodCondition[],
  readinessGates: readonly { conditionType: string }[] | null | undefined,
  now: string | Date,
): PodCondition | undefined {
  if (firstOfType(conditions, 'Ready') === undefined) return undefined;
  if (firstOfType(conditions, 'ContainersReady')?.status !== 'True') return undefined;
  const messages: string[] = [];
  for (const gate of readinessGates ?? []) {
    const c = firstOfType(conditions, gate.conditionType);
    if (c === undefined) {
      messages.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    } else if (c.status !== 'True') {
      messages.push(
        `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`,
      );
    }
  }
  return messages.length > 0
    ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: messages.join(', ') }
    : { type: 'Ready', status: 'True', lastTransitionTime: toRFC3339(now) };
}

/** The first condition of the type in the list. */
function firstOfType(conditions: readonly PodCondition[], type: string): PodCondition | undefined {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}
