// A forecast as a person reads it (text), as a program reads it (JSON), and as the answers at the
// top of the HTML report; and a sweep's percentiles as text. Pure string building.
import { formatDuration } from '@kruise-ts/cluster';
import type { ReportAnswer } from '../report/html';
import { escapeHtml } from '../report/svgParts';
import type { ForecastResult } from './run';
import type { SweepRun, SweepSummary } from './sweep';

const pct = (a: number, d: number) => Math.round((100 * a) / Math.max(1, d));

/** The outcome in a few words: rolled out, stopped at its partition, or stalled and why. */
export function outcomeText(f: ForecastResult): string {
  if (f.errors.length) return `not run: ${f.errors.join('; ')}`;
  const main = f.stalls.filter((s) => s.reason !== 'partition');
  if (f.completed) {
    const part = f.stalls.find((s) => s.reason === 'partition');
    return part
      ? `rolled out up to the partition in ${formatDuration(f.durationMs)}`
      : `rolled out in ${formatDuration(f.durationMs)}`;
  }
  return `stalls at +${formatDuration(f.lastProgressMs)}: ${main.map((s) => s.reason).join(', ') || 'no progress'} (no progress for ${formatDuration(f.durationMs - f.lastProgressMs)} after)`;
}

/** The forecast as text. */
export function formatForecast(f: ForecastResult): string {
  const pad = (k: string) => `  ${k.padEnd(24)}`;
  const lines = [`Forecast for ${f.target}: ${f.change.join(', ') || '(no change)'} (seed ${f.seed})`];
  if (f.errors.length) {
    lines.push(...f.errors.map((e) => `  error: ${e}`));
    return lines.join('\n');
  }
  lines.push(`  timing model: ${f.timingModel}`);
  lines.push(`  starting state: ${f.start}`);
  lines.push(`${pad('outcome')}${outcomeText(f)}`);
  lines.push(
    `${pad('expected duration')}${f.completed ? formatDuration(f.durationMs) : `more than ${formatDuration(f.durationMs)} (did not complete)`}`,
  );
  if (f.floor)
    lines.push(
      `${pad('availability floor')}${f.floor.available}/${f.floor.desired} (${pct(f.floor.available, f.floor.desired)}%) at +${formatDuration(f.floor.atMs)}`,
    );
  lines.push(
    `${pad('invariants')}${f.invariantsViolated.length ? `VIOLATED: ${f.invariantsViolated.join(', ')}` : 'all held'}`,
  );
  lines.push('Batches (time after the change, what the controller did, which pods):');
  if (f.batches.length === 0) lines.push('  none');
  for (const b of f.batches.slice(0, 200))
    lines.push(
      `  +${formatDuration(b.atMs).padEnd(8)} ${b.action.padEnd(17)} ${b.pods.length} pod(s): ${abbreviate(b.pods)}`,
    );
  if (f.batches.length > 200) lines.push(`  ... ${f.batches.length - 200} more (see --json)`);
  lines.push('Stalls:');
  if (f.stalls.length === 0) lines.push('  none');
  for (const s of f.stalls)
    lines.push(`  ${s.reason}: ${s.message}${s.pods?.length ? ` [${abbreviate(s.pods)}]` : ''}`);
  return lines.join('\n');
}

function abbreviate(names: readonly string[], max = 8): string {
  return names.length <= max
    ? names.join(', ')
    : `${names.slice(0, max).join(', ')}, ... (${names.length - max} more)`;
}

/** The forecast as plain JSON (no simulation inside). */
export function forecastJson(f: ForecastResult): Record<string, unknown> {
  return {
    target: f.target,
    change: f.change,
    seed: f.seed,
    timingModel: f.timingModel,
    failure: f.failure,
    start: f.start,
    errors: f.errors,
    completed: f.completed,
    outcome: outcomeText(f),
    durationSeconds: f.durationMs / 1000,
    lastProgressSeconds: f.lastProgressMs / 1000,
    floor: f.floor
      ? {
          available: f.floor.available,
          desired: f.floor.desired,
          percent: pct(f.floor.available, f.floor.desired),
          atSeconds: f.floor.atMs / 1000,
        }
      : null,
    batches: f.batches.map((b) => ({ atSeconds: b.atMs / 1000, action: b.action, pods: b.pods })),
    stalls: f.stalls,
    invariantsViolated: f.invariantsViolated,
  };
}

/** The answers at the top of the forecast's HTML report. */
export function forecastAnswers(f: ForecastResult): ReportAnswer[] {
  const out: ReportAnswer[] = [
    { label: 'Change', value: `${f.target}: ${f.change.join(', ')}` },
    { label: 'Outcome', value: outcomeText(f), tone: f.completed ? 'ok' : 'bad' },
    {
      label: 'Expected duration',
      value: f.completed
        ? formatDuration(f.durationMs)
        : `more than ${formatDuration(f.durationMs)} (did not complete)`,
    },
  ];
  if (f.floor) {
    const p = pct(f.floor.available, f.floor.desired);
    out.push({
      label: 'Availability floor',
      value: `${f.floor.available}/${f.floor.desired} (${p}%) at +${formatDuration(f.floor.atMs)} after the change`,
      tone: p < 50 ? 'bad' : p < 100 ? 'warn' : 'ok',
    });
  }
  out.push({
    label: 'Stalls',
    value: f.stalls.length ? f.stalls.map((s) => `${s.reason}: ${s.message}`).join(' | ') : 'none',
    tone: f.stalls.some((s) => s.reason !== 'partition') ? 'bad' : undefined,
  });
  out.push({ label: 'Timing model', value: f.timingModel });
  out.push({ label: 'Starting state', value: f.start });
  return out;
}

/** The batches as an HTML table for the report (escaped). */
export function batchesHtml(f: ForecastResult): string {
  if (f.batches.length === 0) return '';
  return `<h2>Batches</h2><table class="events"><tr><th>after the change</th><th>action</th><th>pods</th></tr>${f.batches
    .map(
      (b) =>
        `<tr><td>+${formatDuration(b.atMs)}</td><td>${escapeHtml(b.action)}</td><td>${escapeHtml(b.pods.join(', '))}</td></tr>`,
    )
    .join('')}</table>`;
}

/** A sweep's percentiles as text. */
export function formatSweep(
  target: string,
  change: readonly string[],
  timingModel: string,
  s: SweepSummary,
): string {
  const pad = (k: string) => `  ${k.padEnd(27)}`;
  const lines = [
    `Sweep of ${s.runs} forecast(s) for ${target}: ${change.join(', ')}`,
    `  timing model: ${timingModel}`,
  ];
  lines.push(`${pad('completed')}${s.completed}/${s.runs}`);
  lines.push(
    `${pad('duration p50 / p95 / max')}${s.durationMs ? `${formatDuration(s.durationMs.p50)} / ${formatDuration(s.durationMs.p95)} / ${formatDuration(s.durationMs.max)}` : 'n/a (no run completed)'}`,
  );
  if (s.worstFloor)
    lines.push(
      `${pad('worst availability')}${s.worstFloor.available}/${s.worstFloor.desired} (${Math.round(100 * s.worstFloor.ratio)}%, seed ${s.worstFloor.seed})`,
    );
  if (s.floorP5 !== null) lines.push(`${pad('availability p5')}${Math.round(100 * s.floorP5)}%`);
  return lines.join('\n');
}

/** One forecast as a sweep run. */
export function sweepRunOf(f: ForecastResult): SweepRun {
  const fl = f.floor ?? { available: 1, desired: 1 };
  return {
    seed: f.seed,
    completed: f.completed,
    durationMs: f.durationMs,
    floor: fl.available / Math.max(1, fl.desired),
    floorAvailable: fl.available,
    floorDesired: fl.desired,
  };
}
