// calculateDiffs and reconcileCloneSet at 1k, 10k and 100k pods in a mid-rollout state
// (bench/fixture.ts), next to a baseline that makes one plain pass over the same pods.
// Run: npx vitest bench --run packages/cloneset
// After the vitest table, a summary prints the best time of each and the ratio to the baseline;
// reconcileCloneSet with one cache kept across the runs (as a shell keeps it), over new pod objects
// (nothing cached about them yet), and without a cache (each reconcile starts from nothing).
import { afterAll, bench, describe } from 'vitest';
import { type CloneSetCache, createCloneSetCache } from '../src/cache';
import { calculateDiffs } from '../src/diffs';
import { reconcileCloneSet } from '../src/reconcile';
import { type BenchFixture, midRollout, plainPass } from './fixture';

const SIZES = [1_000, 10_000, 100_000];
const fixtures = new Map<number, BenchFixture>(SIZES.map((n) => [n, midRollout(n)]));

const diffs = (f: BenchFixture) =>
  calculateDiffs(f.cloneSet, f.pods, {
    currentRevision: f.currentRevision,
    updateRevision: f.updateRevision,
    now: f.now,
  });
/** One cache per fixture, kept across every reconcile of it (what the simulator and operator do). */
const caches = new Map<BenchFixture, CloneSetCache>();
const cacheOf = (f: BenchFixture) => {
  let c = caches.get(f);
  if (c === undefined) {
    c = createCloneSetCache();
    caches.set(f, c);
  }
  return c;
};
const reconcile = (
  f: BenchFixture,
  pods: BenchFixture['pods'] = f.pods,
  cache: CloneSetCache | undefined = cacheOf(f),
) =>
  reconcileCloneSet(
    { cloneSet: f.cloneSet, pods, revisions: f.revisions, now: f.now },
    cache ? { cache } : {},
  );

/**
 * `reps + 1` lists of new pod objects with the fixture's contents (shallow copies): a reconcile
 * over one of them cannot reuse what an earlier reconcile memoised about the pod objects
 * (src/podContent.ts), as when every pod changed since the last reconcile.
 */
const freshPodLists = (f: BenchFixture, reps: number) =>
  Array.from({ length: reps + 1 }, () => f.pods.map((p) => ({ ...p })));

function best(fn: () => unknown, reps: number): number {
  fn();
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

for (const n of SIZES) {
  const f = fixtures.get(n)!;
  const opts = n >= 100_000 ? { time: 3000, iterations: 5, warmupIterations: 1 } : { time: 1000 };
  describe(`${n} pods (mid-rollout)`, () => {
    bench('baseline: one plain pass over the pods', () => void plainPass(f.pods), opts);
    bench('calculateDiffs', () => void diffs(f), opts);
    bench('reconcileCloneSet', () => void reconcile(f), opts);
  });
}

afterAll(() => {
  const rows: string[] = [];
  const times = new Map<number, { base: number; diffs: number; rec: number }>();
  for (const n of SIZES) {
    const f = fixtures.get(n)!;
    const reps = n >= 100_000 ? 5 : 20;
    const base = best(() => plainPass(f.pods), reps * 4);
    const d = best(() => diffs(f), reps);
    const r = best(() => reconcile(f), reps);
    const lists = freshPodLists(f, reps);
    let next = 0;
    const cold = best(() => reconcile(f, lists[next++]), reps);
    const uncached = best(() => reconcile(f, f.pods, undefined), reps);
    times.set(n, { base, diffs: d, rec: r });
    const actions = reconcile(f).actions.length;
    rows.push(
      `${String(n).padStart(7)} pods  baseline ${base.toFixed(2).padStart(8)} ms  calculateDiffs ${d.toFixed(2).padStart(8)} ms (${(d / base).toFixed(1)}x)  reconcileCloneSet ${r.toFixed(1).padStart(8)} ms (${(r / base).toFixed(1)}x, ${actions} actions)  with new pod objects ${cold.toFixed(1).padStart(8)} ms (${(cold / base).toFixed(1)}x)  without a cache ${uncached.toFixed(1).padStart(8)} ms`,
    );
  }
  const t10 = times.get(10_000)!;
  const t100 = times.get(100_000)!;
  rows.push(
    `100k/10k cost ratio: calculateDiffs ${(t100.diffs / t10.diffs).toFixed(1)}, reconcileCloneSet ${(t100.rec / t10.rec).toFixed(1)}`,
  );
  console.log(`\nCloneSet benchmark summary (best of several runs)\n${rows.join('\n')}\n`);
});
