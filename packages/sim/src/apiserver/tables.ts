// `meta.k8s.io/v1` Table responses (what `kubectl get` prints): CRD printer
// columns converted by kube-apiserver's tableconvertor rules (Name first,
// integer → JSON integer, date → HumanDuration, string → matches joined with a
// space, missing → null), built-in kinds through printers.ts.
import type { KubeObject, PrinterColumn } from '@kruise-ts/api';
import { evalJsonPath } from './jsonpath';
import { age, type ColumnDefinition, DEFAULT_PRINTER, PRINTERS, type Printer } from './printers';
import { APPS_PRINTERS } from './printersApps';
import { MORE_PRINTERS } from './printersMore';
import type { ResourceInfo } from './registry';

/** `includeObject`: Metadata (default), Object or None. */
export type IncludeObject = 'Metadata' | 'Object' | 'None';

function crdCell(col: PrinterColumn, obj: KubeObject, nowMs: number): unknown {
  const vals = evalJsonPath(obj, col.jsonPath).filter((v) => v !== null);
  if (vals.length === 0) return null;
  const v = vals[0];
  switch (col.type as string) {
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date':
      return typeof v === 'string' ? age(v, nowMs) : null;
    default:
      return vals.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ');
  }
}

/** The printer of a resource: CRD columns, a built-in printer, or `NAME AGE`. */
export function printerFor(res: ResourceInfo): Printer {
  if (res.columns) {
    const cols = res.columns;
    return {
      columns: [
        {
          name: 'Name',
          type: 'string',
          format: 'name',
          description: 'Name must be unique within a namespace.',
          priority: 0,
        },
        ...cols.map(
          (col): ColumnDefinition => ({
            name: col.name,
            type: col.type,
            format: (col as { format?: string }).format ?? '',
            description: col.description ?? '',
            priority: col.priority ?? 0,
          }),
        ),
      ],
      row: (o, now) => [o.metadata.name, ...cols.map((col) => crdCell(col, o, now))],
    };
  }
  return PRINTERS[res.kind] ?? APPS_PRINTERS[res.kind] ?? MORE_PRINTERS[res.kind] ?? DEFAULT_PRINTER;
}

function rowObject(obj: KubeObject, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** One Table row. */
export function tableRow(printer: Printer, obj: KubeObject, nowMs: number, include: IncludeObject): unknown {
  let cells: unknown[];
  try {
    cells = printer.row(obj, nowMs);
  } catch {
    cells = printer.columns.map((_, i) => (i === 0 ? obj.metadata.name : null));
  }
  const object = rowObject(obj, include);
  return object === undefined ? { cells } : { cells, object };
}

/**
 * A Table of `objects`. `noHeaders` leaves out `columnDefinitions` (watch
 * events after the first, as kube-apiserver's watchEmbeddedEncoder does).
 */
export function toTable(
  res: ResourceInfo,
  objects: readonly KubeObject[],
  nowMs: number,
  opts: { resourceVersion?: string; include?: IncludeObject; noHeaders?: boolean } = {},
): Record<string, unknown> {
  const printer = printerFor(res);
  const include = opts.include ?? 'Metadata';
  const meta: Record<string, unknown> = {};
  if (opts.resourceVersion !== undefined) meta.resourceVersion = opts.resourceVersion;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: opts.noHeaders ? [] : printer.columns,
    rows: objects.map((o) => tableRow(printer, o, nowMs, include)),
  };
}

/** Which Table version the Accept header asks for (v1 / v1beta1), or undefined. */
export function wantsTable(accept: string | undefined): 'v1' | 'v1beta1' | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const params = part.split(';').map((s) => s.trim());
    if (!params.includes('as=Table') || !params.includes('g=meta.k8s.io')) continue;
    if (params.includes('v=v1')) return 'v1';
    if (params.includes('v=v1beta1')) return 'v1beta1';
  }
  return undefined;
}
