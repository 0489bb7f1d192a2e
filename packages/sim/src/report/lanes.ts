// Per-pod lanes of a timeline: one row per pod (StatefulSet: per ordinal, DaemonSet: per node,
// recreate requests: per request), each a bar coloured by the group the pod was in (its revision,
// subset or sidecar revision): solid while ready, pale while not ready, grey while terminating.
// Drawn only for workloads of at most MAX_LANES pods (timeline.ts), lane height shrinking with
// the count so 200 lanes still fit on a screen or two.
import { formatDuration, type SimEvent } from '@kruise-ts/cluster';
import { escapeHtml, groupColor, groupName, markerSvg, placeMarkers } from './svgParts';
import type { TimelineLane, WorkloadTimeline } from './timeline';

const LANE_WORD: Record<WorkloadTimeline['laneBy'], string> = {
  pod: 'pod',
  ordinal: 'ordinal',
  node: 'node',
  request: 'request',
};

/** Lanes sorted for reading: ordinals numerically, the rest by name. */
export function sortedLanes(w: WorkloadTimeline): TimelineLane[] {
  const lanes = [...(w.lanes ?? [])];
  if (w.laneBy === 'ordinal')
    return lanes.sort((a, b) => Number(a.key) - Number(b.key) || (a.key < b.key ? -1 : 1));
  return lanes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The lane chart of one workload. */
export function laneChart(w: WorkloadTimeline, endT: number, steps: readonly SimEvent[]): string {
  const lanes = sortedLanes(w);
  const W = 1000;
  const left = 150;
  const right = 16;
  const h = lanes.length <= 40 ? 14 : lanes.length <= 100 ? 8 : 5;
  const lastT = Math.max(...w.samples.map((s) => s.t), 0);
  const tMax = Math.max(endT, lastT, 1);
  const x = (t: number) => left + (t / tMax) * (W - left - right);
  const markers = placeMarkers(steps, x);
  const rows = markers.reduce((a, mk) => Math.max(a, mk.row + 1), 0);
  const top = 6 + 13 * rows;
  const H = top + lanes.length * h + 8;
  const index = new Map(w.revisions.map((g, k) => [g, k]));
  const bars: string[] = [];
  lanes.forEach((lane, i) => {
    const y0 = top + i * h;
    if (h >= 8)
      bars.push(
        `<text x="${left - 6}" y="${y0 + h - 3}" text-anchor="end" style="font-size:${h >= 14 ? 11 : 8}px">${escapeHtml(lane.key)}</text>`,
      );
    for (const s of lane.segments) {
      const x0 = x(s.from);
      const x1 = x(s.to ?? tMax);
      const color = s.state === 'terminating' ? '#999' : groupColor(index.get(s.group) ?? 0);
      const opacity = s.state === 'ready' ? 0.9 : s.state === 'notReady' ? 0.35 : 0.5;
      const what = `${LANE_WORD[w.laneBy]} ${lane.key}: ${groupName(w, s.group)} ${s.state === 'notReady' ? 'not ready' : s.state} from ${formatDuration(s.from * 1000)}${s.to !== undefined ? ` to ${formatDuration(s.to * 1000)}` : ''}`;
      bars.push(
        `<rect x="${x0.toFixed(1)}" y="${y0 + 1}" width="${Math.max(0.5, x1 - x0).toFixed(1)}" height="${h - 2}" fill="${color}" fill-opacity="${opacity}"><title>${escapeHtml(what)}</title></rect>`,
      );
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="lanes" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${escapeHtml(w.object)}: one lane per ${LANE_WORD[w.laneBy]}">
${markerSvg(markers, 0, top, H - 4)}
${bars.join('\n')}
</svg>`;
}
