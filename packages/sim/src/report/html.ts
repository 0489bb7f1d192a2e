// The HTML report: one self-contained page (inline CSS and SVG, no scripts)
// with the summary, a timeline chart per workload (pods by revision and
// readiness over time, available pods, desired replicas, step markers), the
// invariant results and the event table.
import type { SimEvent } from '../events';
import type { RunResult } from '../scenario/run';
import { formatDuration } from '../time';
import { formatSummary, summarize } from './summary';
import type { WorkloadTimeline } from './timeline';

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7'];
const MAX_EVENT_ROWS = 5000;
const CHATTY = new Set([
  'ImagePulling',
  'ImagePulled',
  'ContainerStarted',
  'ContainerReady',
  'Scheduled',
  'UpdateStatus',
  'PodTerminating',
  'PodTerminated',
]);

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The self-contained HTML page of a run. */
export function renderHtmlReport(r: RunResult, opts: { wallMs?: number; title?: string } = {}): string {
  const s = summarize(r);
  const title = opts.title ?? `kruise-ts simulation: ${s.scenario}`;
  const endT = (r.sim?.nowMs ?? 0) / 1000;
  const steps = (r.sim?.events ?? []).filter((e) => e.type === 'StepStarted');
  const charts = [...(r.sim?.timeline.workloads.values() ?? [])].map((w) => chart(w, endT, steps)).join('\n');
  const violations = r.invariants.flatMap((i) => i.violations);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#222;max-width:1200px}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:1rem;color:#fff;font-weight:600}
.passed{background:#2e7d32}.failed{background:#c62828}.invalid{background:#6d4c41}
pre.summary{background:#f5f5f5;padding:1rem;border-radius:.4rem;overflow-x:auto}
table.events{border-collapse:collapse;font-size:.8rem;width:100%}
table.events th,table.events td{border-bottom:1px solid #e0e0e0;padding:.15rem .4rem;text-align:left;vertical-align:top}
table.events tr.warn td{background:#fff3e0}table.events tr.bad td{background:#ffebee}table.events tr.step td{background:#e3f2fd}
.legend span{display:inline-block;margin-right:1rem;font-size:.85rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle}
svg text{font-size:11px;fill:#444}
</style>
</head>
<body>
<h1>${escapeHtml(title)} <span class="badge ${s.status}">${s.status.toUpperCase()}</span></h1>
${r.scenario?.description ? `<p>${escapeHtml(r.scenario.description)}</p>` : ''}
<pre class="summary">${escapeHtml(formatSummary(s, { wallMs: opts.wallMs }))}</pre>
<h2>Timeline</h2>
${charts || '<p>No workload was simulated.</p>'}
<h2>Steps</h2>
<table class="events"><tr><th>#</th><th>step</th><th>status</th><th>start</th><th>end</th><th>message</th></tr>
${r.steps.map((st) => `<tr class="${st.status === 'failed' ? 'bad' : ''}"><td>${st.index + 1}</td><td>${escapeHtml(st.description)}</td><td>${st.status}</td><td>${formatDuration(st.startedMs)}</td><td>${formatDuration(st.endedMs)}</td><td>${escapeHtml(st.message ?? '')}</td></tr>`).join('\n')}
</table>
<h2>Invariants</h2>
${r.invariants.length === 0 ? '<p>None checked.</p>' : `<ul>${r.invariants.map((i) => `<li><b>${i.name}</b>${i.objectName ? ` (${escapeHtml(i.objectName)})` : ''}: ${i.violations.length === 0 ? `held at all ${i.checks} checks` : `<b style="color:#c62828">violated ${i.violations.length} time(s)</b>`}</li>`).join('')}</ul>`}
${violations.length ? `<table class="events"><tr><th>time</th><th>invariant</th><th>object</th><th>message</th><th>pods</th></tr>${violations.map((v) => `<tr class="bad"><td>${formatDuration(v.t * 1000)}</td><td>${v.invariant}</td><td>${escapeHtml(v.object)}</td><td>${escapeHtml(v.message)}</td><td>${escapeHtml(v.pods.join(', '))}</td></tr>`).join('')}</table>` : ''}
<h2>Events</h2>
${eventTable(r.sim?.events ?? [])}
</body>
</html>
`;
}

function eventTable(events: SimEvent[]): string {
  let rows = events;
  let note = '';
  if (rows.length > MAX_EVENT_ROWS) {
    rows = rows.filter((e) => !CHATTY.has(e.type));
    note = `<p>${events.length} events; kubelet, scheduler and status-write events are left out.</p>`;
    if (rows.length > MAX_EVENT_ROWS) {
      note = `<p>${events.length} events; showing the first ${MAX_EVENT_ROWS} of ${rows.length} non-kubelet events (use <code>--json</code> for all).</p>`;
      rows = rows.slice(0, MAX_EVENT_ROWS);
    }
  }
  const cls = (e: SimEvent) =>
    e.type === 'InvariantViolation' ||
    e.type === 'StepFailed' ||
    e.type === 'ActionFailed' ||
    e.type === 'Rejected'
      ? 'bad'
      : e.type.startsWith('Step')
        ? 'step'
        : e.type === 'Event' && (e.detail as { type?: string } | undefined)?.type === 'Warning'
          ? 'warn'
          : '';
  const detail = (e: SimEvent) => (e.detail ? escapeHtml(JSON.stringify(e.detail)) : '');
  return `${note}<table class="events"><tr><th>time</th><th>type</th><th>object</th><th>source</th><th>detail</th></tr>
${rows.map((e) => `<tr class="${cls(e)}"><td>${formatDuration(e.t * 1000)}</td><td>${escapeHtml(e.type)}</td><td>${escapeHtml(e.object ?? '')}</td><td>${escapeHtml(e.source ?? '')}</td><td>${detail(e)}</td></tr>`).join('\n')}
</table>`;
}

/** A stacked step chart of one workload's pods by revision (ready solid, not ready pale). */
function chart(w: WorkloadTimeline, endT: number, steps: SimEvent[]): string {
  const W = 1000;
  const H = 320;
  const m = { l: 48, r: 16, t: 16, b: 36 };
  const samples = w.samples;
  if (samples.length === 0) return '';
  const tMax = Math.max(endT, samples[samples.length - 1].t, 1);
  const total = (i: number) =>
    Object.values(samples[i].byRevision).reduce((a, c) => a + c.ready + c.notReady, 0);
  let yMax = 1;
  samples.forEach((sm, i) => {
    yMax = Math.max(yMax, total(i), sm.desired);
  });
  yMax = Math.ceil(yMax * 1.1);
  const x = (t: number) => m.l + (t / tMax) * (W - m.l - m.r);
  const y = (v: number) => H - m.b - (v / yMax) * (H - m.t - m.b);
  const layers: { label: string; color: string; opacity: number; value: (i: number) => number }[] = [];
  w.revisions.forEach((rev, k) => {
    const color = PALETTE[k % PALETTE.length];
    layers.push({
      label: `${rev || '(none)'} ready`,
      color,
      opacity: 0.9,
      value: (i) => samples[i].byRevision[rev]?.ready ?? 0,
    });
    layers.push({
      label: `${rev || '(none)'} not ready`,
      color,
      opacity: 0.3,
      value: (i) => samples[i].byRevision[rev]?.notReady ?? 0,
    });
  });
  const base = samples.map(() => 0);
  const polys: string[] = [];
  for (const layer of layers) {
    const top = samples.map((_, i) => base[i] + layer.value(i));
    if (top.every((v, i) => v === base[i])) continue;
    const upper: string[] = [];
    const lower: string[] = [];
    samples.forEach((sm, i) => {
      const tNext = i + 1 < samples.length ? samples[i + 1].t : tMax;
      upper.push(
        `${x(sm.t).toFixed(1)},${y(top[i]).toFixed(1)}`,
        `${x(tNext).toFixed(1)},${y(top[i]).toFixed(1)}`,
      );
      lower.push(
        `${x(sm.t).toFixed(1)},${y(base[i]).toFixed(1)}`,
        `${x(tNext).toFixed(1)},${y(base[i]).toFixed(1)}`,
      );
    });
    polys.push(
      `<polygon points="${[...upper, ...lower.reverse()].join(' ')}" fill="${layer.color}" fill-opacity="${layer.opacity}"><title>${escapeHtml(layer.label)}</title></polygon>`,
    );
    top.forEach((v, i) => {
      base[i] = v;
    });
  }
  const line = (value: (i: number) => number) =>
    samples
      .map((sm, i) => {
        const tNext = i + 1 < samples.length ? samples[i + 1].t : tMax;
        return `${x(sm.t).toFixed(1)},${y(value(i)).toFixed(1)} ${x(tNext).toFixed(1)},${y(value(i)).toFixed(1)}`;
      })
      .join(' ');
  const yTicks = ticks(yMax).map(
    (v) =>
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${m.l - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`,
  );
  const xTicks = ticks(tMax).map(
    (t) => `<text x="${x(t)}" y="${H - m.b + 16}" text-anchor="middle">${formatDuration(t * 1000)}</text>`,
  );
  // Steps at the same time share a marker line; their numbers stack.
  const sameTime = new Map<number, number>();
  const markers = steps.map((e, i) => {
    const label = String((e.detail as { step?: string } | undefined)?.step ?? '');
    const k = sameTime.get(e.t) ?? 0;
    sameTime.set(e.t, k + 1);
    return `<g><line x1="${x(e.t)}" x2="${x(e.t)}" y1="${m.t}" y2="${H - m.b}" stroke="#888" stroke-dasharray="3,3"/><text x="${x(e.t) + 3}" y="${m.t + 10 + 12 * k}">${i + 1}</text><title>step ${i + 1} at ${formatDuration(e.t * 1000)}: ${escapeHtml(label)}</title></g>`;
  });
  const legend = w.revisions
    .map(
      (rev, k) =>
        `<span><i style="background:${PALETTE[k % PALETTE.length]}"></i>${escapeHtml(rev || '(none)')} ready</span><span><i style="background:${PALETTE[k % PALETTE.length]};opacity:.3"></i>not ready</span>`,
    )
    .join('');
  return `<h3>${escapeHtml(w.object)}</h3>
<div class="legend">${legend}<span><i style="background:#222;height:2px"></i>available</span><span><i style="border-top:2px dashed #c62828;height:0"></i>desired</span></div>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="pods of ${escapeHtml(w.object)} by revision over time">
${yTicks.join('')}
${polys.join('\n')}
<polyline points="${line((i) => samples[i].available)}" fill="none" stroke="#222" stroke-width="2"><title>available pods</title></polyline>
<polyline points="${line((i) => samples[i].desired)}" fill="none" stroke="#c62828" stroke-width="1.5" stroke-dasharray="6,4"><title>desired replicas</title></polyline>
${markers.join('')}
<line x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}" stroke="#444"/>
<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${H - m.b}" stroke="#444"/>
${xTicks.join('')}
<text x="${W / 2}" y="${H - 4}" text-anchor="middle">simulated time</text>
</svg>`;
}

/** About five round tick values in [0, max]. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const pow = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const step = [1, 2, 5, 10].map((f) => f * pow).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}
