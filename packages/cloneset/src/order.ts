// The default update order of spec/cloneset.md §9.3.1: Kubernetes' "active pods" order
// over the candidate indexes (stable; ties keep list order, §8.3 rule 10), computed with
// one key per pod so a 100k-pod sort does not re-read conditions in every comparison.
// TODO(core): move to ordering/activePods.ts — core's compareActivePods implements the same rules
// but re-reads conditions and re-parses timestamps in every comparison.
import type { Pod } from 'kubernetes-types/core/v1';
import { timeMillis } from './predicates';

interface ActiveKey {
  assigned: number;
  phase: number;
  ready: number;
  /** Ready lastTransitionTime; -Infinity stands for zero (sorts as most recent). */
  readySince: number;
  restarts: number;
  /** creationTimestamp; -Infinity stands for zero (sorts as newest). */
  created: number;
}

function keyOf(pod: Pod, time: (t: string | undefined) => number): ActiveKey {
  const phase = pod.status?.phase;
  let ready = 0;
  let readySince = Number.NEGATIVE_INFINITY;
  for (const c of pod.status?.conditions ?? []) {
    if (c.type === 'Ready') {
      if (c.status === 'True') {
        ready = 1;
        readySince = time(c.lastTransitionTime);
      }
      break;
    }
  }
  let restarts = 0;
  for (const s of pod.status?.containerStatuses ?? []) restarts = Math.max(restarts, s.restartCount ?? 0);
  return {
    assigned: pod.spec?.nodeName ? 1 : 0,
    phase: phase === 'Running' ? 2 : phase === 'Unknown' ? 1 : 0,
    ready,
    readySince,
    restarts,
    created: time(pod.metadata?.creationTimestamp),
  };
}

/** Kubernetes' `afterOrZero`: a zero time (−∞ here) first, otherwise the later time first. */
function afterOrZero(a: number, b: number): number {
  if (a === b) return 0;
  if (a === Number.NEGATIVE_INFINITY) return -1;
  if (b === Number.NEGATIVE_INFINITY) return 1;
  return a > b ? -1 : 1;
}

/**
 * §9.3.1: candidates in Kubernetes' `controller.ActivePods` order — unassigned first; Pending
 * (and any other phase) < Unknown < Running; not Ready first; both Ready: Ready for less time
 * first (zero time first); more restarts first; newer creation first (zero first). No
 * availability rule, no deletion cost, no rank. Stable: exact ties keep list order. The same
 * rules as core's `compareActivePods`, evaluated on keys computed once per pod.
 *
 * Example: pods `[Running Ready, Pending, Running not-Ready]`, indexes `[0, 1, 2]` → `[1, 2, 0]`.
 */
export function sortIndexesForUpdate(pods: readonly Pod[], indexes: readonly number[]): number[] {
  const cmp = activePodsComparator(pods, indexes);
  return [...indexes].sort(cmp);
}

/** The §9.3.1 comparator over pod indexes, with keys computed once for `indexes`. */
function activePodsComparator(
  pods: readonly Pod[],
  indexes: readonly number[],
): (i: number, j: number) => number {
  // timestamps repeat a lot across pods: parse each distinct string once
  const parsed = new Map<string, number>();
  const time = (t: string | undefined): number => {
    if (!t) return Number.NEGATIVE_INFINITY;
    let v = parsed.get(t);
    if (v === undefined) {
      v = timeMillis(t) ?? Number.NEGATIVE_INFINITY;
      parsed.set(t, v);
    }
    return v;
  };
  const keys: ActiveKey[] = new Array(pods.length);
  for (const i of indexes) keys[i] = keyOf(pods[i], time);
  return (i, j) => {
    const a = keys[i];
    const b = keys[j];
    return (
      a.assigned - b.assigned ||
      a.phase - b.phase ||
      a.ready - b.ready ||
      (a.ready && b.ready ? afterOrZero(a.readySince, b.readySince) : 0) ||
      b.restarts - a.restarts ||
      afterOrZero(a.created, b.created)
    );
  };
}

/** Rules 1–3 of §9.3.1 as a bucket number 0..11 (assigned, phase, Ready). */
function leadingBucket(pod: Pod): number {
  const phase = pod.status?.phase;
  let ready = 0;
  for (const c of pod.status?.conditions ?? []) {
    if (c.type === 'Ready') {
      ready = c.status === 'True' ? 1 : 0;
      break;
    }
  }
  return (pod.spec?.nodeName ? 6 : 0) + (phase === 'Running' ? 4 : phase === 'Unknown' ? 2 : 0) + ready;
}

/**
 * The same order as {@link sortIndexesForUpdate}, with the pods for which `first(i)` holds
 * moved to the front (a stable partition, §9.3.4), produced lazily: the candidates are split
 * into the 12 buckets of rules 1–3 and a bucket is only sorted when the consumer reaches it.
 * The update limiter (§9.4) usually stops long before the end of a 100k-candidate list.
 */
export function* lazyUpdateOrder(
  pods: readonly Pod[],
  indexes: readonly number[],
  first: (i: number) => boolean,
): Generator<number> {
  const front: number[] = [];
  const buckets: number[][] = Array.from({ length: 12 }, () => []);
  for (const i of indexes) {
    if (first(i)) front.push(i);
    else buckets[leadingBucket(pods[i])].push(i);
  }
  if (front.length > 0) yield* sortIndexesForUpdate(pods, front);
  for (const b of buckets) {
    if (b.length === 0) continue;
    yield* b.length === 1 ? b : b.sort(activePodsComparator(pods, b));
  }
}
