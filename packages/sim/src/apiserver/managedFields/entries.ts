// managedFields entries: decoding an object's entries into field sets per manager, writing them
// back in kube-apiserver's order, the fields no entry ever records, and the 409 an ownership
// conflict answers. A manager is identified as kube-apiserver does: by name, operation,
// subresource and, for Update entries only, apiVersion (an applier keeps one entry whatever
// version it applies at; an updater gets one per version).
import type { KubeObject } from '@kruise-ts/api';
import { type StatusObject, status } from '../status';
import { decodePath, type FieldSet, fromFieldsV1, pathString, toFieldsV1 } from './fieldSet';

/** One managedFields entry with its field set. */
export interface ManagerEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

/** The identity of an entry (see the header). */
export function entryId(
  e: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  return [e.manager, e.operation, e.operation === 'Update' ? e.apiVersion : '', e.subresource ?? ''].join(
    '\u0000',
  );
}

/**
 * The entries of `obj`'s `metadata.managedFields`. Malformed entries (not objects, an unknown
 * operation, fieldsV1 that is not a set) are skipped, as they cannot be owned by anyone.
 */
export function decodeEntries(obj: KubeObject | undefined): ManagerEntry[] {
  const raw = (obj?.metadata as { managedFields?: unknown } | undefined)?.managedFields;
  if (!Array.isArray(raw)) return [];
  const out: ManagerEntry[] = [];
  for (const e of raw) {
    if (e === null || typeof e !== 'object') continue;
    const m = e as Record<string, unknown>;
    if (m.operation !== 'Apply' && m.operation !== 'Update') continue;
    const entry: ManagerEntry = {
      manager: typeof m.manager === 'string' ? m.manager : '',
      operation: m.operation,
      apiVersion: typeof m.apiVersion === 'string' ? m.apiVersion : '',
      set: fromFieldsV1(m.fieldsV1),
    };
    if (typeof m.time === 'string') entry.time = m.time;
    if (typeof m.subresource === 'string' && m.subresource !== '') entry.subresource = m.subresource;
    out.push(entry);
  }
  return out;
}

/** kube-apiserver's order: Apply before Update, then by time, manager, apiVersion, subresource. */
function entryOrder(a: ManagerEntry, b: ManagerEntry): number {
  const keys = (e: ManagerEntry) => [e.operation, e.time ?? '', e.manager, e.apiVersion, e.subresource ?? ''];
  const ka = keys(a);
  const kb = keys(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

/** `obj` with `entries` as its managedFields (entries with an empty set are dropped). */
export function withEntries(obj: KubeObject, entries: readonly ManagerEntry[]): KubeObject {
  const kept = entries.filter((e) => e.set.size > 0).sort(entryOrder);
  const encoded = kept.map((e) => {
    const out: Record<string, unknown> = {
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
    };
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = toFieldsV1(e.set);
    if (e.subresource !== undefined) out.subresource = e.subresource;
    return out;
  });
  const metadata = { ...obj.metadata } as Record<string, unknown>;
  if (encoded.length > 0) metadata.managedFields = encoded;
  else delete metadata.managedFields;
  return { ...obj, metadata: metadata as KubeObject['metadata'] };
}

/** Top-level and metadata fields no entry records: the server sets them, nobody owns them. */
const UNOWNED_METADATA: readonly string[] = [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
];

/** `obj` without the fields no entry records (and without `status` when `withoutStatus`). */
export function ownableView(obj: KubeObject | undefined, withoutStatus: boolean): unknown {
  if (obj === undefined) return undefined;
  const fields: Record<string, unknown> = obj;
  const { apiVersion: _a, kind: _k, metadata, ...rest } = fields;
  if (withoutStatus) delete rest.status;
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    const m = { ...(metadata as Record<string, unknown>) };
    for (const f of UNOWNED_METADATA) delete m[f];
    if (Object.keys(m).length > 0) rest.metadata = m;
  }
  return rest;
}

/** `set` without the `metadata` container itself (kube-apiserver strips it as well). */
export function stripUnowned(set: FieldSet): Set<string> {
  const out = new Set(set);
  out.delete('f:metadata');
  return out;
}

/** How a conflict names a manager: `"kubectl-scale" with subresource "scale" using apps/v1`. */
export function describeManager(e: ManagerEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion}`;
  return s;
}

/** One field another manager owns with another value. */
export interface Conflict {
  manager: ManagerEntry;
  /** Encoded path (fieldSet.ts). */
  path: string;
}

/**
 * The 409 of a refused apply, worded as kube-apiserver words it, with one
 * `FieldManagerConflict` cause per field.
 */
export function conflictsStatus(conflicts: readonly Conflict[]): StatusObject {
  const field = (c: Conflict) => pathString(decodePath(c.path));
  const causes = conflicts.map((c) => ({
    type: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.manager)}`,
    field: field(c),
  }));
  let message: string;
  if (conflicts.length === 1)
    message = `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0].manager)}: ${field(conflicts[0])}`;
  else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const m = describeManager(c.manager);
      byManager.set(m, [...(byManager.get(m) ?? []), field(c)]);
    }
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${m}:`);
      for (const p of byManager.get(m)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return status(409, 'Conflict', message, { causes });
}
