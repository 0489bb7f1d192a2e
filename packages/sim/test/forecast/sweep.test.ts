// Sweeps: which seeds a sweep and its shards run, nearest-rank percentiles, and that the summary
// is the same whatever the order or split of the runs (so 1 or 2 workers, or n shards merged,
// answer the same).
import { describe, expect, it } from 'vitest';
import {
  mergeSweepFiles,
  parseShard,
  percentile,
  type SweepFile,
  type SweepRun,
  splitSeeds,
  summarizeSweep,
  sweepSeeds,
} from '../../src/forecast/sweep';

const run = (seed: number, durationMs: number, floor = 0.8, completed = true): SweepRun => ({
  seed,
  completed,
  durationMs,
  floor,
  floorAvailable: Math.round(floor * 5),
  floorDesired: 5,
});

const file = (runs: SweepRun[], index = 0, count = 1): SweepFile => ({
  kind: 'KruiseTsForecastSweep',
  version: 1,
  target: 'CloneSet/default/sample',
  change: ['set image nginx=nginx:1.27'],
  timingModel: 'm',
  baseSeed: 1,
  totalRuns: 6,
  shard: { index, count },
  runs,
});

describe('sweeps', () => {
  it('splits seeds into shards by index modulo n, and into contiguous worker slices', () => {
    expect(sweepSeeds(10, 5)).toEqual([10, 11, 12, 13, 14]);
    expect(sweepSeeds(10, 5, { index: 1, count: 2 })).toEqual([11, 13]);
    expect(sweepSeeds(10, 5, { index: 0, count: 2 })).toEqual([10, 12, 14]);
    expect(splitSeeds([1, 2, 3, 4, 5], 2)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(parseShard('1/4')).toEqual({ index: 1, count: 4 });
    expect([parseShard('4/4'), parseShard('x'), parseShard('0/0')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('takes nearest-rank percentiles: p50 of 1..10 is 5, p95 is 10', () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([percentile(v, 50), percentile(v, 95), percentile(v, 5)]).toEqual([5, 10, 1]);
  });

  it('summarises the same in any order (as 1 or 2 workers would return the runs)', () => {
    const runs = [
      run(1, 100_000),
      run(2, 120_000, 0.6),
      run(3, 90_000),
      run(4, 0, 0.4, false),
      run(5, 110_000),
    ];
    const a = summarizeSweep(runs);
    expect(summarizeSweep([...runs].reverse())).toEqual(a);
    expect(summarizeSweep([...runs.slice(3), ...runs.slice(0, 3)])).toEqual(a);
    expect(a).toEqual({
      runs: 5,
      completed: 4,
      durationMs: { p50: 100_000, p95: 120_000, max: 120_000 },
      worstFloor: { available: 2, desired: 5, ratio: 0.4, seed: 4 },
      floorP5: 0.4,
    });
  });

  it('merges shards into what one machine computes; refuses mismatched or overlapping shards', () => {
    const all = [1, 2, 3, 4, 5, 6].map((s) => run(s, 60_000 + s * 1000));
    const shards = [0, 1, 2].map((i) =>
      file(
        all.filter((_, k) => k % 3 === i),
        i,
        3,
      ),
    );
    const { merged } = mergeSweepFiles(shards);
    expect(merged?.runs).toEqual(all);
    expect(summarizeSweep(merged!.runs)).toEqual(summarizeSweep(all));
    expect(mergeSweepFiles([shards[0], { ...shards[1], baseSeed: 7 }]).error).toBe(
      'the shards disagree on baseSeed (1 vs 7)',
    );
    expect(mergeSweepFiles([shards[0], shards[0]]).error).toBe('seed 1 is in more than one shard');
  });
});
