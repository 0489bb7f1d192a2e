// Ordinals of an Advanced StatefulSet (docs/reference/statefulset.md §3.1–§3.3): parsing a pod name
// into (parent, ordinal) (R3.1, R3.2), the reserved-ordinal set (R3.3), the replica range
// and its slots (R3.4–R3.7), and the pod and claim names (R3.9, R3.13).
import type { IntOrString, StatefulSet } from '@kruise-ts/api';
import type { FeatureGates } from '@kruise-ts/core';

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
  // Scanning back over the trailing digits is the regex's match, without a regex per pod.
  let i = name.length - 1;
  while (i >= 0) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i--;
  }
  if (i === name.length - 1 || i < 0 || name.charCodeAt(i) !== 45) return { parent: '', ordinal: -1 };
  const digits = name.slice(i + 1);
  const n = Number(digits);
  return { parent: name.slice(0, i), ordinal: n <= INT32_MAX ? n : -1 };
}

/** The ordinal of a pod name (R3.1), `-1` when it has none. */
export function ordinalOf(podName: string | undefined): number {
  return parentNameAndOrdinal(podName).ordinal;
}

/** R3.2 `isMemberOf`: the parsed parent of the pod name equals the set name. */
export function isMemberOf(setName: string, podName: string | undefined): boolean {
  return parentNameAndOrdinal(podName).parent === setName;
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
 * every integer in `[a, b]`.
 *
 * **Quirk:** one malformed string discards the whole list — `undefined` is returned and the
 * controller then reserves nothing (even valid ints seen earlier).
 *
 * Examples: `[1, "2-3"]` → {1, 2, 3}; `["1-3", "2-4"]` → {1, 2, 3, 4}; `["0003-005"]` → {3, 4, 5};
 * `["03-001"]`, `["1-2-3"]`, `["1-%"]` → `undefined`.
 */
export function parseReserveOrdinals(
  reserveOrdinals: readonly IntOrString[] | null | undefined,
): Set<number> | undefined {
  const out = new Set<number>();
  for (const elem of reserveOrdinals ?? []) {
    if (typeof elem === 'number') {
      out.add(elem);
      continue;
    }
    const parts = String(elem).split('-');
    if (parts.length !== 2) return undefined;
    const start = atoi(parts[0]);
    const end = atoi(parts[1]);
    if (start === undefined || end === undefined || start > end) return undefined;
    // A range far beyond any replica range is irrelevant (R3.5); cap the enumeration so a
    // hostile "0-2000000000" cannot exhaust memory. Ordinals past the cap never matter because
    // `end` of the replica range is at most start + replicas + |reserved|.
    const last = Math.min(end, start + 1_000_000);
    for (let o = start; o <= last; o++) out.add(o);
  }
  return out;
}

/** R3.3 as the controller uses it: the reserved set, empty when the list is malformed. */
export function reservedOrdinalSet(set: StatefulSet): Set<number> {
  return parseReserveOrdinals(set.spec.reserveOrdinals) ?? new Set<number>();
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
  reserved: Set<number>;
}

/**
 * R3.4–R3.5: walks ordinals upward from `start`, skipping reserved ones, until `replicas`
 * non-reserved ordinals have been passed; `end` is exclusive. The desired ordinals are
 * `[start, end)` minus the reserved ones — always exactly `replicas` of them.
 *
 * Worked example (replicas 4, reserved {1, 3}): start 0 → ordinals {0, 2, 4, 5}, end 6 (6 slots);
 * start 2 → {2, 4, 5, 6}, end 7; start 3 → {4, 5, 6, 7}, end 8.
 */
export function replicaRange(replicas: number, start: number, reserved: Set<number>): ReplicaRange {
  let end = start;
  let count = 0;
  const want = Math.max(0, replicas);
  while (count < want) {
    if (!reserved.has(end)) count++;
    end++;
  }
  return { start, end, reserved };
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

/** The desired ordinals of a range, ascending (R3.5). */
export function desiredOrdinals(range: ReplicaRange): number[] {
  const out: number[] = [];
  for (let o = range.start; o < range.end; o++) if (!range.reserved.has(o)) out.push(o);
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
