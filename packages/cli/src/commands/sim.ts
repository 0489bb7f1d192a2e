// `kruise-ts sim <scenario.yaml>`: runs a scenario, printing the `kubectl get`
// table of each Kruise kind it runs (clone, asts, ads, sidecarset, ud, imagepulljob,
// imagelistpulljob, crr) whenever a row changes and a progress line as it goes,
// then a summary. `--report out.html` writes the HTML report; `--json` prints
// the event log as JSON lines instead of the tables.

import { basename } from 'node:path';
import type { KubeObject } from '@kruise-ts/api';
import {
  CLONESET_COLUMNS,
  cloneSetRow,
  columnWidths,
  formatDuration,
  formatRow,
  formatScenarioError,
  formatSummary,
  kindColumns,
  kindRow,
  type RunResult,
  renderHtmlReport,
  runScenario,
  type Simulation,
  summarize,
  TABLE_KINDS,
  unitedSubsetsLine,
} from '@kruise-ts/sim';
import { CliError, type CliIO, maxInputBytesOf, readInput, relativeReader, resolvePath } from '../io';

/** Options of the sim command. */
export interface SimCommandOptions {
  report?: string;
  json?: boolean;
  seed?: string;
  quiet?: boolean;
  /** The input limit per file (`--max-input-bytes`), for the scenario and the files it names. */
  maxInputBytes?: string;
}

/** Wall-clock milliseconds (the CLI is the one place allowed to read the real clock). */
function wallNow(): number {
  return performance.now();
}

/** Runs a scenario file; returns the exit code (0 passed, 1 failed, 2 invalid). */
export function simCommand(file: string, opts: SimCommandOptions, io: CliIO, displayName?: string): number {
  const path = resolvePath(io, file);
  const maxBytes = maxInputBytesOf(opts);
  const text = readInput(io, path, `scenario ${file}`, maxBytes);
  let seed: number | undefined;
  if (opts.seed !== undefined) {
    seed = Number(opts.seed);
    if (!Number.isInteger(seed))
      throw new CliError(`--seed must be an integer, not ${JSON.stringify(opts.seed)}`);
  }
  const name = displayName ?? file;
  const printer = opts.json || opts.quiet ? undefined : new LivePrinter(io);
  const started = wallNow();
  const result = runScenario(text, {
    fileName: name,
    readFile: relativeReader(io, path, maxBytes),
    seed,
    // the HTML report's event table shows the whole run, not the bounded log's last records
    ...(opts.report ? { eventLogCapacity: Number.POSITIVE_INFINITY } : {}),
    onStart: (sim, scenario) => {
      const nodes = scenario.nodes.length;
      if (printer)
        io.stdout(
          `Simulating ${scenario.name} (seed ${seed ?? scenario.seed}, ${nodes} node${nodes === 1 ? '' : 's'}, ${scenario.steps.length} steps) from ${basename(name)}\n`,
        );
      if (opts.json) sim.log.onRecord((e) => io.stdout(`${JSON.stringify(e)}\n`));
      printer?.attach(sim, scenario.steps.length);
    },
    onTick: printer ? (sim) => printer.tick(sim) : undefined,
    onStepStart: printer
      ? (step, description, sim) => printer.stepStart(step.index, description, sim)
      : undefined,
    onStepEnd: printer ? (r, sim) => printer.stepEnd(r.index, r.status, r.message, sim) : undefined,
  });
  const wallMs = wallNow() - started;
  printer?.finish();
  if (result.status === 'invalid') {
    for (const e of result.errors) io.stderr(`error: ${formatScenarioError(e)}\n`);
    io.stderr(`error: ${name} is not a valid scenario; nothing was run\n`);
    return 2;
  }
  const summary = formatSummary(summarize(result), { wallMs });
  if (opts.json) io.stderr(`${summary}\n`);
  else io.stdout(`\n${summary}\n`);
  if (opts.report) writeReport(io, opts.report, result, wallMs);
  if (result.status === 'failed' && result.failure) io.stderr(`error: ${result.failure}\n`);
  return result.status === 'passed' ? 0 : 1;
}

function writeReport(io: CliIO, file: string, result: RunResult, wallMs: number): void {
  const out = resolvePath(io, file);
  try {
    io.writeFile(out, renderHtmlReport(result, { wallMs }));
  } catch (e) {
    throw new CliError(`cannot write report ${file}: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  io.stderr(`report written to ${file}\n`);
}

/** Prints table rows when they change, step lines, violations and (on a TTY) a live progress line. */
class LivePrinter {
  private last = new Map<string, string>();
  private widths = new Map<string, number[]>();
  private lastKind = '';
  private progress = '';
  private stepLabel = '';
  private totalSteps = 0;

  constructor(private readonly io: CliIO) {}

  attach(sim: Simulation, totalSteps: number): void {
    this.totalSteps = totalSteps;
    sim.log.onRecord((e) => {
      if (e.type === 'InvariantViolation')
        this.line(
          `!! ${formatDuration(e.t * 1000)} invariant ${(e.detail as { invariant: string }).invariant} violated on ${e.object}: ${(e.detail as { message: string }).message}`,
        );
      else if (e.type === 'Rejected' || e.type === 'ReconcileError' || e.type === 'ReconcileLoop')
        this.line(
          `!! ${formatDuration(e.t * 1000)} ${e.type} ${e.object ?? ''}: ${JSON.stringify(e.detail ?? {})}`,
        );
    });
  }

  tick(sim: Simulation): void {
    const now = sim.clock.startEpochMs + sim.nowMs;
    const sets = sim.list<KubeObject>('CloneSet');
    for (const { kind, apiVersion } of TABLE_KINDS) {
      const objs = kind === 'CloneSet' ? sets : sim.list<KubeObject>(kind, undefined, apiVersion);
      if (objs.length === 0) continue;
      const header = kind === 'CloneSet' ? [...CLONESET_COLUMNS] : kindColumns(kind);
      const rowOf = (o: KubeObject) => (kind === 'CloneSet' ? cloneSetRow(o, now) : kindRow(o, now));
      let widths = this.widths.get(kind);
      if (!widths) {
        widths = columnWidths([header, ...objs.map(rowOf)]);
        this.widths.set(kind, widths);
      }
      const age = header.indexOf('AGE');
      for (const o of objs) {
        const row = rowOf(o);
        const key = row.filter((_, i) => i !== age).join('|');
        const id = `${kind}/${o.metadata.namespace ?? ''}/${row[0]}`;
        if (this.last.get(id) === key) continue;
        this.last.set(id, key);
        // A table's header comes again whenever another kind's rows were printed in between.
        if (this.lastKind !== kind) this.line(formatRow(header, widths));
        this.lastKind = kind;
        this.line(formatRow(row, widths));
        if (kind === 'UnitedDeployment') this.line(`  subsets: ${unitedSubsetsLine(o)}`);
      }
    }
    if (this.io.isTTY) {
      const parts = sets.map((cs) => {
        const st = (cs.status ?? {}) as Record<string, number>;
        const r = (cs.spec as { replicas?: number }).replicas ?? 0;
        return `${cs.metadata.name}: ${st.updatedReplicas ?? 0}/${r} updated, ${st.readyReplicas ?? 0}/${r} ready`;
      });
      this.setProgress(
        `[${formatDuration(sim.nowMs)}] ${this.stepLabel}${parts.length ? ` | ${parts.join('; ')}` : ''}`,
      );
    }
  }

  stepStart(index: number, description: string, sim: Simulation): void {
    this.stepLabel = `step ${index + 1}/${this.totalSteps}: ${description}`;
    if (!this.io.isTTY) this.line(`-- ${formatDuration(sim.nowMs)} ${this.stepLabel}`);
  }

  stepEnd(index: number, status: string, message: string | undefined, sim: Simulation): void {
    if (status === 'failed')
      this.line(`!! ${formatDuration(sim.nowMs)} step ${index + 1} failed: ${message ?? ''}`);
    else if (!this.io.isTTY) this.line(`-- ${formatDuration(sim.nowMs)} step ${index + 1} done`);
  }

  finish(): void {
    this.setProgress('');
  }

  private line(text: string): void {
    const p = this.progress;
    this.setProgress('');
    this.io.stdout(`${text}\n`);
    if (p) this.setProgress(p);
  }

  private setProgress(text: string): void {
    if (!this.io.isTTY) return;
    if (text === this.progress) return;
    this.io.stdout(`\r\x1b[K${text}`);
    this.progress = text;
  }
}
