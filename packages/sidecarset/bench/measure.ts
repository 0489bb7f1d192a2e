// Prints the SidecarSet benchmark figures: injectSidecars pods/s (10k pods, 5 matching
// SidecarSets) and reconcileSidecarSet at 10k pods against the single-pass baseline.
// Run: npx tsx --conditions=@kruise-ts/source packages/sidecarset/bench/measure.ts
import { injectSidecars, reconcileSidecarSet } from '../src/index';
import { appPods, fiveSidecarSets, reconcileInput, singlePassBaseline } from './fixture';

/** Milliseconds of CPU time (user + system) per call: stable on a shared machine, unlike wall time. */
function time(fn: () => void, reps: number): number {
  fn();
  const t0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000 / reps;
}

const pods = appPods(10_000);
const sets = fiveSidecarSets();
const injectMs = time(() => {
  for (const p of pods) injectSidecars(p, sets, { now: '2025-01-01T00:00:00Z' });
}, 5);
console.log(
  `injectSidecars: ${(10_000 / (injectMs / 1000)).toFixed(0)} pods/s (${injectMs.toFixed(1)} ms per 10k pods)`,
);

const input = reconcileInput(10_000);
const recMs = time(() => reconcileSidecarSet(input), 5);
const baseMs = time(() => singlePassBaseline(input), 20);
console.log(
  `reconcileSidecarSet 10k pods: ${recMs.toFixed(1)} ms; baseline ${baseMs.toFixed(2)} ms; ratio ${(recMs / baseMs).toFixed(1)}x`,
);
