// Label and field selectors of list and watch requests (guide §E): label
// selectors in the full `labels.Parse` grammar (core's parser), field selectors
// `a=b`, `a==b`, `a!=b` over dotted paths (`metadata.name`,
// `metadata.namespace`, `involvedObject.uid`, `spec.nodeName`, `status.phase`).
import type { KubeObject } from '@kruise-ts/api';
import { KruiseError, type LabelRequirement, parseSelectorString, requirementMatches } from '@kruise-ts/core';

/** One field requirement. */
export interface FieldRequirement {
  path: string[];
  op: '=' | '!=';
  value: string;
}

/** A compiled list filter. */
export interface ObjectFilter {
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  namespace?: string;
}

/** Parses a field selector; throws a KruiseError when malformed. */
export function parseFieldSelector(s: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  for (const raw of s.split(',')) {
    const term = raw.trim();
    if (term === '') continue;
    const m = /^([^=!]+?)\s*(==|!=|=)\s*(.*)$/.exec(term);
    if (!m) throw new KruiseError(`invalid selector: '${s}'; can't understand '${term}'`, s);
    out.push({ path: m[1].trim().split('.'), op: m[2] === '!=' ? '!=' : '=', value: m[3].trim() });
  }
  return out;
}

/** Builds a filter from `labelSelector` and `fieldSelector`; throws a KruiseError when malformed. */
export function compileFilter(
  labelSelector: string | null,
  fieldSelector: string | null,
  namespace?: string,
): ObjectFilter {
  return {
    labels: labelSelector ? parseSelectorString(labelSelector) : [],
    fields: fieldSelector ? parseFieldSelector(fieldSelector) : [],
    namespace,
  };
}

/** The value a field selector compares: the string at `path`, `''` when absent or null. */
export function fieldValue(obj: unknown, path: readonly string[]): string {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[p];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : String(cur);
}

/** Whether an object passes a filter. */
export function matchesFilter(obj: KubeObject, f: ObjectFilter): boolean {
  if (f.namespace !== undefined && (obj.metadata.namespace ?? '') !== f.namespace) return false;
  for (const r of f.labels) if (!requirementMatches(r, obj.metadata.labels ?? {})) return false;
  for (const r of f.fields) {
    const v = fieldValue(obj, r.path);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}
