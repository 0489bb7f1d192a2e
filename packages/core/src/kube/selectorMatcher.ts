// A label selector turned into a predicate once, for a controller that matches one selector
// against many label sets (every pod of a namespace, every node of a cluster): the selector is
// converted and validated when the predicate is made, and each call only tests requirements.
// The answers are those of ./selectors `matchesLabelSelector` with its default validation.
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { type LabelRequirement, type Labels, requirementMatches } from './labelRequirements';
import { labelSelectorAsRequirements } from './selectors';

/** Whether a label set is selected; made by {@link labelSelectorMatcher}. */
export type LabelSelectorMatcher = (labels: Labels) => boolean;

const NOTHING: LabelSelectorMatcher = () => false;

/**
 * `metav1.LabelSelectorAsSelector` converted once: the predicate answers, for any label set,
 * what `matchesLabelSelector(selector, labels)` answers.
 *
 * - a nil selector (`undefined` or `null`) matches nothing (Kubernetes' `labels.Nothing()`);
 * - an empty selector (`{}`, or empty `matchLabels` and `matchExpressions`) matches everything;
 * - an invalid selector (unknown operator, bad key or value, `In`/`NotIn` without values)
 *   matches nothing (Kubernetes' conversion returns an error instead; admission validation
 *   rejects such a selector before a controller reads it);
 * - otherwise every requirement must hold (`NotIn` and `DoesNotExist` hold when the key is absent).
 *
 * `labelSelectorAsRequirements` answers `null` for a nil selector and `[]` for an empty one; this
 * predicate reads `null` as "nothing". (`matchesLabelSelector` reads a `null` list as `[]`, which
 * would select everything, but it never gets one: it answers `false` for a nil selector before
 * converting. The two agree on every selector and label set.) Never throws.
 *
 * Example: `const selects = labelSelectorMatcher({matchLabels:{app:'web'}}); pods.filter((p) =>
 * selects(p.metadata?.labels))` keeps the pods labelled `app=web`.
 */
export function labelSelectorMatcher(selector: LabelSelector | null | undefined): LabelSelectorMatcher {
  let requirements: LabelRequirement[] | null;
  try {
    requirements = labelSelectorAsRequirements(selector);
  } catch {
    return NOTHING;
  }
  if (requirements === null) return NOTHING;
  const reqs = requirements;
  return (labels) => {
    for (const r of reqs) if (!requirementMatches(r, labels)) return false;
    return true;
  };
}
