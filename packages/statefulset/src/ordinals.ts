// Ordinals of an Advanced StatefulSet (docs/reference/statefulset.md §3.1–§3.3): parsing a pod name
// into (parent, ordinal) (R3.1, R3.2), the reserved-ordinal set (R3.3), the replica range
// and its slots (R3.4–R3.7), and the pod and claim names (R3.9, R3.13). Ranges are kept as
// intervals and the replica range is computed from them, so no work here grows with
// `spec.replicas` or with the width of a reserved range.
import type { IntOrString, StatefulSet } from '@kruise-ts/api';
import type { FeatureGates } from '@kruise-ts/core';
import { type OrdinalInterval, OrdinalSet } from './ordinalSet';

const INT32_MAX = 2147483647;

/**
 * R3.1: splits a pod name into its parent (set) name and ordinal, as the greedy match of
 * `^(.*)-([0-9]+)$` does (the parent ends before the last `-<digits>`). No match → `("", -1)`;
 * a match whose digits overflow a signed 32-bit integer keeps the parent with ordinal `-1`.
 *
 * Examples: `foo-1` → (`foo`, 1); `my-set-20` → (`my-set`, 20); `foo-01` → (`foo`, 1);
 * `1-bar` → (`""`, −1); `foo` → (`""`, −1); `foo-99999999999` → (`foo`, −1).
 */
export function parentNameAndOrdinal(podName: string | undefined): { parent: string; ordinal: number } {
  const name = podName ?? '';
  const dash = ordinalDash(name);
  if (dash < 0) return { parent: '', ordinal: -1 };
  return { parent: name.slice(0, dash), ordinal: ordinalAfter(name, dash) };
}

/**
 * Where the `-` before a name's trailing digits is, or -1 when the name does not end in
 * `<parent>-<digits>`: scanning back over the digits is the regex's match, without a regex per pod.
 */
function ordinalDash(name: string): number {
  let i = name.length - 1;
  while (i >= 0) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i--;
  }
  return i === name.length - 1 || i < 0 || name.charCodeAt(i) !== 45 ? -1 : i;
}

/** The decimal value of the digits after `dash`, -1 past a signed 32-bit integer. */
function ordinalAfter(name: string, dash: number): number {
  let n = 0;
  for (let i = dash + 1; i < name.length; i++) {
    n = n * 10 + (name.charCodeAt(i) - 48);
    if (n > INT32_MAX) return -1;
  }
  return n;
}

/** The ordinal of a pod name (R3.1), `-1` when it has none; parses without slicing the name. */
export function ordinalOf(podName: string | undefined): number {
  const name = podName ?? '';
  const dash = ordinalDash(name);
  return dash < 0 ? -1 : ordinalAfter(name, dash);
}

/**
 * R3.2 `isMemberOf`: the parsed parent of the pod name equals the set name, that is the name is
 * the set name, a `-` and digits (compared in place, without slicing the parent out).
 */
export function isMemberOf(setName: string, podName: string | undefined): boolean {
  const name = podName ?? '';
  const dash = ordinalDash(name);
  // a name without `-<digits>` parses to the parent ""
  return dash < 0 ? setName === '' : dash === setName.length && name.startsWith(setName);
}

/** Go's `strconv.Atoi` on one part of a range: decimal digits with an optional sign. */
function atoi(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * R3.3: `reserveOrdinals` as a set of ordinals. An int element is itself; a string element must
 * be `"a-b"` (exactly two decimal parts, leading zeros and a sign accepted) with `a ≤ b`, and adds
 * every integer in `[a, b]` — kept as one interval, so `"0-2147483647"` costs what `"1-3"` does.
 * An int element that is not whole (no API server admits one) reserves nothing.
 *
 * **Quirk:** one malformed string discards the whole list — `undefined` is returned and the
 * controller then reserves nothing (even valid ints seen earlier).
 *
 * Examples: `[1, "2-3"]` → {1, 2, 3}; `["1-3", "2-4"]` → {1, 2, 3, 4}; `["0003-005"]` → {3, 4, 5};
 * `["03-001"]`, `["1-2-3"]`, `["1-%"]` → `undefined`.
 */
export function parseReserveOrdinals(
  reserveOrdinals: readonly IntOrString[] | null | undefined,
): OrdinalSet | undefined {
  const out: OrdinalInterval[] = [];
  for (const elem of reserveOrdinals ?? []) {
    if (typeof elem === 'number') {
      out.push({ lo: elem, hi: elem });
      continue;
    }
    const parts = String(elem).split('-');
    if (parts.length !== 2) return undefined;
    const start = atoi(parts[0]);
    const end = atoi(parts[1]);
    if (start === undefined || end === undefined || start > end) return undefined;
    out.push({ lo: start, hi: end });
  }
  return OrdinalSet.from(out);
}

/** R3.3 as the controller uses it: the reserved set, empty when the list is malformed. */
export function reservedOrdinalSet(set: StatefulSet): OrdinalSet {
  return parseReserveOrdinals(set.spec.reserveOrdinals) ?? OrdinalSet.empty;
}

/** R3.4: the first ordinal — `spec.ordinals.start` with gate `StatefulSetStartOrdinal`, else 0. */
export function startOrdinal(set: StatefulSet, gates: Pick<FeatureGates, 'StatefulSetStartOrdinal'>): number {
  if (gates.StatefulSetStartOrdinal && set.spec.ordinals) return set.spec.ordinals.start ?? 0;
  return 0;
}

/** The replica range of one round (R3.4–R3.6). */
export interface ReplicaRange {
  /** First ordinal (R3.4). */
  start: number;
  /** Exclusive end ordinal (R3.5). */
  end: number;
  /** Reserved ordinals (R3.3). */
  reserved: OrdinalSet;
}

/**
 * R3.4–R3.5: walks ordinals upward from `start`, skipping reserved ones, until `replicas`
 * non-reserved ordinals have been passed; `end` is exclusive. The desired ordinals are
 * `[start, end)` minus the reserved ones — always exactly `replicas` of them.
 *
 * The walk is computed interval by interval: `end` starts at `start + replicas` and moves up by
 * the length of each reserved interval that begins below it (from `start` on), so 2,147,483,647
 * replicas take as long as 3. `reserved` may be any set of numbers (a `Set` is converted).
 *
 * Worked example (replicas 4, reserved {1, 3}): start 0 → ordinals {0, 2, 4, 5}, end 6 (6 slots);
 * start 2 → {2, 4, 5, 6}, end 7; start 3 → {4, 5, 6, 7}, end 8.
 */
export function replicaRange(
  replicas: number,
  start: number,
  reserved: ReadonlySet<number> | OrdinalSet,
): ReplicaRange {
  const set = OrdinalSet.of(reserved);
  // A fractional count is walked up to the next whole one, as `count < replicas` does.
  let end = start + (replicas > 0 ? Math.ceil(replicas) : 0);
  for (const r of set.intervals()) {
    if (r.hi < start) continue;
    const lo = Math.max(r.lo, start);
    if (lo >= end) break;
    // Every ordinal of [lo, hi] is skipped, and the interval ends below the new end.
    end += r.hi - lo + 1;
  }
  return { start, end, reserved: set };
}

/** R3.4–R3.5 for a set: `spec.replicas` (default 1), the start ordinal and the reserved set. */
export function statefulSetReplicaRange(
  set: StatefulSet,
  gates: Pick<FeatureGates, 'StatefulSetStartOrdinal'>,
): ReplicaRange {
  return replicaRange(set.spec.replicas ?? 1, startOrdinal(set, gates), reservedOrdinalSet(set));
}

/** R3.6: `start ≤ ordinal < end` and not reserved. */
export function inRange(range: ReplicaRange, ordinal: number): boolean {
  return ordinal >= range.start && ordinal < range.end && !range.reserved.has(ordinal);
}

/** How many desired ordinals (R3.5) are at most `ordinal`: 0 below `start`, `replicas` from `end − 1` on. */
export function desiredUpTo(range: ReplicaRange, ordinal: number): number {
  const to = Math.min(ordinal + 1, range.end);
  if (to <= range.start) return 0;
  return to - range.start - range.reserved.countIn(range.start, to);
}

/**
 * The desired ordinals of a range, ascending (R3.5) — the first `limit` of them (default: all,
 * which is `replicas` numbers; the controller never asks for the whole list).
 *
 * Example: replicas 4, reserved {1, 3} → `[0, 2, 4, 5]`; with limit 2 → `[0, 2]`.
 */
export function desiredOrdinals(range: ReplicaRange, limit = Number.POSITIVE_INFINITY): number[] {
  const out: number[] = [];
  let o = range.start;
  while (o < range.end && out.length < limit) {
    const r = range.reserved.intervalOf(o);
    if (r) o = r.hi + 1;
    else out.push(o++);
  }
  return out;
}

/** R3.9: `<setName>-<ordinal>` (decimal, no padding). */
export function podName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/** R3.13: the claim of template `templateName` for ordinal `ordinal`: `<template>-<set>-<ordinal>`. */
export function claimName(templateName: string, setName: string, ordinal: number): string {
  return `${templateName}-${setName}-${ordinal}`;
}
