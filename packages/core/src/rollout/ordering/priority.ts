// Update priority ordering (docs/reference/core.md §4.1 R4.2–R4.5; docs/reference/cloneset.md §9.3.2;
// docs/reference/statefulset.md R9.5; docs/reference/sidecarset.md SS-5.6.5): pod weights, order levels, the
// "I before J" comparator and the v1.8.2 sort whose ties go to the larger pod index.
import type { UpdatePriorityStrategy } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { matchesLabelSelector } from '../../kube/selectorMatcher';
import { podLabels } from './podFacts';

/** Pod labels as the priority functions read them; `undefined`/`null` = no labels. */
export type PriorityLabels = Readonly<Record<string, string>> | undefined | null;

/** A pod's priority under one strategy: `weight` in weight mode, `level`/`order` in order mode. */
export type PodPriority =
  | { mode: 'weight'; weight: number }
  | { mode: 'order'; level: number; order: bigint }
  | { mode: 'none' };

/** Largest int64: trailing-digit orders above it overflow and count as 0 (R4.3). */
const INT64_MAX = 9223372036854775807n;

/**
 * R4.2 selector semantics of a weight term's `matchSelector`: an empty (or absent) selector
 * matches everything; `matchLabels` are equality requirements; `matchExpressions` support
 * `In`, `NotIn` (true when the key is absent), `Exists` and `DoesNotExist`. An unknown operator
 * makes the whole term not match (it contributes 0). Values are not validated, so an `In`
 * with no values matches nothing and a `NotIn` with no values matches everything.
 *
 * Example: `{matchExpressions: [{key: 'zone', operator: 'NotIn', values: ['a']}]}` matches
 * `{app: 'web'}` (no `zone` label) and `{zone: 'b'}`, but not `{zone: 'a'}`.
 */
export function priorityTermSelectorMatches(
  selector: LabelSelector | undefined | null,
  labels: PriorityLabels,
): boolean {
  // Kruise's matchSelector is a value, not a pointer: absent means empty, i.e. match everything.
  return matchesLabelSelector(selector ?? {}, labels, { validate: false });
}

/**
 * R4.2: a pod's weight is the sum of `weight` over every `weightPriority` term whose
 * `matchSelector` matches the pod labels.
 *
 * Example: terms `{weight: 20, key1=foo}`, `{weight: 10, key2=bar}`, `{weight: 5, key3=baz}`;
 * labels `{key2: 'bar', key3: 'baz'}` weigh 10 + 5 = 15, labels `{key1: 'foo'}` weigh 20.
 */
export function getPodPriorityWeight(
  strategy: UpdatePriorityStrategy | undefined | null,
  labels: PriorityLabels,
): number {
  let weight = 0;
  for (const term of strategy?.weightPriority ?? []) {
    if (priorityTermSelectorMatches(term.matchSelector, labels)) weight += term.weight ?? 0;
  }
  return weight;
}

/**
 * R4.3: the integer value of the longest run of decimal digits at the end of `value`;
 * 0 when there is none or when it overflows int64.
 *
 * Examples: `"sts-10"` → 10n, `"5"` → 5n, `"v1.2-a"` → 0n, `"o-007"` → 7n,
 * `"x-9223372036854775808"` (int64 max + 1) → 0n.
 */
export function parsePriorityOrderValue(value: string): bigint {
  const m = /[0-9]+$/.exec(value);
  if (!m) return 0n;
  const n = BigInt(m[0]);
  return n > INT64_MAX ? 0n : n;
}

/**
 * R4.3: a pod's `(level, order)` under `orderPriority`: level = index of the first term (in
 * list order) whose `orderedKey` is a label of the pod, order = the trailing-digit integer of
 * that label's value. A pod with none of the keys gets level **-1**, order 0 (so it sorts
 * before every keyed pod, R4.4).
 *
 * Example: keys `[key1, key2]`: `{key2: 'o-20'}` → level 1, order 20n; `{app: 'x'}` → level -1, order 0n.
 */
export function getPodPriorityOrder(
  strategy: UpdatePriorityStrategy | undefined | null,
  labels: PriorityLabels,
): { level: number; order: bigint } {
  const l = labels ?? {};
  const terms = strategy?.orderPriority ?? [];
  for (let i = 0; i < terms.length; i++) {
    const key = terms[i].orderedKey;
    if (Object.hasOwn(l, key)) return { level: i, order: parsePriorityOrderValue(l[key]) };
  }
  return { level: -1, order: 0n };
}

/** Whether the strategy has at least one term (an empty strategy leaves the order unchanged, R4.5). */
export function hasPriorityTerms(strategy: UpdatePriorityStrategy | undefined | null): boolean {
  return (strategy?.weightPriority?.length ?? 0) > 0 || (strategy?.orderPriority?.length ?? 0) > 0;
}

/**
 * A pod's priority under `strategy`: weight mode when `weightPriority` has terms (it takes
 * precedence), else order mode when `orderPriority` has terms, else `none`.
 */
export function getPodPriority(
  strategy: UpdatePriorityStrategy | undefined | null,
  labels: PriorityLabels,
): PodPriority {
  if ((strategy?.weightPriority?.length ?? 0) > 0) {
    return { mode: 'weight', weight: getPodPriorityWeight(strategy, labels) };
  }
  if ((strategy?.orderPriority?.length ?? 0) > 0)
    return { mode: 'order', ...getPodPriorityOrder(strategy, labels) };
  return { mode: 'none' };
}

/** Three-way comparison of two priorities computed under the same strategy (negative = `a` first). */
function comparePodPriority(a: PodPriority, b: PodPriority): number {
  if (a.mode === 'weight' && b.mode === 'weight') return Math.sign(b.weight - a.weight);
  if (a.mode === 'order' && b.mode === 'order') {
    if (a.level !== b.level) return a.level < b.level ? -1 : 1;
    if (a.order !== b.order) return a.order > b.order ? -1 : 1;
  }
  return 0;
}

/**
 * R4.4 comparator "I before J": negative when pod I is updated before pod J, positive when
 * J goes first, 0 on a tie (the caller breaks ties, R4.5).
 * Weight mode: higher weight first. Order mode: lower level first, then higher order first.
 *
 * Examples (upstream `TestCompare`): weights foo=20, bar=10: `{key: bar}` vs `{key: foo}` → positive
 * (J first); orderedKeys `[key1, key2]`: `{key1: 'o-10'}` vs `{key1: 'o-5'}` → negative (10 > 5);
 * `{}` vs `{key1: 'o-1'}` → negative (level -1 before level 0, the v1.8.2 quirk).
 */
export function comparePriority(
  strategy: UpdatePriorityStrategy | undefined | null,
  labelsI: PriorityLabels,
  labelsJ: PriorityLabels,
): number {
  return comparePodPriority(getPodPriority(strategy, labelsI), getPodPriority(strategy, labelsJ));
}

/**
 * Sorts candidate indexes (positions into `pods`) into update order by priority (R4.1–R4.5,
 * v1.8.2): by priority (R4.4), and on a tie the **larger index first**. The result is the
 * deterministic total order (priority, then index descending), independent of the input order.
 * With an empty strategy the indexes are returned unchanged (as a new array).
 *
 * Example: weights `{weight: 10, app=a}`, pods `[{app: b}, {app: a}, {app: b}, {app: a}]`,
 * indexes `[0, 1, 2, 3]` → weights 0, 10, 0, 10 → `[3, 1, 2, 0]`.
 */
export function sortUpdateIndexesByPriority(
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
  strategy: UpdatePriorityStrategy | undefined | null,
): number[] {
  if (!hasPriorityTerms(strategy)) return [...indexes];
  const priority = new Map<number, PodPriority>();
  for (const i of indexes) priority.set(i, getPodPriority(strategy, podLabels(pods[i])));
  return [...indexes].sort((a, b) => comparePodPriority(priority.get(a)!, priority.get(b)!) || b - a);
}
