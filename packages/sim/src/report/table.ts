// `kubectl get`-style tables of every Kruise kind the simulator runs: OpenKruise v1.8.2's printer
// columns (docs/reference/crds.md) laid out the way kubectl's tab writer does it (minimum width
// 6, padding 3; the last column unpadded). CloneSet's row is spelled out (cloneSetRow); every
// other kind's is read from the CRD's columns (kindRow).
import { crdPresentation, type KubeObject } from '@kruise-ts/api';
import { humanDuration } from '@kruise-ts/cluster';
import { evalJsonPath } from '../apiserver/jsonpath';

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

/** The kinds `kruise-ts sim` prints a `kubectl get` table for, in the order it prints them. */
export const TABLE_KINDS: readonly { kind: string; apiVersion: string; resource: string }[] = [
  { kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'clone' },
  { kind: 'StatefulSet', apiVersion: 'apps.kruise.io/v1beta1', resource: 'asts' },
  { kind: 'DaemonSet', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'ads' },
  { kind: 'SidecarSet', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'sidecarset' },
  { kind: 'UnitedDeployment', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'ud' },
  { kind: 'ImagePullJob', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'imagepulljob' },
  { kind: 'ImageListPullJob', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'imagelistpulljob' },
  { kind: 'ContainerRecreateRequest', apiVersion: 'apps.kruise.io/v1alpha1', resource: 'crr' },
];

/**
 * The header of `kubectl get <kind>` for a Kruise kind: NAME, then the CRD's printer columns of
 * priority 0 (docs/reference/crds.md), as `crdPresentation` in @kruise-ts/api lists them.
 */
export function kindColumns(kind: string): string[] {
  const cols = crdPresentation[kind]?.columns ?? [];
  return ['NAME', ...cols.filter((c) => !c.priority).map((c) => c.name)];
}

/**
 * One row of `kubectl get <kind>`: each printer column's JSONPath evaluated on the object, as
 * kube-apiserver's table convertor does (integers as numbers, dates as ages, missing values
 * `<none>` as kubectl prints them).
 */
export function kindRow(obj: KubeObject, nowEpochMs: number): string[] {
  const cols = (crdPresentation[obj.kind]?.columns ?? []).filter((c) => !c.priority);
  return [
    obj.metadata.name ?? '',
    ...cols.map((c) => {
      const vals = evalJsonPath(obj, c.jsonPath).filter((v) => v !== null && v !== undefined);
      if (vals.length === 0) return '<none>';
      if (c.type === 'date') {
        const t = typeof vals[0] === 'string' ? Date.parse(vals[0]) : Number.NaN;
        return Number.isFinite(t) ? humanDuration(nowEpochMs - t) : '<unknown>';
      }
      if (c.type === 'integer') return typeof vals[0] === 'number' ? String(Math.trunc(vals[0])) : '<none>';
      return vals.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ');
    }),
  ];
}

/**
 * A UnitedDeployment's subsets as one line: `zone-a 4, zone-b 4, zone-c 0 = 8 of 8 desired`
 * (`status.subsetReplicas` against `spec.replicas`), what the table alone does not show.
 */
export function unitedSubsetsLine(ud: KubeObject): string {
  const subsets = ((ud.status ?? {}) as { subsetReplicas?: Record<string, number> }).subsetReplicas ?? {};
  const names = (
    ((ud.spec ?? {}) as { topology?: { subsets?: { name?: string }[] } }).topology?.subsets ?? []
  )
    .map((s) => s.name ?? '')
    .filter(Boolean);
  const total = names.reduce((a, n) => a + (subsets[n] ?? 0), 0);
  const desired = ((ud.spec ?? {}) as { replicas?: number }).replicas;
  return `${names.map((n) => `${n} ${subsets[n] ?? 0}`).join(', ')} = ${total} of ${desired ?? '<none>'} desired`;
}
