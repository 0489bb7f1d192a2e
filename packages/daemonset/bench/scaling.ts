// Scaling check (run: npx tsx --conditions=@kruise-ts/source packages/daemonset/bench/scaling.ts):
// reconcileDaemonSet at 1k, 5k and 20k nodes next to the single-pass baseline; prints the
// median time of each, their ratio and the growth from 1k to 20k.
import { reconcileDaemonSet } from '../src';
import { fixture, singlePassBaseline } from './fixtures';

function median(f: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows: { n: number; reconcile: number; baseline: number }[] = [];
for (const n of [1_000, 5_000, 20_000]) {
  const input = fixture(n);
  for (let i = 0; i < 3; i++) reconcileDaemonSet(input); // warm-up
  const reconcile = median(() => reconcileDaemonSet(input), n >= 20_000 ? 7 : 15);
  const baseline = median(() => singlePassBaseline(input), 15);
  rows.push({ n, reconcile, baseline });
  console.log(
    `${String(n).padStart(6)} nodes: reconcile ${reconcile.toFixed(1)} ms, baseline ${baseline.toFixed(1)} ms, ratio ${(reconcile / baseline).toFixed(1)}x`,
  );
}
const [a, , c] = rows;
console.log(`growth 1k → 20k: reconcile ×${(c.reconcile / a.reconcile).toFixed(1)} (linear would be ×20)`);
