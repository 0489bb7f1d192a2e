// `kruise-ts forecast <state.yaml> --set-image c=img | --partition n | --patch json | -f manifest`:
// reads a saved cluster state (or the live cluster with --from-cluster, read-only), plays the
// change out in the simulator from that state, and prints the expected duration under the stated
// timing model, the availability floor and when, the batches and where the rollout stalls (text,
// --json, --report). With --runs it is a sweep (forecastSweep.ts).
import { readManifests } from '@kruise-ts/api';
import {
  batchesHtml,
  FAILURE_MODES,
  type FailureMode,
  type ForecastChange,
  type ForecastOptions,
  type ForecastTimings,
  findTarget,
  forecastAnswers,
  forecastJson,
  formatForecast,
  parseDuration,
  readLiveState,
  renderHtmlReport,
  runForecast,
} from '@kruise-ts/sim';
import { parse as parseYaml } from 'yaml';
import { CliError, type CliIO, maxInputBytesOf, readInput, resolvePath } from '../io';
import type { ForecastCommandOptions, PreparedForecast } from './forecastOptions';

export type { ForecastCommandOptions, PreparedForecast } from './forecastOptions';

function duration(flag: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const ms = parseDuration(v);
  if (ms === undefined || ms < 0)
    throw new CliError(`${flag} must be a duration such as 30s or 1m30s, not ${JSON.stringify(v)}`);
  return ms;
}

/** Parses the change flags. */
export function changeOf(opts: ForecastCommandOptions, io: CliIO): ForecastChange {
  const change: ForecastChange = {};
  for (const s of opts.setImage ?? []) {
    const i = s.indexOf('=');
    if (i <= 0 || i === s.length - 1)
      throw new CliError(`--set-image takes container=image, not ${JSON.stringify(s)}`);
    change.setImages = { ...(change.setImages ?? {}), [s.slice(0, i)]: s.slice(i + 1) };
  }
  if (opts.partition !== undefined) {
    const p = opts.partition.trim();
    if (/^\d+$/.test(p)) change.partition = Number(p);
    else if (/^\d+%$/.test(p)) change.partition = p;
    else
      throw new CliError(
        `--partition must be an integer or a percentage, not ${JSON.stringify(opts.partition)}`,
      );
  }
  if (opts.pause && opts.resume) throw new CliError('--pause and --resume contradict each other');
  if (opts.pause) change.paused = true;
  if (opts.resume) change.paused = false;
  if (opts.patch !== undefined) {
    try {
      change.patch = parseYaml(opts.patch);
    } catch (e) {
      throw new CliError(`--patch is not JSON or YAML: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (opts.filename) {
    const r = readManifests(readInput(io, opts.filename, opts.filename, maxInputBytesOf(opts)));
    if (r.errors.length || r.objects.length !== 1)
      throw new CliError(
        `${opts.filename}: ${r.errors.length ? r.errors.map((e) => e.message).join('; ') : `holds ${r.objects.length} objects, not the one changed workload`}`,
      );
    change.manifest = r.objects[0];
  }
  return change;
}

/** Parses the timing-model flags. */
export function timingsOf(opts: ForecastCommandOptions, sweep: boolean): Partial<ForecastTimings> {
  const perImage: Record<string, number> = {};
  for (const s of opts.imagePullFor ?? []) {
    const i = s.lastIndexOf('=');
    if (i <= 0) throw new CliError(`--image-pull-for takes image=duration, not ${JSON.stringify(s)}`);
    perImage[s.slice(0, i)] = duration('--image-pull-for', s.slice(i + 1), 0);
  }
  const perNode: Record<string, Record<string, number>> = {};
  for (const s of opts.imagePullOn ?? []) {
    const m = /^([^:=]+)(?::(.+))?=([^=]+)$/.exec(s);
    if (!m)
      throw new CliError(
        `--image-pull-on takes node=duration or node:image=duration, not ${JSON.stringify(s)}`,
      );
    perNode[m[1]] = { ...(perNode[m[1]] ?? {}), [m[2] ?? '*']: duration('--image-pull-on', m[3], 0) };
  }
  const jitter = opts.jitter === undefined ? (sweep ? 0.2 : 0) : Number(opts.jitter);
  if (!Number.isFinite(jitter) || jitter < 0 || jitter >= 1)
    throw new CliError(`--jitter must be a fraction in [0, 1), not ${JSON.stringify(opts.jitter)}`);
  return {
    imagePullMs: duration('--image-pull', opts.imagePull, 30_000),
    imagePullByImage: perImage,
    imagePullByNode: perNode,
    containerStartMs: duration('--start', opts.start, 2000),
    readinessDelayMs: duration('--readiness', opts.readiness, 5000),
    terminationMs: duration('--stop', opts.stop, 5000),
    jitter,
  };
}

/** Reads the state (file or cluster), finds the target and parses every flag. */
export async function prepareForecast(
  args: string[],
  opts: ForecastCommandOptions,
  io: CliIO,
): Promise<PreparedForecast> {
  let docs: unknown[];
  if (opts.fromCluster) {
    if (args.length) throw new CliError('give either a state file or --from-cluster, not both');
    docs = await (await import('./forecastCluster')).readClusterState(opts.kubeconfig, opts.namespace);
  } else {
    if (args.length !== 1)
      throw new CliError(
        'give the saved state file (kubectl get ... -o yaml > state.yaml), or --from-cluster',
      );
    const r = readManifests(readInput(io, args[0], args[0], maxInputBytesOf(opts)), {
      acceptKind: () => true,
    });
    if (r.errors.length) {
      for (const e of r.errors)
        io.stderr(
          `error: ${args[0]}${e.line !== undefined ? `:${e.line}` : ''} (document ${e.document}): ${e.field ? `${e.field}: ` : ''}${e.message}\n`,
        );
      throw new CliError(`${args[0]} is not a readable state`);
    }
    docs = r.objects;
  }
  const state = readLiveState(docs);
  let want: { kind?: string; name?: string; namespace?: string } | undefined;
  if (opts.target) {
    const [kind, name] = opts.target.includes('/') ? opts.target.split('/', 2) : [undefined, opts.target];
    want = { kind, name, namespace: opts.namespace };
  } else if (opts.namespace) want = { namespace: opts.namespace };
  const found = findTarget(state, want);
  if (!found.target) throw new CliError(found.error ?? 'no target');
  const seed = Number(opts.seed ?? '1');
  if (!Number.isInteger(seed))
    throw new CliError(`--seed must be an integer, not ${JSON.stringify(opts.seed)}`);
  const failure = (opts.fail ?? 'none') as FailureMode;
  if (!FAILURE_MODES.includes(failure))
    throw new CliError(`--fail must be one of ${FAILURE_MODES.join(', ')}, not ${JSON.stringify(opts.fail)}`);
  const options: ForecastOptions = {
    seed,
    failure,
    timings: timingsOf(opts, opts.runs !== undefined),
    maxDurationMs: duration('--max-duration', opts.maxDuration, 7_200_000),
    stallAfterMs: duration('--stall-after', opts.stallAfter, 600_000),
  };
  return { state, target: found.target, change: changeOf(opts, io), options, seed };
}

/** Runs the command; returns the exit code (0 the forecast ran, whatever it predicts; 1 the change was rejected; 2 bad input). */
export async function forecastCommand(
  args: string[],
  opts: ForecastCommandOptions,
  io: CliIO,
): Promise<number> {
  const prepared = await prepareForecast(args, opts, io);
  if (opts.runs !== undefined || opts.sweepWorker)
    return (await import('./forecastSweep')).sweepCommand(prepared, opts, io);
  const f = runForecast(prepared.state, prepared.target, prepared.change, prepared.options);
  if (f.errors.length && !f.run) {
    for (const e of f.errors) io.stderr(`error: ${e}\n`);
    return f.errors.some((e) => e.startsWith('the change was rejected')) ? 1 : 2;
  }
  if (opts.json) io.stdout(`${JSON.stringify(forecastJson(f), null, 2)}\n`);
  else io.stdout(`${formatForecast(f)}\n`);
  if (opts.report && f.run) {
    try {
      io.writeFile(
        resolvePath(io, opts.report),
        renderHtmlReport(f.run, {
          title: `kruise-ts forecast: ${f.target}`,
          answers: forecastAnswers(f),
          extraHtml: batchesHtml(f),
        }),
      );
    } catch (e) {
      throw new CliError(
        `cannot write report ${opts.report}: ${e instanceof Error ? e.message : String(e)}`,
        1,
      );
    }
    io.stderr(`report written to ${opts.report}\n`);
  }
  return 0;
}
