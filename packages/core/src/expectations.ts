// Expectation caches as explicit immutable values (docs/reference/core.md §8): scale expectations,
// update expectations and resourceVersion expectations, for shells that read from a lagging
// cache and want kruise-identical skipping. Value in, value out; `now` is always an input.
// A pure reconcile fed fresh state does not need them (§8 points 1–3).
// Every function taking `now` throws KruiseError (from ./kube/time) when it is not a valid time.
import { timeOf, toRFC3339 } from './kube/time';

/** The default `--expectation-timeout`: 5 minutes (docs/reference/core.md §8). */
export const EXPECTATION_TIMEOUT_SECONDS = 300;

/** The outcome of a "satisfied?" check. */
export interface ExpectationCheck {
  /** Nothing is pending any more (the value kruise's tests assert). */
  satisfied: boolean;
  /** Something is pending and the timeout has passed since the expectations were first recorded. */
  expired: boolean;
  /** `satisfied || expired`: the reconcile may go on (§8: skip "until all are observed or 5 minutes pass"). */
  proceed: boolean;
  /** Seconds until expiry, rounded up, when neither satisfied nor expired; else 0 (a `requeueAfter`). */
  waitSeconds: number;
}

/**
 * Shared check: satisfied when nothing is pending; expired when the timeout has elapsed since
 * `since`. Example: since 00:00:00, now 00:04:00, timeout 300 → not expired, waitSeconds 60.
 */
function check(
  pending: boolean,
  since: string | undefined,
  now: string | Date,
  timeoutSeconds: number,
): ExpectationCheck {
  if (!pending) return { satisfied: true, expired: false, proceed: true, waitSeconds: 0 };
  const elapsedMs = since === undefined ? 0 : timeOf(now) - timeOf(since);
  const remainingMs = timeoutSeconds * 1000 - elapsedMs;
  if (remainingMs <= 0) return { satisfied: false, expired: true, proceed: true, waitSeconds: 0 };
  return { satisfied: false, expired: false, proceed: false, waitSeconds: Math.ceil(remainingMs / 1000) };
}

/** The own entry of `key` (never an inherited property such as `toString`). */
function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function without<V>(record: Readonly<Record<string, V>>, key: string): Record<string, V> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

// ---- scale expectations ------------------------------------------------------------------

/** A scale action whose effect the controller waits to observe. */
export type ScaleAction = 'create' | 'delete';

/** Pending scale expectations of one workload key. */
export interface ScaleExpectationEntry {
  /** Names created but not yet observed. */
  create: readonly string[];
  /** Names deleted but not yet observed gone. */
  delete: readonly string[];
  /** RFC 3339 time of the first expectation of the current pending period. */
  since: string;
}

/** Scale expectations per workload key (`namespace/name`); plain JSON a shell can store. */
export type ScaleExpectations = Readonly<Record<string, ScaleExpectationEntry>>;

/**
 * Records that the controller created (or deleted) the object `name` for workload `key` at `now`.
 * Returns the same value when the name is already expected.
 *
 * Example: `expectScale({}, 'default/cs01', 'create', 'pod01', now)` →
 * `{'default/cs01': {create: ['pod01'], delete: [], since: now}}`.
 * @throws KruiseError when `now` (or a stored `since`) is not a valid time.
 */
export function expectScale(
  exp: ScaleExpectations,
  key: string,
  action: ScaleAction,
  name: string,
  now: string | Date,
): ScaleExpectations {
  const entry = own(exp, key) ?? { create: [], delete: [], since: toRFC3339(now) };
  if (entry[action].includes(name)) return exp;
  return { ...exp, [key]: { ...entry, [action]: [...entry[action], name] } };
}

/**
 * Records that the cache now shows the effect of `action` on `name` for workload `key`. An
 * observation nobody expected changes nothing (the same value is returned); when the last
 * pending name of a key is observed the key is removed.
 */
export function observeScale(
  exp: ScaleExpectations,
  key: string,
  action: ScaleAction,
  name: string,
): ScaleExpectations {
  const entry = own(exp, key);
  if (!entry?.[action].includes(name)) return exp;
  const next = { ...entry, [action]: entry[action].filter((n) => n !== name) };
  if (next.create.length === 0 && next.delete.length === 0) return without(exp, key);
  return { ...exp, [key]: next };
}

/**
 * Whether workload `key` may be reconciled: satisfied when all its created/deleted names were
 * observed; expired when some are still pending `timeoutSeconds` (default 300) after the first
 * expectation. Also returns the pending names.
 *
 * Example (upstream `TestScale`): expect create pod01, create pod02, delete pod01 → not satisfied;
 * observe create pod02 and pod01 → still not satisfied (delete pending); observe delete pod01 →
 * satisfied.
 * @throws KruiseError when `now` (or a stored `since`) is not a valid time.
 */
export function scaleExpectationsSatisfied(
  exp: ScaleExpectations,
  key: string,
  now: string | Date,
  timeoutSeconds = EXPECTATION_TIMEOUT_SECONDS,
): ExpectationCheck & { pending: { create: string[]; delete: string[] } } {
  const entry = own(exp, key);
  const pending = { create: [...(entry?.create ?? [])], delete: [...(entry?.delete ?? [])] };
  const any = pending.create.length + pending.delete.length > 0;
  return { ...check(any, entry?.since, now, timeoutSeconds), pending };
}

/** Forgets every scale expectation of workload `key` (e.g. after expiry or when the workload is deleted). */
export function deleteScaleExpectations(exp: ScaleExpectations, key: string): ScaleExpectations {
  return own(exp, key) ? without(exp, key) : exp;
}

// ---- update expectations (Advanced StatefulSet; docs/reference/operator.md §E4.5) -------

/** Pods of one workload updated to `revision` but not yet seen at it. */
export interface UpdateExpectationEntry {
  revision: string;
  /** Pod keys (`namespace/name`). */
  pods: readonly string[];
  /** RFC 3339 time of the first expectation for this revision. */
  since: string;
}

/** Update expectations per workload key. */
export type UpdateExpectations = Readonly<Record<string, UpdateExpectationEntry>>;

/**
 * Records that pod `podKey` of workload `key` was updated to `revision`. Expectations recorded
 * for another revision are dropped (the new revision supersedes them).
 * @throws KruiseError when `now` (or a stored `since`) is not a valid time.
 */
export function expectUpdated(
  exp: UpdateExpectations,
  key: string,
  revision: string,
  podKey: string,
  now: string | Date,
): UpdateExpectations {
  const entry = own(exp, key);
  if (!entry || entry.revision !== revision) {
    return { ...exp, [key]: { revision, pods: [podKey], since: toRFC3339(now) } };
  }
  if (entry.pods.includes(podKey)) return exp;
  return { ...exp, [key]: { ...entry, pods: [...entry.pods, podKey] } };
}

/**
 * Records that the cache lists pod `podKey` of workload `key`, whose update revision is now
 * `revision`, with the revision label `podRevision` (docs/reference/operator.md §E4.5,
 * docs/reference/statefulset.md §R4.8):
 *
 * - a pod in the entry, seen at the entry's revision, is ticked off; the key is removed when none
 *   is left;
 * - a pod still at another revision while the update revision is the expected one (the cache
 *   lags the in-place update) changes nothing;
 * - when the update revision is no longer the expected one, the whole entry is dropped, whichever
 *   pod is seen. A rollback from A to B and forward to A again then starts from a fresh entry:
 *   with the old entry kept, the return to A would wait on pods that were rolled back to B and
 *   that nobody updates to A while the update waits, until the expectation timeout.
 *
 * Example: expect A for p1, p2; observe p1 with the update revision at B → `{}`; expect A for p3;
 * observe p3 at A → satisfied.
 */
export function observeUpdated(
  exp: UpdateExpectations,
  key: string,
  revision: string,
  podKey: string,
  podRevision: string,
): UpdateExpectations {
  const entry = own(exp, key);
  if (!entry) return exp;
  if (entry.revision !== revision) return without(exp, key);
  if (podRevision !== revision || !entry.pods.includes(podKey)) return exp;
  const pods = entry.pods.filter((p) => p !== podKey);
  return pods.length === 0 ? without(exp, key) : { ...exp, [key]: { ...entry, pods } };
}

/**
 * Whether workload `key` may act for update revision `revision`: satisfied when no pod updated
 * to that revision is still unobserved. Expectations recorded for a different revision are
 * stale and do not block.
 * @throws KruiseError when `now` (or a stored `since`) is not a valid time.
 */
export function updateExpectationsSatisfied(
  exp: UpdateExpectations,
  key: string,
  revision: string,
  now: string | Date,
  timeoutSeconds = EXPECTATION_TIMEOUT_SECONDS,
): ExpectationCheck & { pending: string[] } {
  const entry = own(exp, key);
  const pending = entry && entry.revision === revision ? [...entry.pods] : [];
  return { ...check(pending.length > 0, entry?.since, now, timeoutSeconds), pending };
}

/** Forgets the update expectations of workload `key`. */
export function deleteUpdateExpectations(exp: UpdateExpectations, key: string): UpdateExpectations {
  return own(exp, key) ? without(exp, key) : exp;
}

// ---- resourceVersion expectations --------------------------------------------------------

/** The resourceVersion the controller produced for one object. */
export interface ResourceVersionExpectationEntry {
  resourceVersion: string;
  /** RFC 3339 time of the first expectation. */
  since: string;
}

/** resourceVersion expectations per object uid. */
export type ResourceVersionExpectations = Readonly<Record<string, ResourceVersionExpectationEntry>>;

const UINT64_MAX = 18446744073709551615n;

/** A resourceVersion as an unsigned 64-bit integer, or `undefined` when it is not one. */
function parseResourceVersion(rv: string): bigint | undefined {
  if (!/^[0-9]+$/.test(rv)) return undefined;
  const n = BigInt(rv);
  return n > UINT64_MAX ? undefined : n;
}

/**
 * docs/reference/core.md §8: is an `observed` resourceVersion at least the `expected` one, both read as
 * unsigned integers? A non-numeric expected value is always satisfied; a non-numeric observed
 * value never is.
 *
 * Examples: ("2", "2") → true; ("1", "2") → false; ("10", "9") → true (numeric, not text, order);
 * ("5", "abc") → true; ("abc", "5") → false.
 */
export function isResourceVersionSatisfied(observed: string, expected: string): boolean {
  const e = parseResourceVersion(expected);
  if (e === undefined) return true;
  const o = parseResourceVersion(observed);
  return o !== undefined && o >= e;
}

/**
 * Records that the controller wrote object `uid` and got `resourceVersion` back. An existing
 * expectation is replaced only by a newer (or equal) resourceVersion; the earliest `since` is kept.
 * @throws KruiseError when `now` (or a stored `since`) is not a valid time.
 */
export function expectResourceVersion(
  exp: ResourceVersionExpectations,
  uid: string,
  resourceVersion: string,
  now: string | Date,
): ResourceVersionExpectations {
  const entry = own(exp, uid);
  if (!entry) return { ...exp, [uid]: { resourceVersion, since: toRFC3339(now) } };
  if (entry.resourceVersion === resourceVersion) return exp;
  if (!isResourceVersionSatisfied(resourceVersion, entry.resourceVersion)) return exp;
  return { ...exp, [uid]: { ...entry, resourceVersion } };
}

/**
 * Records that the cache shows object `uid` at `resourceVersion`: the expectation is cleared when
 * that version satisfies it, kept otherwise.
 */
export function observeResourceVersion(
  exp: ResourceVersionExpectations,
  uid: string,
  resourceVersion: string,
): ResourceVersionExpectations {
  const entry = own(exp, uid);
  if (!entry || !isResourceVersionSatisfied(resourceVersion, entry.resourceVersion)) return exp;
  return without(exp, uid);
}

/**
 * Whether the cached copy of object `uid` at `resourceVersion` is fresh enough: satisfied when
 * nothing is expected or the version satisfies the expectation ({@link isResourceVersionSatisfied}).
 *
 * Example (upstream `TestResourceVersionExpectation`): expect "2", observe "1" → a copy at "1" is
 * not satisfied, a copy at "2" is.
 * @throws KruiseError when `now` (or a stored `since`) is not a valid time.
 */
export function resourceVersionSatisfied(
  exp: ResourceVersionExpectations,
  uid: string,
  resourceVersion: string,
  now: string | Date,
  timeoutSeconds = EXPECTATION_TIMEOUT_SECONDS,
): ExpectationCheck {
  const entry = own(exp, uid);
  const pending = entry !== undefined && !isResourceVersionSatisfied(resourceVersion, entry.resourceVersion);
  return check(pending, entry?.since, now, timeoutSeconds);
}

/** Forgets the resourceVersion expectation of object `uid`. */
export function deleteResourceVersionExpectations(
  exp: ResourceVersionExpectations,
  uid: string,
): ResourceVersionExpectations {
  return own(exp, uid) ? without(exp, uid) : exp;
}
