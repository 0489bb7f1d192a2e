// The timeline chart of one workload: a stacked step chart of its pods (or nodes, or requests) by
// group, ready solid and not ready pale, with the available line, the desired line (for a
// UnitedDeployment the total it must reach, for a DaemonSet the nodes that should run a pod, for a
// SidecarSet the matched pods) and numbered step markers; below it, when the workload had at most
// MAX_LANES pods, one lane per pod, ordinal or node (lanes.ts).
import { formatDuration, type SimEvent } from '@kruise-ts/cluster';
import { laneChart } from './lanes';
import { escapeHtml, groupColor, groupName, legend, markerSvg, placeMarkers, ticks } from './svgParts';
import type { WorkloadTimeline } from './timeline';

/** What the chart's counts are, per kind. */
const SUBJECT: Record<string, string> = {
  CloneSet: 'pods by revision',
  StatefulSet: 'pods by revision',
  DaemonSet: 'daemon pods by revision; desired = nodes that should run one',
  UnitedDeployment: 'pods by subset; desired = the total spec.replicas',
  SidecarSet: 'matched pods by sidecar revision; desired = matched pods',
  ImagePullJob: 'nodes by pull state (pulled over time)',
  ImageListPullJob: 'image pull jobs by state',
  ContainerRecreateRequest: 'requests by phase',
};

/** The section of one workload: heading, legend, stacked chart and lanes. */
export function workloadSection(w: WorkloadTimeline, endT: number, steps: readonly SimEvent[]): string {
  if (w.samples.length === 0) return '';
  const availableName = w.availability ? 'available' : w.groupBy === 'pull state' ? 'pulled' : 'completed';
  const extra = `<span><i style="background:#222;height:2px"></i>${availableName}</span><span><i style="border-top:2px dashed #c62828;height:0"></i>desired</span>`;
  return `<section class="workload" data-kind="${escapeHtml(w.kind)}">
<h3>${escapeHtml(w.object)} <small>${escapeHtml(SUBJECT[w.kind] ?? w.groupBy)}</small></h3>
${legend(w, extra)}
${stackedChart(w, endT, steps)}
${w.lanes && w.lanes.length > 0 ? laneChart(w, endT, steps) : ''}
</section>`;
}

/** A stacked step chart of one workload's counts by group. */
export function stackedChart(w: WorkloadTimeline, endT: number, steps: readonly SimEvent[]): string {
  const W = 1000;
  const samples = w.samples;
  const tMax = Math.max(endT, samples[samples.length - 1].t, 1);
  const m = { l: 48, r: 16, b: 36 };
  const x = (t: number) => m.l + (t / tMax) * (W - m.l - m.r);
  const markers = placeMarkers(steps, x);
  const rows = markers.reduce((a, mk) => Math.max(a, mk.row + 1), 0);
  const top = 16 + 13 * rows;
  const H = top + 280 + m.b;
  const total = (i: number) =>
    Object.values(samples[i].byRevision).reduce((a, c) => a + c.ready + c.notReady, 0);
  let yMax = 1;
  samples.forEach((sm, i) => {
    yMax = Math.max(yMax, total(i), sm.desired);
  });
  yMax = Math.ceil(yMax * 1.1);
  const y = (v: number) => H - m.b - (v / yMax) * (H - top - m.b);
  const layers: { label: string; color: string; opacity: number; value: (i: number) => number }[] = [];
  w.revisions.forEach((g, k) => {
    const name = groupName(w, g);
    layers.push({
      label: `${name} ready`,
      color: groupColor(k),
      opacity: 0.9,
      value: (i) => samples[i].byRevision[g]?.ready ?? 0,
    });
    layers.push({
      label: `${name} not ready`,
      color: groupColor(k),
      opacity: 0.3,
      value: (i) => samples[i].byRevision[g]?.notReady ?? 0,
    });
  });
  const base = samples.map(() => 0);
  const polys: string[] = [];
  const next = (i: number) => (i + 1 < samples.length ? samples[i + 1].t : tMax);
  for (const layer of layers) {
    const topV = samples.map((_, i) => base[i] + layer.value(i));
    if (topV.every((v, i) => v === base[i])) continue;
    const upper: string[] = [];
    const lower: string[] = [];
    samples.forEach((sm, i) => {
      upper.push(
        `${x(sm.t).toFixed(1)},${y(topV[i]).toFixed(1)}`,
        `${x(next(i)).toFixed(1)},${y(topV[i]).toFixed(1)}`,
      );
      lower.push(
        `${x(sm.t).toFixed(1)},${y(base[i]).toFixed(1)}`,
        `${x(next(i)).toFixed(1)},${y(base[i]).toFixed(1)}`,
      );
    });
    polys.push(
      `<polygon points="${[...upper, ...lower.reverse()].join(' ')}" fill="${layer.color}" fill-opacity="${layer.opacity}"><title>${escapeHtml(layer.label)}</title></polygon>`,
    );
    topV.forEach((v, i) => {
      base[i] = v;
    });
  }
  const line = (value: (i: number) => number) =>
    samples
      .map(
        (sm, i) =>
          `${x(sm.t).toFixed(1)},${y(value(i)).toFixed(1)} ${x(next(i)).toFixed(1)},${y(value(i)).toFixed(1)}`,
      )
      .join(' ');
  const yTicks = ticks(yMax).map(
    (v) =>
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${m.l - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`,
  );
  const xTicks = ticks(tMax).map(
    (t) => `<text x="${x(t)}" y="${H - m.b + 16}" text-anchor="middle">${formatDuration(t * 1000)}</text>`,
  );
  const availableName = w.availability ? 'available' : 'done';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${escapeHtml(w.object)} over time">
${yTicks.join('')}
${polys.join('\n')}
<polyline points="${line((i) => samples[i].available)}" fill="none" stroke="#222" stroke-width="2"><title>${availableName}</title></polyline>
<polyline points="${line((i) => samples[i].desired)}" fill="none" stroke="#c62828" stroke-width="1.5" stroke-dasharray="6,4"><title>desired</title></polyline>
${markerSvg(markers, 4, top, H - m.b)}
<line x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}" stroke="#444"/>
<line x1="${m.l}" x2="${m.l}" y1="${top}" y2="${H - m.b}" stroke="#444"/>
${xTicks.join('')}
<text x="${W / 2}" y="${H - 4}" text-anchor="middle">simulated time</text>
</svg>`;
}
