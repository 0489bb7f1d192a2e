// Strategic-merge patches (docs/reference/core.md Appendix B): (a) generating the two-way patch between
// two pod-template ObjectMetas with Go's byte layout (B.2), and (b) applying strategic-merge
// patches to pods and other objects (B.4) for the subset kruise-ts needs: merge-keyed lists
// of pods, primitive merge lists (finalizers), and the `$patch`, `$deleteFromPrimitiveList`
// and `$setElementOrder` directives. Everything else replaces.
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { KruiseError } from '../contract/errors';
import { compareStringsBytewise, goJsonStringify } from './goJson';
import { jsonEqual } from './jsonPatch';

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------
// (a) B.2 generation
// ---------------------------------------------------------------------------------------

/** ObjectMeta fields Go omits when zero (B.1: empty strings, maps, lists; generation 0; null times). */
function normalizeMeta(meta: ObjectMeta | undefined | null): JsonObject {
  const out: JsonObject = {};
  if (!meta) return out;
  for (const [k, v] of Object.entries(meta)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isObject(v) && Object.keys(v).length === 0) continue;
    if (k === 'generation' && v === 0) continue;
    out[k] = v;
  }
  return out;
}

/** Strategic-merge two-way diff of two string maps: changed/added keys → new value, removed → null. */
function diffStringMaps(oldMap: JsonObject, newMap: JsonObject): JsonObject | undefined {
  const patch: JsonObject = {};
  for (const [k, v] of Object.entries(newMap))
    if (!jsonEqual(oldMap[k], v) || !Object.hasOwn(oldMap, k)) patch[k] = v;
  for (const k of Object.keys(oldMap)) if (!Object.hasOwn(newMap, k)) patch[k] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * The two-way strategic-merge patch from one pod-template ObjectMeta to another (B.2), as
 * the exact JSON text kruise produces (Go byte layout), or `"{}"` when nothing differs.
 *
 * Per field: only in new → the new value; only in old → `null`; `labels`/`annotations`
 * key-wise (removed key → `null`); `finalizers` as a merge list: added items (sorted) under
 * `finalizers`, removed items (sorted) under `$deleteFromPrimitiveList/finalizers`, and the
 * full new list under `$setElementOrder/finalizers` whenever the lists differ; any other
 * field is replaced when different. A map that becomes empty is omitted by the Kubernetes
 * encoding and therefore patched to `null` (B.3).
 *
 * Worked example (upstream `TestCalculateInPlaceUpdateSpec/#5`): labels `{k2: x}` → `{k1: v1}`
 * and finalizers `[fz1, fz2]` → `[fz2]` give
 * `{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}`.
 */
export function createMetadataStrategicPatch(
  oldMeta: ObjectMeta | undefined | null,
  newMeta: ObjectMeta | undefined | null,
): string {
  const o = normalizeMeta(oldMeta);
  const n = normalizeMeta(newMeta);
  const patch: JsonObject = {};
  for (const key of new Set([...Object.keys(o), ...Object.keys(n)])) {
    const inOld = Object.hasOwn(o, key);
    const inNew = Object.hasOwn(n, key);
    if (!inOld) {
      patch[key] = n[key];
      continue;
    }
    if (!inNew) {
      patch[key] = null;
      continue;
    }
    if (jsonEqual(o[key], n[key])) continue;
    if ((key === 'labels' || key === 'annotations') && isObject(o[key]) && isObject(n[key])) {
      const d = diffStringMaps(o[key] as JsonObject, n[key] as JsonObject);
      if (d) patch[key] = d;
    } else if (key === 'finalizers' && Array.isArray(o[key]) && Array.isArray(n[key])) {
      const oldList = (o[key] as unknown[]).map(String);
      const newList = (n[key] as unknown[]).map(String);
      const added = [...new Set(newList.filter((x) => !oldList.includes(x)))].sort(compareStringsBytewise);
      const removed = [...new Set(oldList.filter((x) => !newList.includes(x)))].sort(compareStringsBytewise);
      if (added.length > 0) patch.finalizers = added;
      if (removed.length > 0) patch['$deleteFromPrimitiveList/finalizers'] = removed;
      patch['$setElementOrder/finalizers'] = newList;
    } else {
      patch[key] = n[key];
    }
  }
  if (Object.keys(patch).length === 0) return '{}';
  return goJsonStringify({ metadata: patch });
}

// ---------------------------------------------------------------------------------------
// (b) B.4 application
// ---------------------------------------------------------------------------------------

/**
 * Merge strategy of a list field, by path of field names (`[]` marks "element of a list").
 * A string is the merge key of a list of objects; `'primitive'` a merge list of scalars;
 * `'replace'` an atomic list. Lists not listed replace.
 */
export type ListStrategy = string | 'primitive' | 'replace';

/** The pod (and object metadata) list strategies kruise-ts applies (docs/reference/core.md §B.4 and docs/architecture.md). */
export const podListStrategies: Readonly<Record<string, ListStrategy>> = Object.freeze({
  'metadata.finalizers': 'primitive',
  'metadata.ownerReferences': 'uid',
  'spec.containers': 'name',
  'spec.initContainers': 'name',
  'spec.ephemeralContainers': 'name',
  'spec.containers[].env': 'name',
  'spec.initContainers[].env': 'name',
  'spec.containers[].ports': 'containerPort',
  'spec.initContainers[].ports': 'containerPort',
  'spec.containers[].volumeMounts': 'mountPath',
  'spec.initContainers[].volumeMounts': 'mountPath',
  'spec.containers[].resizePolicy': 'resourceName',
  'spec.volumes': 'name',
  'spec.readinessGates': 'conditionType',
  'spec.imagePullSecrets': 'name',
  'spec.tolerations': 'replace',
  'status.conditions': 'type',
  'status.containerStatuses': 'name',
  'status.initContainerStatuses': 'name',
  'status.ephemeralContainerStatuses': 'name',
});

/** Options of {@link applyStrategicMergePatch}. */
export interface StrategicMergeOptions {
  /** List strategies by path (defaults to {@link podListStrategies}); merged over the defaults. */
  listStrategies?: Record<string, ListStrategy>;
}

/**
 * Applies a strategic-merge patch (object or JSON text) to `target` and returns a new object
 * (the input is never mutated; unchanged sub-trees are shared).
 *
 * Semantics (B.4): maps merge key-wise, `null` deletes a key; `{"$patch":"replace"}` in a map
 * replaces it, `{"$patch":"delete"}` deletes it; merge lists of objects (pod containers by
 * `name`, conditions by `type`, …, see {@link podListStrategies}) merge element-wise by merge
 * key (an element `{"name":"c","$patch":"delete"}` removes it, a list element
 * `{"$patch":"replace"}` replaces the whole list); `finalizers` items are appended if absent;
 * `$deleteFromPrimitiveList/<f>` removes items; `$setElementOrder/<f>` reorders; every other
 * list is replaced. `$retainKeys` is not supported (ignored).
 *
 * Example: target `{metadata:{labels:{a:"1",b:"2"}, finalizers:["x"]}}`, patch
 * `{"metadata":{"labels":{"b":null,"c":"3"},"finalizers":["y"]}}` →
 * `{metadata:{labels:{a:"1",c:"3"}, finalizers:["x","y"]}}`.
 *
 * **Throws** a `KruiseError` when the patch text is not JSON, the patch is not an object, or
 * an element of a merge-keyed list lacks its merge key.
 */
export function applyStrategicMergePatch<T>(target: T, patch: unknown, opts?: StrategicMergeOptions): T {
  let p = patch;
  if (typeof p === 'string') {
    try {
      p = JSON.parse(p);
    } catch (e) {
      throw new KruiseError(`invalid strategic merge patch: ${(e as Error).message}`, patch);
    }
  }
  if (!isObject(p)) throw new KruiseError('strategic merge patch must be a JSON object', patch);
  const strategies = { ...podListStrategies, ...(opts?.listStrategies ?? {}) };
  const base = isObject(target) ? (target as JsonObject) : {};
  return mergeMap(base, p, '', strategies) as T;
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function mergeMap(
  target: JsonObject,
  patch: JsonObject,
  path: string,
  s: Record<string, ListStrategy>,
): JsonObject | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const { $patch: _ignored, ...rest } = patch;
    return stripDirectives(rest) as JsonObject;
  }
  const out: JsonObject = { ...target };
  // First the lists' deletions, then normal keys, then the orderings.
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$deleteFromPrimitiveList/')) continue;
    const field = key.slice('$deleteFromPrimitiveList/'.length);
    const remove = Array.isArray(value) ? value : [];
    const cur = out[field];
    if (Array.isArray(cur)) {
      const next = cur.filter((x) => !remove.some((r) => jsonEqual(r, x)));
      if (next.length > 0) out[field] = next;
      else delete out[field];
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    const p = childPath(path, key);
    if (value === null) {
      delete out[key];
      continue;
    }
    const cur = out[key];
    if (isObject(value)) {
      const merged = mergeMap(isObject(cur) ? cur : {}, value, p, s);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else if (Array.isArray(value)) {
      out[key] = mergeList(Array.isArray(cur) ? cur : [], value, p, s);
    } else {
      out[key] = value;
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$setElementOrder/')) continue;
    const field = key.slice('$setElementOrder/'.length);
    const cur = out[field];
    if (Array.isArray(cur) && Array.isArray(value)) {
      out[field] = reorder(cur, value, s[childPath(path, field)]);
    }
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) out[k] = stripDirectives(x);
  return out;
}

function mergeList(
  target: unknown[],
  patch: unknown[],
  path: string,
  s: Record<string, ListStrategy>,
): unknown[] {
  const strategy = s[path];
  if (strategy === undefined || strategy === 'replace') return stripDirectives(patch) as unknown[];
  if (strategy === 'primitive') {
    const out = [...target];
    for (const item of patch) if (!out.some((x) => jsonEqual(x, item))) out.push(item);
    return out;
  }
  const key = strategy;
  if (patch.some((el) => isObject(el) && el.$patch === 'replace')) {
    return patch.filter((el) => !(isObject(el) && el.$patch === 'replace')).map(stripDirectives);
  }
  const out = [...target];
  for (const el of patch) {
    if (!isObject(el)) throw new KruiseError(`element of merge list ${path} is not an object`, el);
    if (!Object.hasOwn(el, key))
      throw new KruiseError(`element of merge list ${path} does not contain merge key ${key}`, el);
    const idx = out.findIndex((x) => isObject(x) && jsonEqual(x[key], el[key]));
    if (el.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) {
      const merged = mergeMap(out[idx] as JsonObject, el, `${path}[]`, s);
      if (merged === undefined) out.splice(idx, 1);
      else out[idx] = merged;
    } else {
      out.push(mergeMap({}, el, `${path}[]`, s));
    }
  }
  return out;
}

/**
 * `$setElementOrder`: items named in `order` take the order given there, in the slots the
 * ordered items occupied; other items keep their positions. For object lists the order
 * entries are `{<mergeKey>: value}`.
 */
function reorder(list: unknown[], order: unknown[], strategy: ListStrategy | undefined): unknown[] {
  const keyOf = (x: unknown): unknown =>
    strategy !== undefined && strategy !== 'primitive' && strategy !== 'replace' && isObject(x)
      ? x[strategy]
      : x;
  const rank = (x: unknown): number => order.findIndex((o) => jsonEqual(keyOf(o), keyOf(x)));
  const ordered = list.filter((x) => rank(x) >= 0).sort((a, b) => rank(a) - rank(b));
  let next = 0;
  return list.map((x) => (rank(x) >= 0 ? ordered[next++] : x));
}
