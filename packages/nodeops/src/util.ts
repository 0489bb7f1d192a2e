// Small helpers shared by the node-ops controllers: time arithmetic on `now` inputs,
// Go-compatible number parsing and formatting, owner references, object keys and the
// seeded jitter the specs ask for (docs/reference/daemon.md §11 items 1–2).
import type { KubeObject } from '@kruise-ts/api';
import { createRng, jsonEqual, type Now, parseTime, type Rng } from '@kruise-ts/core';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';

/** Epoch milliseconds of `now`, or `undefined` when it is not a valid time. */
export function nowMillis(now: Now): number | undefined {
  return parseTime(now)?.getTime();
}

/** Epoch milliseconds of an RFC 3339 field, or `undefined` when absent or malformed. */
export function timeMillis(s: string | null | undefined): number | undefined {
  return parseTime(s)?.getTime();
}

/**
 * Structural equality of JSON values: core's `jsonEqual` (key order ignored, a member holding
 * `undefined` counts as absent), with a missing value and `null` read as one, so an absent field
 * and a field written as `null` compare equal (e.g. a pod's `labels`, a CRR's `spec`).
 * Example: `sameJSON(undefined, null)` → true; `sameJSON({a: 1}, {a: 1, b: undefined})` → true.
 */
export function sameJSON(a: unknown, b: unknown): boolean {
  return jsonEqual(a ?? null, b ?? null);
}

/** A deep copy of JSON data. */
export function cloneJSON<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/**
 * Go's `strconv.Atoi` on a string: optional sign, decimal digits only, within int64.
 * Example: `atoi('+5')` → 5; `atoi('50%')`, `atoi('')`, `atoi('1.5')` → `undefined`.
 */
export function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) || Math.abs(n) < 9.3e18 ? n : undefined;
}

/**
 * IntOrString's integer conversion (`IntValue()`), used for `parallelism` (docs/reference/daemon.md §3.5):
 * an int is itself, a string is parsed as a decimal integer and anything unparsable is 0.
 * Example: `intOrStringValue(3)` → 3, `intOrStringValue('4')` → 4, `intOrStringValue('50%')` → 0.
 */
export function intOrStringValue(v: number | string | null | undefined, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  return atoi(v) ?? 0;
}

/**
 * Go's `fmt.Sprintf("%.1f", x)`: the exact binary value rounded to one decimal, exact ties to
 * even (JavaScript's `toFixed` rounds ties up). Example: 12.25 → `"12.2"`, 12.75 → `"12.8"`,
 * 100/3 → `"33.3"`.
 */
export function formatFixed1(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const tie = Number.isInteger(x * 4) && !Number.isInteger(x * 2);
  if (!tie) return x.toFixed(1);
  const n = Math.floor(x * 10);
  const even = n % 2 === 0 ? n : n + 1;
  const neg = even < 0;
  const abs = Math.abs(even);
  return `${neg ? '-' : ''}${Math.floor(abs / 10)}.${abs % 10}`;
}

/** The controller owner reference of an object, if any. */
export function controllerRef(obj: KubeObject | null | undefined): OwnerReference | undefined {
  return obj?.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** The group of an apiVersion (`apps.kruise.io/v1alpha1` → `apps.kruise.io`, `v1` → ``). */
export function groupOf(apiVersion: string | undefined): string {
  // a reference inside an observed object the structural check lets through untyped
  if (typeof apiVersion !== 'string') return '';
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** `"<namespace>/<name>"`, the key upstream uses for namespaced objects. */
export function nsName(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** Ascending string order (JavaScript code-unit order, as Go's byte order for ASCII). */
export function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Objects sorted by name, for a deterministic list order where upstream uses the cache's. */
export function sortByName<T extends KubeObject>(objs: readonly T[]): T[] {
  return [...objs].sort((a, b) => byString(a.metadata.name ?? '', b.metadata.name ?? ''));
}

/** A seeded generator for one reconcile (`options.seed`, 0 when not given). */
export function rngFor(seed: number | undefined): Rng {
  return createRng(seed ?? 0);
}

/** Seconds, rounded up to the millisecond so a virtual clock lands after the instant. */
export function seconds(ms: number): number {
  return Math.ceil(ms) / 1000;
}

/** The smallest of the defined positive values, or `undefined`. */
export function minDefined(...vals: (number | undefined)[]): number | undefined {
  let out: number | undefined;
  for (const v of vals) if (v !== undefined && (out === undefined || v < out)) out = v;
  return out;
}
