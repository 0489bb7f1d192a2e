// The one place this package imports @kruise-ts/core's shared helpers from, plus the few
// small ones core does not offer in the shape needed here.
import { type LabelRequirement, labelSelectorAsRequirements, requirementMatches } from '@kruise-ts/core';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

export {
  canonicalJSON,
  computeHash,
  createRng,
  fnv32a,
  getPodCondition,
  isHooked,
  isPodAvailable,
  isPodReady,
  matchNodeSelectorTerms,
  mergePatchDiff,
  randomSuffix,
  scaledValueFromIntOrPercent,
  setPodLifecycleState,
  tolerationToleratesTaint,
  toRFC3339,
} from '@kruise-ts/core';

/** Label selector matching, as core's `matchesLabelSelector` (see {@link labelSelectorMatcher}). */
export function labelSelectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string>,
): boolean {
  return labelSelectorMatcher(selector)(labels);
}

/**
 * Core's `matchesLabelSelector` with the selector converted to requirements once (Kubernetes'
 * `LabelSelectorAsSelector`), for matching one selector against many label sets: no selector
 * or an invalid one matches nothing, an empty one everything, otherwise every requirement
 * must match.
 */
export function labelSelectorMatcher(
  selector: LabelSelector | undefined,
): (labels: Record<string, string>) => boolean {
  let requirements: LabelRequirement[] | null;
  try {
    requirements = labelSelectorAsRequirements(selector);
  } catch {
    requirements = null;
  }
  if (requirements === null) return () => false;
  const reqs = requirements;
  return (labels) => reqs.every((r) => requirementMatches(r, labels));
}

/** Seconds since the epoch of an RFC 3339 string or a Date; NaN when unparsable. */
export function toEpochSeconds(t: string | Date | undefined | null): number {
  if (t === undefined || t === null) return Number.NaN;
  const ms = typeof t === 'string' ? Date.parse(t) : t.getTime();
  return Number.isFinite(ms) ? ms / 1000 : Number.NaN;
}

/** True when the selector has neither matchLabels nor matchExpressions (`{}` selects everything). */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return (
    !!selector &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0
  );
}
