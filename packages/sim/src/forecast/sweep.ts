// Sweeps: the same forecast repeated under seeded random timings, summarised as percentiles.
// Run i uses seed `baseSeed + i`; a shard `i/n` takes the runs whose index is i modulo n, so
// shards split the work deterministically and their results merge into exactly what one machine
// would have computed. The summary sorts the runs by seed before anything else, so it does not
// depend on which worker or shard ran which seed. Pure: the CLI spreads runs over worker_threads
// and files; this only says which seeds and what they add up to.

/** One run of a sweep, as small as a shard file needs it. */
export interface SweepRun {
  seed: number;
  completed: boolean;
  durationMs: number;
  /** Floor of available/desired in [0, 1] (1 when nothing was ever unavailable). */
  floor: number;
  floorAvailable: number;
  floorDesired: number;
}

/** The percentiles of a sweep. */
export interface SweepSummary {
  runs: number;
  completed: number;
  /** Durations of completed runs (ms), nearest-rank percentiles. */
  durationMs: { p50: number; p95: number; max: number } | null;
  /** The worst availability floor over all runs, and the 5th percentile. */
  worstFloor: { available: number; desired: number; ratio: number; seed: number } | null;
  floorP5: number | null;
}

/** A shard (or whole sweep) result file. */
export interface SweepFile {
  kind: 'KruiseTsForecastSweep';
  version: 1;
  target: string;
  change: string[];
  timingModel: string;
  baseSeed: number;
  totalRuns: number;
  shard: { index: number; count: number };
  runs: SweepRun[];
}

/** Parses `i/n` (0 ≤ i < n); undefined when malformed. */
export function parseShard(text: string): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index < count ? { index, count } : undefined;
}

/** The seeds of a sweep, or of one shard of it. */
export function sweepSeeds(baseSeed: number, runs: number, shard = { index: 0, count: 1 }): number[] {
  const out: number[] = [];
  for (let i = shard.index; i < runs; i += shard.count) out.push(baseSeed + i);
  return out;
}

/** Splits seeds into `workers` contiguous slices (the order of work; the summary does not care). */
export function splitSeeds(seeds: readonly number[], workers: number): number[][] {
  const n = Math.max(1, Math.min(workers, seeds.length));
  const out: number[][] = [];
  const size = Math.ceil(seeds.length / n);
  for (let i = 0; i < seeds.length; i += size) out.push(seeds.slice(i, i + size));
  return out;
}

/** The value at percentile `p` of sorted values (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The summary of runs (in any order). */
export function summarizeSweep(runs: readonly SweepRun[]): SweepSummary {
  const bySeed = [...runs].sort((a, b) => a.seed - b.seed);
  const done = bySeed.filter((r) => r.completed).map((r) => r.durationMs);
  const durations = [...done].sort((a, b) => a - b);
  let worst: SweepSummary['worstFloor'] = null;
  for (const r of bySeed)
    if (!worst || r.floor < worst.ratio)
      worst = { available: r.floorAvailable, desired: r.floorDesired, ratio: r.floor, seed: r.seed };
  const floors = bySeed.map((r) => r.floor).sort((a, b) => a - b);
  return {
    runs: bySeed.length,
    completed: done.length,
    durationMs: durations.length
      ? {
          p50: percentile(durations, 50),
          p95: percentile(durations, 95),
          max: durations[durations.length - 1],
        }
      : null,
    worstFloor: worst,
    floorP5: floors.length ? percentile(floors, 5) : null,
  };
}

/**
 * Merges shard files of one sweep: they must agree on target, change, timing model, base seed
 * and run count, and hold no seed twice. Returns the merged file or the reason it cannot be.
 */
export function mergeSweepFiles(files: readonly SweepFile[]): { merged?: SweepFile; error?: string } {
  if (files.length === 0) return { error: 'no shard files given' };
  const first = files[0];
  for (const f of files) {
    if (f.kind !== 'KruiseTsForecastSweep' || f.version !== 1)
      return { error: 'not a kruise-ts forecast sweep file' };
    for (const k of ['target', 'timingModel', 'baseSeed', 'totalRuns'] as const)
      if (f[k] !== first[k])
        return { error: `the shards disagree on ${k} (${String(first[k])} vs ${String(f[k])})` };
    if (JSON.stringify(f.change) !== JSON.stringify(first.change))
      return { error: 'the shards disagree on the change' };
  }
  const seen = new Set<number>();
  const runs: SweepRun[] = [];
  for (const f of files)
    for (const r of f.runs) {
      if (seen.has(r.seed)) return { error: `seed ${r.seed} is in more than one shard` };
      seen.add(r.seed);
      runs.push(r);
    }
  runs.sort((a, b) => a.seed - b.seed);
  return { merged: { ...first, shard: { index: 0, count: 1 }, runs } };
}
