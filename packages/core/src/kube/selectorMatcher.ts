// Matching a label selector against label sets, the rule written once: a selector is turned into
// a predicate (converted and validated once), and `matchesLabelSelector`, for a single label set,
// makes that predicate and asks it. A controller that matches one selector against many label
// sets (every pod of a namespace, every node of a cluster) keeps the predicate.
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { type LabelRequirement, type Labels, requirementMatches } from './labelRequirements';
import { labelSelectorAsRequirements, labelSelectorAsUncheckedRequirements } from './selectors';

/** Whether a label set is selected; made by {@link labelSelectorMatcher}. */
export type LabelSelectorMatcher = (labels: Labels) => boolean;

/** How a selector is read: `validate: false` leaves keys and values unchecked (R4.2). */
export interface LabelSelectorOptions {
  /** Check keys and values as Kubernetes' conversion does (default true). */
  validate?: boolean;
}

const NOTHING: LabelSelectorMatcher = () => false;

/**
 * `metav1.LabelSelectorAsSelector` converted once into a predicate over label sets:
 *
 * - a nil selector (`undefined` or `null`) matches nothing (Kubernetes' `labels.Nothing()`);
 * - an empty selector (`{}`, or empty `matchLabels` and `matchExpressions`) matches everything;
 * - `matchLabels` are equality requirements; `matchExpressions` support In, NotIn, Exists and
 *   DoesNotExist, and every requirement must hold (`NotIn` and `DoesNotExist` hold when the key
 *   is absent);
 * - an invalid selector (unknown operator, bad key or value, `In`/`NotIn` without values)
 *   matches nothing (Kubernetes' conversion returns an error instead; admission validation
 *   rejects such a selector before a controller reads it). With `validate: false` (Kruise's
 *   priority terms, docs/reference/core.md R4.2) keys and values are not checked, and only an
 *   unknown operator makes the selector match nothing.
 *
 * Never throws. Example: `const selects = labelSelectorMatcher({matchLabels:{app:'web'}});
 * pods.filter((p) => selects(p.metadata?.labels))` keeps the pods labelled `app=web`.
 */
export function labelSelectorMatcher(
  selector: LabelSelector | null | undefined,
  opts: LabelSelectorOptions = {},
): LabelSelectorMatcher {
  if (selector === null || selector === undefined) return NOTHING;
  let reqs: readonly LabelRequirement[];
  try {
    reqs =
      opts.validate === false
        ? labelSelectorAsUncheckedRequirements(selector)
        : // null only for a nil selector, ruled out above
          (labelSelectorAsRequirements(selector) ?? []);
  } catch {
    return NOTHING;
  }
  return (labels) => {
    for (const r of reqs) if (!requirementMatches(r, labels)) return false;
    return true;
  };
}

/**
 * Does a `metav1.LabelSelector` select these labels? The answer of
 * {@link labelSelectorMatcher}`(selector, opts)` for one label set (same rules, never throws);
 * to match many label sets against one selector, make the matcher once instead.
 *
 * Example: `{matchLabels:{app:'web'}, matchExpressions:[{key:'tier',operator:'NotIn',values:['db']}]}`
 * matches `{app:'web'}` and `{app:'web',tier:'fe'}` but not `{app:'web',tier:'db'}`.
 */
export function matchesLabelSelector(
  selector: LabelSelector | null | undefined,
  labels: Labels,
  opts: LabelSelectorOptions = {},
): boolean {
  return labelSelectorMatcher(selector, opts)(labels);
}
