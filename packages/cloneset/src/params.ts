// Resolution of CloneSet's int-or-percent parameters (docs/reference/cloneset.md §5, rule D1):
// partition, maxSurge, maxUnavailable and scaleStrategy.maxUnavailable.
import type { CloneSet, CloneSetSpec, IntOrString } from '@kruise-ts/api';
import { calculatePartitionReplicas, legacyValueFromIntOrPercent } from '@kruise-ts/core';

/** `scaleStrategy.maxUnavailable` when unset: unlimited (int32 max). */
export const UNLIMITED = 2147483647;

/** The default of `updateStrategy.maxUnavailable` (§2.1). */
export const DEFAULT_MAX_UNAVAILABLE = '20%';

/** The resolved parameters of rule D1. */
export interface ResolvedParams {
  /** `spec.replicas` (1 when unset, as the webhook defaults it). */
  replicas: number;
  /** §5.2; 0 when unset or invalid. */
  partition: number;
  /** Set when the partition could not be parsed (status then leaves expectedUpdatedReplicas 0). */
  partitionError?: string;
  /** §5.1, rounded up; 0 when unset, invalid or paused. */
  maxSurge: number;
  /** §5.1, rounded up when maxSurge is 0 and down otherwise; default `"20%"`. */
  maxUnavailable: number;
  /** §5.1, rounded up; unlimited when unset. */
  scaleMaxUnavailable: number;
}

/** The legacy helper with the controller's error handling: a parse error yields 0 (§5.1). */
export function legacyOrZero(value: IntOrString, total: number, roundUp: boolean): number {
  try {
    return legacyValueFromIntOrPercent(value, total, roundUp);
  } catch {
    return 0;
  }
}

/**
 * The partition of §5.2, or 0 with the error message when it does not parse.
 *
 * Example: R=9 and `"99%"` → ceil(8.91) = 9, which equals R for a string that is not
 * `"100%"`, so it becomes 8; R=3 and integer 10 → clamped to 3.
 */
export function resolvePartition(
  partition: IntOrString | undefined,
  replicas: number | undefined,
): { value: number; error?: string } {
  try {
    return { value: calculatePartitionReplicas(partition, replicas) };
  } catch (e) {
    return { value: 0, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Rule D1 of docs/reference/cloneset.md §6: resolve partition, maxSurge, maxUnavailable and
 * scaleStrategy.maxUnavailable against `R = spec.replicas`.
 *
 * Example (§6.2): R=5, partition `"99%"`, maxUnavailable `"40%"`, maxSurge `"30%"`:
 * partition = ceil(4.95) = 5 → 4; maxSurge = ceil(1.5) = 2; maxUnavailable = floor(2.0) = 2
 * because maxSurge > 0. With maxUnavailable `"30%"` it is floor(1.5) = 1. With `paused` the
 * surge is 0, and `"30%"` rounds up to 2.
 */
export function resolveParams(cloneSet: CloneSet): ResolvedParams {
  // A CloneSet read from user data may lack its spec: then every field is unset.
  const spec: Partial<CloneSetSpec> = cloneSet.spec ?? {};
  const replicas = spec.replicas ?? 1;
  const us = spec.updateStrategy ?? {};
  const p = resolvePartition(us.partition, spec.replicas);
  let maxSurge = 0;
  if (us.maxSurge !== undefined && us.maxSurge !== null) maxSurge = legacyOrZero(us.maxSurge, replicas, true);
  if (us.paused) maxSurge = 0;
  const maxUnavailable = legacyOrZero(us.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, replicas, maxSurge === 0);
  const smu = spec.scaleStrategy?.maxUnavailable;
  const scaleMaxUnavailable =
    smu === undefined || smu === null ? UNLIMITED : legacyOrZero(smu, replicas, true);
  const out: ResolvedParams = { replicas, partition: p.value, maxSurge, maxUnavailable, scaleMaxUnavailable };
  if (p.error !== undefined) out.partitionError = p.error;
  return out;
}
