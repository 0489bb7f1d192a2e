// The timeline chart: for each workload, its pods by revision over simulated time (ready solid,
// not ready pale), the available pods (black line) and the desired replicas (red dashes), drawn
// up to the playback cursor. It draws the simulator's timeline samples the way the HTML report's
// chart does, with the cursor added.
import type { TimelineDelta } from '../protocol';
import { clock, revisionColor } from './dom';

const W = 900;
const H = 220;
const M = { l: 40, r: 10, t: 10, b: 24 };
const SVG = 'http://www.w3.org/2000/svg';

function svgEl(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** Draws every workload's chart into `panel`, the time axis running to `endMs`, the cursor at `t`. */
export function drawCharts(
  panel: HTMLElement,
  workloads: TimelineDelta[],
  t: number,
  endMs: number,
  revisions: string[],
): void {
  panel.replaceChildren(...workloads.map((w) => chart(w, t / 1000, Math.max(endMs / 1000, 1), revisions)));
}

function chart(w: TimelineDelta, cursor: number, tMax: number, revisions: string[]): HTMLElement {
  const box = document.createElement('div');
  const h = document.createElement('h3');
  h.textContent = w.object;
  const samples = w.samples.filter((s) => s.t <= cursor);
  let yMax = 1;
  for (const s of w.samples)
    yMax = Math.max(
      yMax,
      s.desired,
      Object.values(s.byRevision).reduce((a, c) => a + c.ready + c.notReady, 0),
    );
  yMax = Math.ceil(yMax * 1.1);
  const x = (v: number) => M.l + (v / tMax) * (W - M.l - M.r);
  const y = (v: number) => H - M.b - (v / yMax) * (H - M.t - M.b);
  const svg = svgEl('svg', {
    viewBox: `0 0 ${W} ${H}`,
    width: '100%',
    role: 'img',
    'aria-label': `pods of ${w.object} over time`,
  });
  const end = (i: number) => (i + 1 < samples.length ? samples[i + 1].t : cursor);
  // Stacked layers, one ready and one not-ready band per revision.
  const base = samples.map(() => 0);
  w.revisions.forEach((rev) => {
    const color = revisionColor(revisions.indexOf(rev));
    for (const [key, opacity] of [
      ['ready', 0.9],
      ['notReady', 0.3],
    ] as const) {
      const top = samples.map((s, i) => base[i] + (s.byRevision[rev]?.[key] ?? 0));
      samples.forEach((s, i) => {
        if (top[i] === base[i]) return;
        svg.append(
          svgEl('rect', {
            x: x(s.t),
            y: y(top[i]),
            width: Math.max(0.5, x(end(i)) - x(s.t)),
            height: y(base[i]) - y(top[i]),
            fill: color,
            'fill-opacity': opacity,
          }),
        );
      });
      top.forEach((v, i) => {
        base[i] = v;
      });
    }
  });
  const line = (value: (i: number) => number, attrs: Record<string, string | number>) =>
    svg.append(
      svgEl('polyline', {
        points: samples.map((s, i) => `${x(s.t)},${y(value(i))} ${x(end(i))},${y(value(i))}`).join(' '),
        fill: 'none',
        ...attrs,
      }),
    );
  line((i) => samples[i].available, { stroke: '#222', 'stroke-width': 2 });
  line((i) => samples[i].desired, { stroke: '#c62828', 'stroke-width': 1.5, 'stroke-dasharray': '6,4' });
  svg.append(svgEl('line', { x1: M.l, x2: W - M.r, y1: H - M.b, y2: H - M.b, stroke: '#444' }));
  svg.append(svgEl('line', { x1: M.l, x2: M.l, y1: M.t, y2: H - M.b, stroke: '#444' }));
  for (const v of [0, Math.round(yMax / 2), yMax]) {
    const label = svgEl('text', { x: M.l - 4, y: y(v) + 4, 'text-anchor': 'end' });
    label.textContent = String(v);
    svg.append(label);
  }
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const label = svgEl('text', { x: x(f * tMax), y: H - 6, 'text-anchor': 'middle' });
    label.textContent = clock(f * tMax * 1000);
    svg.append(label);
  }
  svg.append(
    svgEl('line', {
      x1: x(cursor),
      x2: x(cursor),
      y1: M.t,
      y2: H - M.b,
      stroke: '#1565c0',
      'stroke-width': 1.5,
      class: 'cursor',
    }),
  );
  box.append(h, svg);
  return box;
}
