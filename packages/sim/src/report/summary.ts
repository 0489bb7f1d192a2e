// The end-of-run summary: simulated duration, lowest availability (after a
// workload first became fully available) and when, pods created, deleted and
// updated in place (a SidecarSet's in-place sidecar upgrade included), invariant
// results with the kinds each was judged on, and step results.
import { formatDuration } from '@kruise-ts/cluster';
import type { InvariantName } from '../invariants';
import type { RunResult } from '../scenario/run';

/** The numbers of a run. */
export interface RunSummary {
  scenario: string;
  status: RunResult['status'];
  failure?: string;
  simulatedMs: number;
  /** Lowest availability over workloads, after each first became fully available. */
  lowest?: { object: string; available: number; desired: number; t: number };
  podsCreated: number;
  podsDeleted: number;
  podsUpdatedInPlace: number;
  reconciles: number;
  invariants: {
    name: InvariantName;
    objectName?: string;
    checks: number;
    /** Checks per kind (`{DaemonSet: 22}`). */
    checksByKind: Record<string, number>;
    violations: number;
    first?: string;
  }[];
  steps: { total: number; done: number; failed: number; skipped: number };
}

/** Summarises a run. */
export function summarize(r: RunResult): RunSummary {
  const sim = r.sim;
  let lowest: RunSummary['lowest'];
  for (const w of sim?.timeline.workloads.values() ?? []) {
    if (!w.lowest) continue;
    const ratio = w.lowest.available / Math.max(1, w.lowest.desired);
    if (!lowest || ratio < lowest.available / Math.max(1, lowest.desired))
      lowest = { object: w.object, ...w.lowest };
  }
  return {
    scenario: r.scenario?.name ?? 'scenario',
    status: r.status,
    failure: r.failure,
    simulatedMs: sim?.nowMs ?? 0,
    lowest,
    podsCreated: sim?.stats.podsCreated ?? 0,
    podsDeleted: sim?.stats.podsDeleted ?? 0,
    podsUpdatedInPlace: sim?.stats.podsUpdatedInPlace ?? 0,
    reconciles: sim?.stats.reconciles ?? 0,
    invariants: r.invariants.map((i) => ({
      name: i.name,
      objectName: i.objectName,
      checks: i.checks,
      checksByKind: { ...(i.checksByKind ?? {}) },
      violations: i.violations.length,
      first: i.violations[0]
        ? `${formatDuration(i.violations[0].t * 1000)} ${i.violations[0].object}: ${i.violations[0].message}`
        : undefined,
    })),
    steps: {
      total: r.steps.length,
      done: r.steps.filter((s) => s.status === 'done').length,
      failed: r.steps.filter((s) => s.status === 'failed').length,
      skipped: r.steps.filter((s) => s.status === 'skipped').length,
    },
  };
}

/** The summary as text lines (`wallMs` adds the wall-clock time). */
export function formatSummary(s: RunSummary, opts: { wallMs?: number } = {}): string {
  const lines: string[] = [];
  const pad = (k: string) => `  ${k.padEnd(26)}`;
  lines.push(
    `Summary of ${s.scenario}: ${s.status === 'passed' ? 'PASSED' : s.status === 'failed' ? 'FAILED' : 'INVALID'}`,
  );
  const wall = opts.wallMs !== undefined ? ` (in ${(opts.wallMs / 1000).toFixed(2)}s wall time)` : '';
  lines.push(`${pad('simulated duration')}${formatDuration(s.simulatedMs)}${wall}`);
  if (s.lowest) {
    const pct = Math.round((100 * s.lowest.available) / Math.max(1, s.lowest.desired));
    lines.push(
      `${pad('lowest availability')}${s.lowest.available}/${s.lowest.desired} (${pct}%) at ${formatDuration(s.lowest.t * 1000)} (${s.lowest.object})`,
    );
  } else lines.push(`${pad('lowest availability')}n/a (no workload became fully available)`);
  lines.push(`${pad('pods created')}${s.podsCreated}`);
  lines.push(`${pad('pods deleted')}${s.podsDeleted}`);
  lines.push(`${pad('pods updated in place')}${s.podsUpdatedInPlace}`);
  lines.push(
    `${pad('steps')}${s.steps.done}/${s.steps.total} done${s.steps.failed ? `, ${s.steps.failed} failed` : ''}${s.steps.skipped ? `, ${s.steps.skipped} skipped` : ''}`,
  );
  if (s.invariants.length === 0) lines.push(`${pad('invariants')}none checked`);
  for (const i of s.invariants) {
    const name = `invariant ${i.name}${i.objectName ? ` (${i.objectName})` : ''}`;
    lines.push(
      `${pad(name)}${i.violations === 0 ? `ok (checked ${i.checks} times${kindsText(i.checksByKind)})` : `VIOLATED ${i.violations} time(s); first at ${i.first}`}`,
    );
  }
  if (s.failure) lines.push(`${pad('failure')}${s.failure}`);
  return lines.join('\n');
}

/** `` or ` on CloneSet` / ` on DaemonSet 22, StatefulSet 8` (the kinds an invariant was judged on). */
function kindsText(byKind: Record<string, number>): string {
  const kinds = Object.keys(byKind).sort();
  if (kinds.length === 0) return ', no workload it applies to';
  if (kinds.length === 1) return ` on ${kinds[0]}`;
  return ` on ${kinds.map((k) => `${k} ${byKind[k]}`).join(', ')}`;
}
