// The default update order of docs/reference/cloneset.md §9.3.1: Kubernetes' "active pods" order
// over the candidate positions (stable; ties keep list order, §8.3 rule 10), from core's keyed
// sort, plus the same order produced lazily for the update limiter, which usually reads only the
// first few of many candidates.
import {
  type ActivePodsKey,
  compareActivePodsKeys,
  memoizedTimeParser,
  sortIndexesByActivePods,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { PodFacts } from './facts';
import { memoisedActivePodsKey } from './podContent';

/**
 * §9.3.1: candidates in Kubernetes' `controller.ActivePods` order — unassigned first; Pending
 * (and any other phase) < Unknown < Running; not Ready first; both Ready: Ready for less time
 * first (zero time first); more restarts first; newer creation first (zero first). No
 * availability rule, no deletion cost, no rank. Stable: exact ties keep list order. This is
 * core's `sortIndexesByActivePods` (keys computed once per candidate).
 *
 * Example: pods `[Running Ready, Pending, Running not-Ready]`, indexes `[0, 1, 2]` → `[1, 2, 0]`.
 */
export function sortIndexesForUpdate(pods: readonly Pod[], indexes: readonly number[]): number[] {
  return sortIndexesByActivePods(pods, indexes);
}

/** The active-pods key of the pod at a list position (see {@link lazyUpdateOrder}). */
type ActivePodsKeyAt = (index: number) => ActivePodsKey;

/**
 * Yields the indexes of `bucket` (ascending list positions) in active-pods order, lazily: the
 * keys are computed once, heapified in O(n), and each yielded index costs O(log n). A consumer
 * that stops after k of n candidates pays O(n + k log n) instead of a full O(n log n) sort.
 * Exact ties go by list position, which is the stable sort's order.
 */
function* heapOrder(bucket: readonly number[], keyAt: ActivePodsKeyAt): Generator<number> {
  const keys: ActivePodsKey[] = bucket.map(keyAt);
  const keyIdx = bucket.map((_, k) => k); // a heap of bucket positions (position order = list order)
  const less = (a: number, b: number) => (compareActivePodsKeys(keys[a], keys[b]) || a - b) < 0;
  const down = (start: number, n: number) => {
    let k = start;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= n) return;
      const r = l + 1;
      const m = r < n && less(keyIdx[r], keyIdx[l]) ? r : l;
      if (!less(keyIdx[m], keyIdx[k])) return;
      const swap = keyIdx[k];
      keyIdx[k] = keyIdx[m];
      keyIdx[m] = swap;
      k = m;
    }
  };
  let n = keyIdx.length;
  for (let k = (n >> 1) - 1; k >= 0; k--) down(k, n);
  while (n > 0) {
    const top = keyIdx[0];
    n--;
    keyIdx[0] = keyIdx[n];
    down(0, n);
    yield bucket[top];
  }
}

/**
 * The same order as {@link sortIndexesForUpdate}, with the pods for which `first(i)` holds
 * moved to the front (a stable partition, §9.3.4), produced lazily: the candidates are split
 * into the 12 buckets of rules 1–3 (`facts.orderBucket`) and a bucket is only ordered as far
 * as the consumer reads it (a heap, {@link heapOrder}), by the active-pods key kept in each
 * pod's content facts. The update limiter (§9.4) usually stops long before the end: a 20%
 * budget over 10,000 candidates reads 2,000 of them.
 *
 * Example: candidates [Running Ready, Pending, Running not-Ready] → buckets 5, 0, 4 (unassigned)
 * → yields 1, 2, 0.
 */
export function* lazyUpdateOrder(
  pods: readonly Pod[],
  facts: PodFacts,
  indexes: readonly number[],
  first: (i: number) => boolean,
): Generator<number> {
  const front: number[] = [];
  const buckets: number[][] = Array.from({ length: 12 }, () => []);
  for (const i of indexes) {
    if (first(i)) front.push(i);
    else buckets[facts.orderBucket(i)].push(i);
  }
  if (front.length > 0) yield* sortIndexesForUpdate(pods, front);
  const time = memoizedTimeParser(); // the candidates share a few timestamps: each parsed once
  const keyAt: ActivePodsKeyAt = (i) => memoisedActivePodsKey(facts.content(i), pods[i], time);
  for (const b of buckets) {
    if (b.length === 0) continue;
    yield* b.length === 1 ? b : heapOrder(b, keyAt);
  }
}
