// De-duplication of the observed objects a reconcile is handed: one copy per object identity.
//
// A reconcile counts and picks pods, revisions, PVCs, nodes and subset workloads from the lists
// it is given. A shell that merges two listings (a relist racing a watch event, two informers
// over one namespace) can hand it the same pod twice, and the controller then counts two pods:
// a CloneSet of 1 replica observing `web-a`, `web-b`, `web-a` sees 3 pods for 1 and deletes both
// of its pods; one of 0 replicas deletes a twice-listed `web-a` twice. The API server never lists
// an object twice, so a reconcile first reduces every observed list to one copy per object and
// says, in one Warning event, that its input was not clean.
import type { StructureCache } from '@kruise-ts/api';
import type { Action, EventAction, ObjectRef } from './actions';

/** The event reason of the warning {@link withDistinctObserved} adds when it dropped copies. */
export const DUPLICATE_OBSERVED_REASON = 'DuplicateObserved';

/** At most this many object names are quoted in the warning's message. */
const NAMES_IN_MESSAGE = 3;

/** One list reduced to one copy per object identity. */
export interface DedupedList<T> {
  /**
   * One copy per identity, at the place where the identity first appears in the list; the input
   * array itself when nothing was dropped. Values without an identity are all kept.
   */
  kept: T[];
  /** The copies left out, in list order. */
  duplicates: T[];
}

interface Meta {
  uid?: unknown;
  name?: unknown;
  namespace?: unknown;
  resourceVersion?: unknown;
}

function metaOf(obj: unknown): Meta | undefined {
  if (obj === null || typeof obj !== 'object') return undefined;
  const meta = (obj as { metadata?: unknown }).metadata;
  return meta !== null && typeof meta === 'object' ? (meta as Meta) : undefined;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * The identity of an observed object: its uid with its namespace and name when it has a uid,
 * else its API group, kind, namespace and name (the group and kind keep a CloneSet `web` and an
 * Advanced StatefulSet `web` apart in UnitedDeployment's mixed subset list); `undefined` for a
 * value with neither uid nor name, which cannot be told apart from another. The name stays part
 * of a uid identity because the API server never lists one uid under two names: two such
 * entries (a hand-written list reusing a uid) are two objects, not copies of one.
 *
 * Example: `{metadata: {uid: 'u1', namespace: 'ns', name: 'web-0'}}` → `"uid:u1\u0000ns\u0000web-0"`;
 * `{apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: {namespace: 'ns', name: 'web'}}`
 * → `"name:apps.kruise.io\u0000StatefulSet\u0000ns\u0000web"`.
 */
export function observedIdentity(obj: unknown): string | undefined {
  const meta = metaOf(obj);
  if (meta === undefined) return undefined;
  const uid = text(meta.uid);
  if (uid !== '') return `uid:${uid}\u0000${text(meta.namespace)}\u0000${text(meta.name)}`;
  const name = nameKey(obj, meta);
  return name === undefined ? undefined : `name:${name}`;
}

/** Group, kind, namespace and name joined by NUL (a character no Kubernetes name holds). */
function nameKey(obj: unknown, meta: Meta): string | undefined {
  const name = text(meta.name);
  if (name === '') return undefined;
  const o = obj as { apiVersion?: unknown; kind?: unknown };
  const apiVersion = text(o.apiVersion);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  return `${group}\u0000${text(o.kind)}\u0000${text(meta.namespace)}\u0000${name}`;
}

/** Same namespace and name. */
function sameName(a: Meta | undefined, b: Meta): boolean {
  return text(a?.namespace) === text(b.namespace) && text(a?.name) === text(b.name);
}

/** A resourceVersion as a canonical unsigned integer string (no leading zeros), else undefined. */
function numericVersion(rv: unknown): string | undefined {
  if (typeof rv !== 'string' || !/^[0-9]+$/.test(rv)) return undefined;
  return rv.replace(/^0+(?=.)/, '');
}

/**
 * Whether `later` (further down the list) replaces `kept`: when both resourceVersions are
 * unsigned integers, the higher one wins and a tie goes to the later copy ("10" beats "9", so a
 * copy at "9" listed after one at "10" is dropped); otherwise the later copy wins.
 */
function replaces(kept: unknown, later: unknown): boolean {
  const a = numericVersion(metaOf(kept)?.resourceVersion);
  const b = numericVersion(metaOf(later)?.resourceVersion);
  if (a === undefined || b === undefined) return true;
  if (a.length !== b.length) return b.length > a.length;
  return b >= a;
}

/**
 * Reduces one observed list to one copy per {@link observedIdentity}: the copy with the highest
 * resourceVersion (compared as integers when both are; else the later copy in the list) takes
 * the place where the identity first appears. Linear in the list's length; never mutates it; a
 * value that is not an array gives an empty result. A list with nothing to drop is given back
 * itself, found by one Set insertion per uid. With `cache` (the StructureCache the screen of the
 * same list was given, core.md §10.1), a list holding exactly the objects of one already found
 * distinct costs one identity comparison per element. The answer is the same with or without it.
 *
 * Example: `[web-0@rv5, web-1@rv3, web-0@rv7]` → kept `[web-0@rv7, web-1@rv3]`, duplicates
 * `[web-0@rv5]`.
 */
export function dedupeObserved<T>(list: readonly T[], cache?: StructureCache): DedupedList<T> {
  if (!Array.isArray(list)) return { kept: [], duplicates: [] };
  // the objects of a list the cache remembers (core's screenObservedInput remembers each clean
  // list): known distinct, or proved so once and remembered
  const first: unknown = list[0];
  const memo =
    cache !== undefined && first !== null && typeof first === 'object'
      ? cache.observedLists.get(first)
      : undefined;
  const remembered = memo !== undefined && sameElements(memo.elements, list);
  if (remembered && memo.distinct) return { kept: list as T[], duplicates: [] };
  if (!sortedByName(list) && !allDistinct(list)) return dedupeSlow(list);
  if (remembered) memo.distinct = true;
  return { kept: list as T[], duplicates: [] };
}

/** Whether `a` and `b` hold the same values (by identity) in the same order. */
export function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether the entries of `list` that have metadata come in strictly increasing order of
 * namespace, then name: then no two share a namespace and name, so no two share an identity
 * (every identity holds both). Lists read from the API server (and the simulator's store) come
 * in this order, so this one pass of string comparisons, with no hashing and no allocation,
 * settles the common case; any other order stops it at the first entry out of place.
 */
function sortedByName(list: readonly unknown[]): boolean {
  let namespace: string | undefined;
  let name = '';
  for (let i = 0; i < list.length; i++) {
    const meta = metaOf(list[i]);
    if (meta === undefined) continue;
    const ns = text(meta.namespace);
    const n = text(meta.name);
    if (namespace !== undefined && (ns < namespace || (ns === namespace && n <= name))) return false;
    namespace = ns;
    name = n;
  }
  return true;
}

/**
 * Whether no two entries of `list` share an {@link observedIdentity}, proved cheaply: one Set
 * insertion of each uid (the string the object already holds, so no key is built), and a full
 * name key only for the rare object without a uid. A uid seen twice answers false even when the
 * two names differ (two identities), leaving that case to the full pass. The common list of
 * distinct objects thus costs one hash insertion per object and allocates nothing but the Set.
 */
function allDistinct(list: readonly unknown[]): boolean {
  const uids = new Set<string>();
  let names: Set<string> | undefined;
  for (let i = 0; i < list.length; i++) {
    const obj = list[i];
    const meta = metaOf(obj);
    if (meta === undefined) continue;
    const uid = meta.uid;
    if (typeof uid === 'string' && uid !== '') {
      const before = uids.size;
      if (uids.add(uid).size === before) return false;
      continue;
    }
    const key = nameKey(obj, meta);
    if (key === undefined) continue;
    names ??= new Set();
    const before = names.size;
    if (names.add(key).size === before) return false;
  }
  return true;
}

/** {@link dedupeObserved} of a list known to hold a repeated uid or name key. */
function dedupeSlow<T>(list: readonly T[]): DedupedList<T> {
  // {@link observedIdentity} without building it for each object (building a key string for each
  // of 10k pods doubles the cost of the pass): the first object of a uid is found by the uid
  // alone, and its name is compared; only another name under that uid takes the full identity
  const byUid = new Map<string, number>();
  const byIdentity = new Map<string, number>();
  let kept: T[] | undefined;
  const duplicates: T[] = [];
  for (let i = 0; i < list.length; i++) {
    const obj = list[i] as T;
    const meta = metaOf(obj);
    if (meta === undefined) {
      kept?.push(obj);
      continue;
    }
    const slot = kept === undefined ? i : kept.length;
    const uid = text(meta.uid);
    let at: number | undefined;
    if (uid !== '') {
      at = byUid.get(uid);
      if (at === undefined) byUid.set(uid, slot);
      else if (!sameName(metaOf((kept ?? list)[at]), meta)) {
        const id = observedIdentity(obj) as string;
        at = byIdentity.get(id);
        if (at === undefined) byIdentity.set(id, slot);
      }
    } else {
      const key = nameKey(obj, meta);
      if (key !== undefined) {
        const id = `name:${key}`;
        at = byIdentity.get(id);
        if (at === undefined) byIdentity.set(id, slot);
      }
    }
    if (at === undefined) {
      kept?.push(obj);
      continue;
    }
    // the first duplicate: from here on the kept list is a copy that differs from the input
    if (kept === undefined) kept = list.slice(0, i);
    const previous = kept[at] as T;
    if (replaces(previous, obj)) {
      kept[at] = obj;
      duplicates.push(previous);
    } else duplicates.push(obj);
  }
  return { kept: kept ?? (list as T[]), duplicates };
}

/** The duplicates dropped from one named list of a reconcile's input. */
export interface ObservedDuplicates {
  /** The input field, e.g. `pods`. */
  list: string;
  /** The copies left out. */
  duplicates: unknown[];
}

/**
 * {@link dedupeObserved} over the named list fields of a reconcile input. Returns the input
 * itself when no list had a duplicate, else a shallow copy with those lists replaced; fields
 * that are absent or not arrays are left as they are. `cache`: as for {@link dedupeObserved}.
 *
 * Example: `dedupeObservedInput({cloneSet, pods: [p, p]}, ['pods', 'pvcs'])` →
 * `{input: {cloneSet, pods: [p]}, dropped: [{list: 'pods', duplicates: [p]}]}`.
 */
export function dedupeObservedInput<I>(
  input: I,
  lists: readonly (keyof I & string)[],
  cache?: StructureCache,
): { input: I; dropped: ObservedDuplicates[] } {
  if (input === null || typeof input !== 'object') return { input, dropped: [] };
  const record = input as Record<string, unknown>;
  const dropped: ObservedDuplicates[] = [];
  let copy: Record<string, unknown> | undefined;
  for (const list of lists) {
    const value = record[list];
    if (!Array.isArray(value)) continue;
    const d = dedupeObserved(value, cache);
    if (d.duplicates.length === 0) continue;
    copy ??= { ...record };
    copy[list] = d.kept;
    dropped.push({ list, duplicates: d.duplicates });
  }
  return { input: (copy ?? input) as I, dropped };
}

/**
 * The one Warning event that reports dropped duplicates on the workload `involvedObject`, or
 * `undefined` when nothing was dropped. The message gives the total, the count per list and the
 * first few names.
 *
 * Example: two extra copies of pod `default/web-0` →
 * `dropped 2 duplicate observed objects (pods: 2): default/web-0`.
 */
export function duplicateObservedEvent(
  dropped: readonly ObservedDuplicates[],
  involvedObject: ObjectRef,
): EventAction | undefined {
  let total = 0;
  const names: string[] = [];
  for (const d of dropped) {
    total += d.duplicates.length;
    for (const obj of d.duplicates) {
      if (names.length === NAMES_IN_MESSAGE) break;
      const meta = metaOf(obj);
      const ns = text(meta?.namespace);
      const name = ns === '' ? text(meta?.name) : `${ns}/${text(meta?.name)}`;
      if (!names.includes(name)) names.push(name);
    }
  }
  if (total === 0) return undefined;
  const perList = dropped.map((d) => `${d.list}: ${d.duplicates.length}`).join(', ');
  return {
    verb: 'event',
    involvedObject,
    type: 'Warning',
    reason: DUPLICATE_OBSERVED_REASON,
    message: `dropped ${total} duplicate observed object${total === 1 ? '' : 's'} (${perList}): ${names.join(', ')}`,
  };
}

/**
 * Runs `reconcile` on `input` with the named observed lists de-duplicated
 * ({@link dedupeObservedInput}). When copies were dropped, the result's actions start with one
 * `DuplicateObserved` Warning event on `ref(input)` (skipped when `ref` gives `undefined`, e.g.
 * for a workload without metadata). The call every controller's reconcile entry makes first.
 * `cache`: the StructureCache given to core's withWellFormedInput just before, which makes an
 * unchanged list cost one comparison pass (see {@link dedupeObserved}).
 *
 * Example: `reconcileCloneSet` with pod `web-0` listed twice answers exactly as with it listed
 * once, plus that event first.
 */
export function withDistinctObserved<I, R extends { actions: Action[] }>(
  input: I,
  lists: readonly (keyof I & string)[],
  ref: (input: I) => ObjectRef | undefined,
  reconcile: (input: I) => R,
  cache?: StructureCache,
): R {
  const distinct = dedupeObservedInput(input, lists, cache);
  const result = reconcile(distinct.input);
  if (distinct.dropped.length === 0) return result;
  const target = ref(distinct.input);
  const event = target === undefined ? undefined : duplicateObservedEvent(distinct.dropped, target);
  return event === undefined ? result : { ...result, actions: [event, ...result.actions] };
}
