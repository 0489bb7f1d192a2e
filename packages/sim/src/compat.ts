// The simulator's one door to @kruise-ts/core's low-level helpers: seeded
// PRNG, uids, patch appliers, selectors, quantities.
import { quantityToNumber } from '@kruise-ts/core';

export {
  applyMergePatch,
  createRng,
  deterministicUid,
  extend,
  findMatchingUntoleratedTaint,
  jsonEqual,
  matchesLabelSelector,
  matchesRequiredNodeAffinity,
  type Rng,
} from '@kruise-ts/core';
export { applyAction, createApplier } from '@kruise-ts/core/apply';

/** A Kubernetes quantity as a float (`"500m"` → 0.5, `"1Gi"` → 1073741824), undefined if malformed. */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (q === undefined || q === null) return undefined;
  try {
    return quantityToNumber(q);
  } catch {
    return undefined;
  }
}
