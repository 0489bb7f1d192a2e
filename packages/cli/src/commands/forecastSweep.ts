// Sweeps: `kruise-ts forecast ... --runs N [--workers W] [--shard i/n] [--out file]` repeats the
// forecast for seeds seed..seed+N-1 under seeded random timings and prints percentiles (p50/p95
// duration, worst availability). The seeds are split over worker_threads: each worker runs this
// same executable with the same arguments plus a hidden --sweep-worker flag, takes its seeds from
// workerData and posts its runs back; the summary sorts the runs by seed, so it is the same for
// any number of workers. `kruise-ts forecast merge a.json b.json` combines shard files.
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  applyChange,
  DEFAULT_FORECAST_TIMINGS,
  describeTimings,
  displayName,
  formatSweep,
  mergeSweepFiles,
  parseShard,
  runForecast,
  type SweepFile,
  type SweepRun,
  splitSeeds,
  summarizeSweep,
  sweepRunOf,
  sweepSeeds,
} from '@kruise-ts/sim';
import { CliError, type CliIO, maxInputBytesOf, readInput, resolvePath } from '../io';
import type { ForecastCommandOptions, PreparedForecast } from './forecastOptions';

/** Runs the forecast once per seed, in this thread. */
function runSeeds(p: PreparedForecast, seeds: readonly number[]): SweepRun[] {
  return seeds.map((seed) =>
    sweepRunOf(runForecast(p.state, p.target, p.change, { ...p.options, seed, fullLog: false })),
  );
}

/** The executable this process runs (a worker runs it again), when it is the kruise-ts command. */
function executable(): string | undefined {
  const entry = process.argv[1] ?? '';
  return /(bin\.(ts|js|mjs)|kruise-ts)$/.test(entry) ? entry : undefined;
}

/**
 * Starts a worker running `entry` with this process's arguments plus --sweep-worker. Modules this
 * process preloads with `--import` (tsx's loader when run from the sources) are imported in the
 * worker first, since a worker does not take them from execArgv.
 */
function startWorker(entry: string, seeds: number[]): Worker {
  const imports: string[] = [];
  const execArgv: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const a = process.execArgv[i];
    if (a === '--import' || a === '--require') {
      if (a === '--import') imports.push(process.execArgv[i + 1]);
      i++;
    } else if (a.startsWith('--import=')) imports.push(a.slice('--import='.length));
    else if (!a.startsWith('--require=')) execArgv.push(a);
  }
  const args = [...process.argv.slice(2), '--sweep-worker'];
  const opts = { argv: args, workerData: { kruiseTsSweepSeeds: seeds }, execArgv };
  if (imports.length === 0) return new Worker(entry, opts);
  // tsx's loader registers its hooks for the main thread only; its API registers them here.
  const preload = imports.map((m) =>
    /tsx\/dist\/loader\.mjs$/.test(m)
      ? `(await import(${JSON.stringify(m.replace(/loader\.mjs$/, 'esm/api/index.mjs'))})).register();`
      : `await import(${JSON.stringify(m)});`,
  );
  // A data: worker's process.argv holds no script path: set it as the entry expects it.
  const argv = `process.argv = ${JSON.stringify([process.execPath, entry, ...args])};`;
  const code = `${argv}${preload.join('')}await import(${JSON.stringify(pathToFileURL(entry).href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    workerData: opts.workerData,
    execArgv,
  });
}

/** Runs seeds over `workers` threads (in this thread when there is one, or no executable to start). */
async function runParallel(p: PreparedForecast, seeds: number[], workers: number): Promise<SweepRun[]> {
  const entry = executable();
  if (workers <= 1 || seeds.length <= 1 || !entry) return runSeeds(p, seeds);
  const slices = splitSeeds(seeds, workers);
  const parts = await Promise.all(
    slices.map(
      (slice) =>
        new Promise<SweepRun[]>((resolve, reject) => {
          const w = startWorker(entry, slice);
          let got: SweepRun[] | undefined;
          w.on('message', (m: SweepRun[]) => {
            got = m;
          });
          w.on('error', reject);
          w.on('exit', (code) =>
            got
              ? resolve(got)
              : reject(new Error(`a sweep worker stopped with exit code ${code} before answering`)),
          );
        }),
    ),
  );
  return parts.flat();
}

/** `--runs N`: the sweep (or, inside a worker, its share of it). */
export async function sweepCommand(
  p: PreparedForecast,
  opts: ForecastCommandOptions,
  io: CliIO,
): Promise<number> {
  if (opts.sweepWorker) {
    if (isMainThread || !parentPort)
      throw new CliError('--sweep-worker is internal to kruise-ts forecast --runs');
    const seeds = (workerData as { kruiseTsSweepSeeds?: number[] } | undefined)?.kruiseTsSweepSeeds ?? [];
    parentPort.postMessage(runSeeds(p, seeds));
    return 0;
  }
  const runs = Number(opts.runs);
  if (!Number.isInteger(runs) || runs < 1)
    throw new CliError(`--runs must be a positive integer, not ${JSON.stringify(opts.runs)}`);
  const shard = parseShard(opts.shard ?? '0/1');
  if (!shard) throw new CliError(`--shard takes i/n with 0 ≤ i < n, not ${JSON.stringify(opts.shard)}`);
  const workers = opts.workers === undefined ? availableParallelism() : Number(opts.workers);
  if (!Number.isInteger(workers) || workers < 1)
    throw new CliError(`--workers must be a positive integer, not ${JSON.stringify(opts.workers)}`);
  const seeds = sweepSeeds(p.seed, runs, shard);
  const results = (await runParallel(p, seeds, workers)).sort((a, b) => a.seed - b.seed);
  const timingModel = describeTimings(
    { ...DEFAULT_FORECAST_TIMINGS, ...(p.options.timings ?? {}) },
    p.options.failure ?? 'none',
  );
  const file: SweepFile = {
    kind: 'KruiseTsForecastSweep',
    version: 1,
    target: displayName(p.target),
    change: applyChange(p.target, p.change).description,
    timingModel,
    baseSeed: p.seed,
    totalRuns: runs,
    shard,
    runs: results,
  };
  if (opts.out === '-') io.stdout(`${JSON.stringify(file)}\n`);
  else {
    if (opts.out) writeJson(io, opts.out, file);
    printSweep(io, file, Boolean(opts.json));
  }
  return 0;
}

function writeJson(io: CliIO, path: string, value: unknown): void {
  try {
    io.writeFile(resolvePath(io, path), `${JSON.stringify(value)}\n`);
  } catch (e) {
    throw new CliError(`cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  io.stderr(`sweep runs written to ${path}\n`);
}

function printSweep(io: CliIO, file: SweepFile, json: boolean): void {
  const summary = summarizeSweep(file.runs);
  const shardNote =
    file.shard.count > 1
      ? ` (shard ${file.shard.index}/${file.shard.count}: ${file.runs.length} of ${file.totalRuns} runs)`
      : '';
  if (json)
    io.stdout(
      `${JSON.stringify({ target: file.target, change: file.change, timingModel: file.timingModel, baseSeed: file.baseSeed, shard: file.shard, summary }, null, 2)}\n`,
    );
  else io.stdout(`${formatSweep(file.target, file.change, file.timingModel, summary)}${shardNote}\n`);
}

/** `kruise-ts forecast merge a.json b.json ...`: the percentiles of shard files together. */
export function mergeCommand(files: string[], opts: ForecastCommandOptions, io: CliIO): number {
  if (files.length === 0)
    throw new CliError('give the shard files to merge: kruise-ts forecast merge a.json b.json');
  const docs: SweepFile[] = files.map((f) => {
    try {
      return JSON.parse(readInput(io, f, f, maxInputBytesOf(opts))) as SweepFile;
    } catch (e) {
      if (e instanceof CliError) throw e;
      throw new CliError(`${f} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  const { merged, error } = mergeSweepFiles(docs);
  if (!merged) throw new CliError(error ?? 'cannot merge');
  if (merged.runs.length < merged.totalRuns)
    io.stderr(`warning: ${merged.runs.length} of ${merged.totalRuns} runs present (a shard is missing)\n`);
  if (opts.out === '-') io.stdout(`${JSON.stringify(merged)}\n`);
  else {
    if (opts.out) writeJson(io, opts.out, merged);
    printSweep(io, merged, Boolean(opts.json));
  }
  return 0;
}
