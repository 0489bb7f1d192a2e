// The HTML report: one self-contained page (inline CSS, SVG and one small inline script for the
// event filter; nothing loaded from elsewhere). From the top: the answers a reader came for
// (duration, lowest availability and when, invariants, and a forecast's stalls and batches when
// given), the summary, a timeline section per workload in the kind's own terms (charts.ts,
// lanes.ts), the steps, the invariants per kind, and the event table grouped by object
// (events.ts). Pure string building: the browser playground renders it too.
import { formatDuration } from '@kruise-ts/cluster';
import type { RunResult } from '../scenario/run';
import { workloadSection } from './charts';
import { EVENT_FILTER_SCRIPT, eventTable } from './events';
import { formatSummary, type RunSummary, summarize } from './summary';
import { escapeHtml } from './svgParts';

export { escapeHtml } from './svgParts';

/** One answer shown in the box at the top of the report. */
export interface ReportAnswer {
  label: string;
  value: string;
  /** `bad` red, `warn` amber, `ok` green; plain when absent. */
  tone?: 'ok' | 'warn' | 'bad';
}

/** Options of `renderHtmlReport`. */
export interface HtmlReportOptions {
  wallMs?: number;
  title?: string;
  /** The answers at the top (default: duration, lowest availability, invariants, steps). */
  answers?: ReportAnswer[];
  /** Extra HTML after the answers (a forecast's batches, say); the caller escapes it. */
  extraHtml?: string;
}

/** The answers of a run: duration, lowest availability and when, invariants, steps. */
export function runAnswers(s: RunSummary): ReportAnswer[] {
  const out: ReportAnswer[] = [{ label: 'Simulated duration', value: formatDuration(s.simulatedMs) }];
  if (s.lowest) {
    const pct = Math.round((100 * s.lowest.available) / Math.max(1, s.lowest.desired));
    out.push({
      label: 'Lowest availability',
      value: `${s.lowest.available}/${s.lowest.desired} (${pct}%) at ${formatDuration(s.lowest.t * 1000)} on ${s.lowest.object}`,
      tone: pct < 50 ? 'bad' : pct < 100 ? 'warn' : 'ok',
    });
  } else out.push({ label: 'Lowest availability', value: 'n/a (no workload became fully available)' });
  const violated = s.invariants.filter((i) => i.violations > 0);
  out.push({
    label: 'Invariants',
    value:
      s.invariants.length === 0
        ? 'none checked'
        : violated.length
          ? `${violated.map((i) => i.name).join(', ')} violated; first: ${violated[0].first ?? ''}`
          : `all held (${s.invariants.map((i) => i.name).join(', ')})`,
    tone: s.invariants.length === 0 ? undefined : violated.length ? 'bad' : 'ok',
  });
  out.push({
    label: 'Steps',
    value: `${s.steps.done}/${s.steps.total} done${s.steps.failed ? `, ${s.steps.failed} failed` : ''}${s.failure ? ` (${s.failure})` : ''}`,
    tone: s.steps.failed ? 'bad' : undefined,
  });
  return out;
}

/** The self-contained HTML page of a run. */
export function renderHtmlReport(r: RunResult, opts: HtmlReportOptions = {}): string {
  const s = summarize(r);
  const title = opts.title ?? `kruise-ts simulation: ${s.scenario}`;
  const endT = (r.sim?.nowMs ?? 0) / 1000;
  const steps = (r.sim?.events ?? []).filter((e) => e.type === 'StepStarted');
  const sections = [...(r.sim?.timeline.workloads.values() ?? [])]
    .map((w) => workloadSection(w, endT, steps))
    .filter(Boolean)
    .join('\n');
  const violations = r.invariants.flatMap((i) => i.violations);
  const answers = opts.answers ?? runAnswers(s);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#222;max-width:1200px}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3 small{font-weight:normal;color:#666;font-size:.8rem}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:1rem;color:#fff;font-weight:600}
.passed{background:#2e7d32}.failed{background:#c62828}.invalid{background:#6d4c41}
dl.answers{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;background:#f5f8fc;padding:1rem;border-radius:.4rem;border-left:4px solid #4e79a7}
dl.answers dt{font-weight:600}dl.answers dd{margin:0}
dd.ok{color:#2e7d32}dd.warn{color:#b26a00}dd.bad{color:#c62828;font-weight:600}
pre.summary{background:#f5f5f5;padding:1rem;border-radius:.4rem;overflow-x:auto}
table.events{border-collapse:collapse;font-size:.8rem;width:100%}
table.events th,table.events td{border-bottom:1px solid #e0e0e0;padding:.15rem .4rem;text-align:left;vertical-align:top}
table.events tr.warn td{background:#fff3e0}table.events tr.bad td{background:#ffebee}table.events tr.step td{background:#e3f2fd}
details.obj{margin:.2rem 0}details.obj summary{cursor:pointer;font-size:.85rem}details.obj.bad summary{color:#c62828}details.obj.warn summary{color:#b26a00}
.legend span{display:inline-block;margin-right:1rem;font-size:.85rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle}
svg text{font-size:11px;fill:#444}svg g.step text{font-weight:600;fill:#555}
</style>
</head>
<body>
<h1>${escapeHtml(title)} <span class="badge ${s.status}">${s.status.toUpperCase()}</span></h1>
${r.scenario?.description ? `<p>${escapeHtml(r.scenario.description)}</p>` : ''}
<dl class="answers">${answers.map((a) => `<dt>${escapeHtml(a.label)}</dt><dd${a.tone ? ` class="${a.tone}"` : ''}>${escapeHtml(a.value)}</dd>`).join('')}</dl>
${opts.extraHtml ?? ''}
<h2>Summary</h2>
<pre class="summary">${escapeHtml(formatSummary(s, { wallMs: opts.wallMs }))}</pre>
<h2>Timeline</h2>
${sections || '<p>No workload was simulated.</p>'}
<h2>Steps</h2>
<table class="events"><tr><th>#</th><th>step</th><th>status</th><th>start</th><th>end</th><th>message</th></tr>
${r.steps.map((st) => `<tr class="${st.status === 'failed' ? 'bad' : ''}"><td>${st.index + 1}</td><td>${escapeHtml(st.description)}</td><td>${st.status}</td><td>${formatDuration(st.startedMs)}</td><td>${formatDuration(st.endedMs)}</td><td>${escapeHtml(st.message ?? '')}</td></tr>`).join('\n')}
</table>
<h2>Invariants</h2>
${
  r.invariants.length === 0
    ? '<p>None checked.</p>'
    : `<ul>${r.invariants
        .map(
          (i) =>
            `<li><b>${i.name}</b>${i.objectName ? ` (${escapeHtml(i.objectName)})` : ''}: ${i.violations.length === 0 ? `held at all ${i.checks} checks` : `<b style="color:#c62828">violated ${i.violations.length} time(s)</b>`}${
              Object.keys(i.checksByKind ?? {}).length
                ? ` (${Object.entries(i.checksByKind)
                    .map(([k, n]) => `${escapeHtml(k)} ${n}`)
                    .join(', ')})`
                : ''
            }</li>`,
        )
        .join('')}</ul>`
}
${violations.length ? `<table class="events"><tr><th>time</th><th>invariant</th><th>object</th><th>message</th><th>pods</th></tr>${violations.map((v) => `<tr class="bad"><td>${formatDuration(v.t * 1000)}</td><td>${v.invariant}</td><td>${escapeHtml(v.object)}</td><td>${escapeHtml(v.message)}</td><td>${escapeHtml(v.pods.join(', '))}</td></tr>`).join('')}</table>` : ''}
<h2>Events</h2>
${eventTable(r.sim?.events ?? [])}
<script>${EVENT_FILTER_SCRIPT}</script>
</body>
</html>
`;
}
