// Pieces the report's charts share: HTML escaping, the colour of a group, round axis ticks, the
// legend of a timeline's groups (a readable name such as the image, the hash on hover) and step
// markers whose numbers never overlap (a number that would touch its neighbour moves to the next
// row of the band above the plot). Pure string building, no DOM and no Node built-ins, so the
// browser playground renders the same report.
import { formatDuration, type SimEvent } from '@kruise-ts/cluster';
import type { WorkloadTimeline } from './timeline';

/** The colours of groups, in order of first appearance. */
export const PALETTE: readonly string[] = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
];

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The colour of group `k` of a timeline. */
export function groupColor(k: number): string {
  return PALETTE[k % PALETTE.length];
}

/**
 * The name a group is shown under: its label (a revision's image, `nginx:1.27-alpine`), the hash
 * added when two groups share a label; the group itself when it has no label.
 */
export function groupName(w: WorkloadTimeline, group: string): string {
  const label = w.groupLabels[group];
  if (!label) return group || '(none)';
  const shared = w.revisions.filter((g) => w.groupLabels[g] === label).length > 1;
  return shared ? `${label} (${shortHash(group)})` : label;
}

/** The text after the last `-` of a revision name (`sample-84db5d8f79` → `84db5d8f79`). */
export function shortHash(rev: string): string {
  const i = rev.lastIndexOf('-');
  return i >= 0 ? rev.slice(i + 1) : rev;
}

/** The legend of a timeline: one swatch per group (ready solid, not ready pale), hash on hover. */
export function legend(w: WorkloadTimeline, extra: string): string {
  const items = w.revisions.map((g, k) => {
    const hover = w.groupBy === 'revision' || w.groupBy === 'sidecar revision' ? `${w.groupBy} ${g}` : g;
    return `<span title="${escapeHtml(hover)}"><i style="background:${groupColor(k)}"></i>${escapeHtml(groupName(w, g))}</span>`;
  });
  return `<div class="legend">${items.join('')}<span><i style="background:#999;opacity:.35"></i>pale: not ready</span>${extra}</div>`;
}

/** About five round tick values in [0, max]. */
export function ticks(max: number): number[] {
  const raw = max / 5;
  const pow = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const step = [1, 2, 5, 10].map((f) => f * pow).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}

/** A step marker placed in a row of the band above a plot. */
export interface PlacedMarker {
  x: number;
  row: number;
  number: number;
  t: number;
  label: string;
}

/**
 * Places the numbers of step markers in rows so that no two in a row are closer than `gap`
 * pixels: each goes to the first row whose last number is far enough to its left.
 */
export function placeMarkers(steps: readonly SimEvent[], x: (t: number) => number, gap = 18): PlacedMarker[] {
  const rowEnds: number[] = [];
  return steps.map((e, i) => {
    const px = x(e.t);
    let row = rowEnds.findIndex((end) => px - end >= gap);
    if (row < 0) {
      row = rowEnds.length;
      rowEnds.push(px);
    } else rowEnds[row] = px;
    const label = String((e.detail as { step?: string } | undefined)?.step ?? '');
    return { x: px, row, number: i + 1, t: e.t, label };
  });
}

/** The SVG of placed markers: numbers in the band (rows of 13 px from `top`), dashed lines down to `bottom`. */
export function markerSvg(
  markers: readonly PlacedMarker[],
  top: number,
  plotTop: number,
  bottom: number,
): string {
  return markers
    .map(
      (m) =>
        `<g class="step"><title>step ${m.number} at ${formatDuration(m.t * 1000)}: ${escapeHtml(m.label)}</title><line x1="${m.x.toFixed(1)}" x2="${m.x.toFixed(1)}" y1="${plotTop}" y2="${bottom}" stroke="#888" stroke-dasharray="3,3"/><text x="${m.x.toFixed(1)}" y="${top + 10 + 13 * m.row}" text-anchor="middle">${m.number}</text></g>`,
    )
    .join('');
}
