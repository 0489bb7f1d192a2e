// The one place this package imports @kruise-ts/core's shared helpers from, plus the few
// small ones core does not offer in the shape needed here.
import { matchesLabelSelector } from '@kruise-ts/core';
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

/** Label selector matching (core's `matchesLabelSelector`). */
export function labelSelectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string>,
): boolean {
  return matchesLabelSelector(selector, labels);
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
