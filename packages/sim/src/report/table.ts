// `kubectl get clone`-style tables: OpenKruise v1.8.2's CloneSet printer
// columns (docs/reference/crds.md) laid out the way kubectl's tab writer does it
// (minimum width 6, padding 3; the last column unpadded).
import type { KubeObject } from '@kruise-ts/api';
import { humanDuration } from '../time';

/** CloneSet's printer columns (priority 0), NAME first. */
export const CLONESET_COLUMNS = [
  'NAME',
  'DESIRED',
  'UPDATED',
  'UPDATED_READY',
  'UPDATED_AVAILABLE',
  'READY',
  'TOTAL',
  'AGE',
] as const;

const cell = (v: unknown): string => (v === undefined || v === null ? '<none>' : String(v));

/**
 * One row of `kubectl get clone`: `.spec.replicas`, `.status.updatedReplicas`,
 * `.status.updatedReadyReplicas`, `.status.updatedAvailableReplicas`,
 * `.status.readyReplicas`, `.status.replicas` and the age from
 * `.metadata.creationTimestamp` (missing values print `<none>`, as kubectl does).
 */
export function cloneSetRow(cs: KubeObject, nowEpochMs: number): string[] {
  const spec = (cs.spec ?? {}) as { replicas?: number };
  const st = (cs.status ?? {}) as Record<string, number | undefined>;
  const created = cs.metadata.creationTimestamp ? Date.parse(cs.metadata.creationTimestamp) : Number.NaN;
  return [
    cs.metadata.name ?? '',
    cell(spec.replicas),
    cell(st.updatedReplicas),
    cell(st.updatedReadyReplicas),
    cell(st.updatedAvailableReplicas),
    cell(st.readyReplicas),
    cell(st.replicas),
    Number.isFinite(created) ? humanDuration(nowEpochMs - created) : '<unknown>',
  ];
}

/** Column widths for rows (kubectl's tab writer: at least 6, plus 3 padding). */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return widths.map((w) => Math.max(w + 3, 6));
}

/** Formats one row with fixed widths (no trailing spaces). */
export function formatRow(row: readonly string[], widths: readonly number[]): string {
  return row
    .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? c.length + 3)))
    .join('')
    .trimEnd();
}

/** A whole table, header included, as kubectl prints it. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = columnWidths([header, ...rows]);
  return [header, ...rows].map((r) => formatRow(r, widths)).join('\n');
}
