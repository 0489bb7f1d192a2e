// Scatter update ordering (docs/reference/core.md §4.2 R4.6–R4.8; docs/reference/cloneset.md §9.3.3;
// docs/reference/sidecarset.md SS-5.6.6): which terms apply in which order, and how one term spreads
// the matched candidates evenly among the unmatched ones (float32 density comparison).
import type { UpdateScatterStrategy, UpdateScatterTerm } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { podLabels } from './podFacts';

/**
 * Rounds half away from zero (Go's `math.Round`): 2.5 → 3, -2.5 → -3, 1.4999 → 1.
 * `Math.round` alone rounds -2.5 to -2.
 */
export function roundHalfAwayFromZero(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/** R4.8 group sizes `g(m, u)`: `num = min(m, u)`, `mSize = round(m / num)`, `uSize = round(u / num)`. */
export interface ScatterGroups {
  num: number;
  mSize: number;
  uSize: number;
}

/**
 * R4.8 step 4 `g(m, u)` with round-half-away-from-zero.
 *
 * Example: g(3, 5) → num 3, mSize round(1) = 1, uSize round(1.667) = 2; g(2, 5) → num 2,
 * mSize 1, uSize round(2.5) = 3. Both arguments must be ≥ 1.
 */
export function scatterGroups(m: number, u: number): ScatterGroups {
  const num = Math.min(m, u);
  return { num, mSize: roundHalfAwayFromZero(m / num), uSize: roundHalfAwayFromZero(u / num) };
}

/**
 * The float32 quotient `f32(a) / f32(b)` rounded to IEEE single precision, as Go's
 * `float32(a)/float32(b)` (R4.8 step 4). Example: f32Ratio(1, 3) = 0.3333333432674408.
 */
export function f32Ratio(a: number, b: number): number {
  return Math.fround(Math.fround(a) / Math.fround(b));
}

/** R4.8: the pod's label `key` equals `value`; a missing label (or pod) reads as `""`. */
function termMatches(pod: Pod | null | undefined, term: UpdateScatterTerm): boolean {
  const labels = podLabels(pod);
  return (Object.hasOwn(labels, term.key) ? labels[term.key] : '') === term.value;
}

/**
 * R4.7: the terms a scatter strategy applies, in order. With exactly one strategy term it is
 * used as is (even if no pod matches). With more, each term is counted over the indexed pods
 * that carry label `key` with value `value` (key present); terms counted 0 are dropped,
 * duplicated terms are merged (their counts add up), and the rest are sorted by count
 * descending, ties in strategy order (first appearance).
 *
 * Example (upstream `TestSort/3 dimensions + one pod one label`): terms A, B, C matched by
 * 2, 2 and 5 candidates → `[C, A, B]`.
 */
export function getScatterTerms(
  scatter: UpdateScatterStrategy | undefined | null,
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
): UpdateScatterTerm[] {
  const terms = scatter ?? [];
  if (terms.length <= 1) return terms.map((t) => ({ key: t.key, value: t.value }));
  const counted = new Map<string, { term: UpdateScatterTerm; count: number }>();
  for (const term of terms) {
    const id = JSON.stringify([term.key, term.value]);
    let entry = counted.get(id);
    if (!entry) {
      entry = { term: { key: term.key, value: term.value }, count: 0 };
      counted.set(id, entry);
    }
    for (const i of indexes) {
      const labels = podLabels(pods[i]);
      if (Object.hasOwn(labels, term.key) && labels[term.key] === term.value) entry.count++;
    }
  }
  return [...counted.values()]
    .filter((e) => e.count >= 1)
    .sort((a, b) => b.count - a.count)
    .map((e) => e.term);
}

/**
 * R4.8: reorders `indexes` (positions into `pods`) so that candidates matching `term` are spread
 * evenly among the others, in proportion to the matched/unmatched totals over **all** non-null
 * `pods` (not only the candidates).
 *
 * Worked example (R4.8, upstream `TestScatterPodsByRule/even scattered pods + even ordinary pods`):
 * labels `["", "", "", "", "A", "A"]`, indexes 0..5, term `labelA=A`:
 * 1. matched [4, 5], unmatched [0, 1, 2, 3];
 * 2. totals: matched 2, unmatched 4;
 * 3. tail = 5, matched [4], totalMatched 1;
 * 4. U = g(1, 4) = {num 1, mSize 1, uSize 4}; f32(4)/f32(1) = 4 ≥ f32(4)/f32(1) = 4, so use U
 *    with remainder 0;
 * 5. output: (no remainder) 4, then 0 1 2 3, then the tail 5 → `[4, 0, 1, 2, 3, 5]`.
 *
 * When the totals are denser in unmatched pods than the candidates (the ratio test fails), the
 * group sizes come from the totals instead: `T = g(totalMatched, totalUnmatched)`,
 * `num = min(floor(|matched| / T.mSize), floor(|unmatched| / T.uSize))`,
 * `remainder = |unmatched| - num * T.uSize`, and the first `remainder` unmatched go first.
 */
export function scatterPodsByRule(
  term: UpdateScatterTerm,
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
): number[] {
  // 1. split, keeping order
  const matched: number[] = [];
  const unmatched: number[] = [];
  for (const i of indexes) (termMatches(pods[i], term) ? matched : unmatched).push(i);
  if (matched.length <= 1 || unmatched.length <= 1) return [...indexes];

  // 2. totals over all non-null pods
  let totalMatched = 0;
  let totalUnmatched = 0;
  for (const pod of pods) {
    if (pod === null || pod === undefined) continue;
    if (termMatches(pod, term)) totalMatched++;
    else totalUnmatched++;
  }

  // 3. the last matched candidate goes to the very end
  const tail = matched.pop()!;
  totalMatched--;

  // 4. group sizes
  const updM = matched.length;
  const updU = unmatched.length;
  let num: number;
  let mSize: number;
  let uSize: number;
  let remainder: number;
  if (f32Ratio(totalUnmatched, totalMatched) >= f32Ratio(updU, updM)) {
    ({ num, mSize, uSize } = scatterGroups(updM, updU));
    remainder = 0;
  } else {
    ({ mSize, uSize } = scatterGroups(totalMatched, totalUnmatched));
    num = Math.min(Math.floor(updM / mSize), Math.floor(updU / uSize));
    remainder = updU - num * uSize;
  }

  // 5. output
  const out: number[] = [];
  let mi = 0;
  let ui = 0;
  if (remainder > 0) {
    out.push(...unmatched.slice(0, remainder));
    ui = remainder;
  }
  for (let g = 0; g < num; g++) {
    const ms = matched.slice(mi, mi + mSize);
    mi += ms.length;
    out.push(...ms);
    const us = unmatched.slice(ui, ui + uSize);
    ui += us.length;
    out.push(...us);
  }
  out.push(...matched.slice(mi), ...unmatched.slice(ui), tail);
  return out;
}

/**
 * R4.6: sorts candidate indexes by a scatter strategy. An empty strategy or at most one index
 * leaves them unchanged (as a new array); otherwise each term of {@link getScatterTerms} is
 * applied in turn with {@link scatterPodsByRule}, feeding one's output into the next.
 *
 * Example (upstream `TestSort/one pod one label`): labels `[{}, {}, {}, {}, {labelA: AAA},
 * {labelA: AAA}]`, indexes 0..5, strategy `[{key: labelA, value: AAA}]` → `[4, 0, 1, 2, 3, 5]`.
 */
export function sortUpdateIndexesByScatter(
  pods: ReadonlyArray<Pod | null | undefined>,
  indexes: readonly number[],
  scatter: UpdateScatterStrategy | undefined | null,
): number[] {
  if (!scatter || scatter.length === 0 || indexes.length <= 1) return [...indexes];
  let out = [...indexes];
  for (const term of getScatterTerms(scatter, pods, indexes)) out = scatterPodsByRule(term, pods, out);
  return out;
}
