// Walks of objects along their structure (listKeys.ts), the four operations server-side apply
// is made of:
// - fieldSetOf: the fields a value sets (what an applier owns): every leaf, every list item
//   (`.` of a keyed or set item), a map key that is not a declared field, an empty or null value,
//   and an atomic list or map as one field;
// - compare: which paths an update added, modified or removed (a subtree that appears or
//   disappears counts with every path in it, its containers included);
// - merge: an applied configuration over the live object: maps and keyed lists merge item by
//   item, everything atomic is replaced;
// - removeFields: the fields an applier gave up, removed from the merged object unless another
//   manager (or the applier itself, elsewhere) still owns something there.
// A keyed-list item without a key field (and no default for it) is a structure error, thrown as
// a FieldStructureError and turned into a 422 by the callers.
import { jsonEqual } from '@kruise-ts/core';
import {
  encodePath,
  type FieldSet,
  fieldElement,
  hasAtOrUnder,
  keyElement,
  type PathElement,
  pathString,
  valueElement,
} from './fieldSet';
import { concrete, type FieldType, type ListType } from './listKeys';

/** An object the structure cannot describe (a keyed-list item without its key, duplicates). */
export class FieldStructureError extends Error {}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON equality (key order ignored, a member holding `undefined` counts as absent): core's. */
export { jsonEqual };

/** Is the node owned as a whole (a scalar, an atomic list or map, or a value of another shape)? */
function isLeaf(t: FieldType, value: unknown): boolean {
  if (t.kind === 'scalar' || t.kind === 'deduced') return true;
  if (t.kind === 'map') return t.atomic || !isObject(value);
  return t.listType === 'atomic' || !Array.isArray(value);
}

/** The path element of list item `item` (a keyed or set list). */
export function itemElement(list: ListType, item: unknown, path: readonly PathElement[]): PathElement {
  if (list.listType === 'set') return valueElement(item);
  const keys: Record<string, unknown> = {};
  for (const k of list.keys) {
    const v = isObject(item) && item[k] !== undefined ? item[k] : list.keyDefaults[k];
    if (v === undefined)
      throw new FieldStructureError(
        `${pathString(path)}: associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`,
      );
    keys[k] = v;
  }
  return keyElement(keys);
}

/** Items of a keyed or set list by element, in order; a duplicate element is an error. */
function indexItems(
  list: ListType,
  items: readonly unknown[],
  path: readonly PathElement[],
  strict: boolean,
) {
  const out = new Map<PathElement, unknown>();
  for (const item of items) {
    const pe = itemElement(list, item, path);
    if (out.has(pe)) {
      if (strict)
        throw new FieldStructureError(
          `${pathString([...path, pe])}: duplicate entries for key ${pe.slice(2)}`,
        );
      continue;
    }
    out.set(pe, item);
  }
  return out;
}

/** The type of child `key` of a map node, and whether it is a declared field. */
function childOf(t: Extract<FieldType, { kind: 'map' }>, key: string): [FieldType, boolean] {
  const f = t.field(key);
  return f ? [f, true] : [t.element(), false];
}

/** The fields `value` sets, under `path` (see the header). */
export function fieldSetOf(value: unknown, type: FieldType, path: readonly PathElement[] = []): Set<string> {
  const out = new Set<string>();
  collect(value, type, [...path], out, true);
  return out;
}

function collect(value: unknown, type: FieldType, path: PathElement[], out: Set<string>, strict: boolean) {
  const t = concrete(type, value);
  if (isLeaf(t, value)) {
    if (path.length > 0) out.add(encodePath(path));
    return;
  }
  if (t.kind === 'map') {
    for (const [k, v] of Object.entries(value as Obj)) {
      if (v === undefined) continue;
      const [ct, declared] = childOf(t, k);
      const p = [...path, fieldElement(k)];
      collect(v, ct, p, out, strict);
      if (v === null || (isObject(v) && Object.keys(v).length === 0) || !declared) out.add(encodePath(p));
    }
    return;
  }
  if (t.kind === 'list') {
    for (const [pe, item] of indexItems(t, value as unknown[], path, strict)) {
      const p = [...path, pe];
      collect(item, t.element(), p, out, strict);
      out.add(encodePath(p));
    }
  }
}

/** Every path of a subtree that appears or disappears, its own included. */
function everyPath(value: unknown, type: FieldType, path: PathElement[], out: Set<string>) {
  if (path.length > 0) out.add(encodePath(path));
  const t = concrete(type, value);
  if (isLeaf(t, value)) return;
  if (t.kind === 'map')
    for (const [k, v] of Object.entries(value as Obj))
      if (v !== undefined) everyPath(v, childOf(t, k)[0], [...path, fieldElement(k)], out);
  if (t.kind === 'list')
    for (const [pe, item] of indexItems(t, value as unknown[], path, false))
      everyPath(item, t.element(), [...path, pe], out);
}

/** What an update changed. */
export interface Comparison {
  added: Set<string>;
  modified: Set<string>;
  removed: Set<string>;
}

/** The paths `rhs` adds, modifies and removes relative to `lhs` (undefined = absent). */
export function compare(lhs: unknown, rhs: unknown, type: FieldType): Comparison {
  const out: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  compareAt(lhs, rhs, type, [], out);
  return out;
}

function compareAt(l: unknown, r: unknown, type: FieldType, path: PathElement[], out: Comparison) {
  if (l === undefined && r === undefined) return;
  if (l === undefined) return everyPath(r, type, path, out.added);
  if (r === undefined) return everyPath(l, type, path, out.removed);
  const tl = concrete(type, l);
  const tr = concrete(type, r);
  if (tl !== tr || isLeaf(tl, l) || isLeaf(tr, r)) {
    if (!jsonEqual(l, r) && path.length > 0) out.modified.add(encodePath(path));
    return;
  }
  if (tl.kind === 'map') {
    const lo = l as Obj;
    const ro = r as Obj;
    for (const k of new Set([...Object.keys(lo), ...Object.keys(ro)]))
      compareAt(lo[k], ro[k], childOf(tl, k)[0], [...path, fieldElement(k)], out);
    return;
  }
  if (tl.kind === 'list') {
    const li = indexItems(tl, l as unknown[], path, false);
    const ri = indexItems(tl, r as unknown[], path, false);
    for (const pe of new Set([...li.keys(), ...ri.keys()]))
      compareAt(li.get(pe), ri.get(pe), tl.element(), [...path, pe], out);
  }
}

/**
 * `config` merged over `live`: maps key by key, keyed and set lists item by item (live items
 * the configuration does not name stay, in place; the configuration's order wins for the
 * others), everything atomic replaced by the configuration's value.
 */
export function merge(live: unknown, config: unknown, type: FieldType): unknown {
  return mergeAt(live, config, type, []);
}

function mergeAt(l: unknown, r: unknown, type: FieldType, path: PathElement[]): unknown {
  if (r === undefined) return l;
  if (l === undefined) return r;
  const tl = concrete(type, l);
  const tr = concrete(type, r);
  if (tl !== tr || isLeaf(tl, l) || isLeaf(tr, r)) return r;
  if (tl.kind === 'map') {
    const out: Obj = { ...(l as Obj) };
    for (const [k, v] of Object.entries(r as Obj))
      out[k] = mergeAt(out[k], v, childOf(tl, k)[0], [...path, fieldElement(k)]);
    return out;
  }
  if (tl.kind === 'list') return mergeList(tl, l as unknown[], r as unknown[], path);
  return r;
}

/**
 * Merges two keyed (or set) lists. Walks both: an item both have is merged where it meets; a
 * live-only item stays where it is; a shared live item met before its turn in the
 * configuration's order waits for it, so shared items take the configuration's order.
 */
function mergeList(t: ListType, l: unknown[], r: unknown[], path: PathElement[]): unknown[] {
  const lk = l.map((item) => itemElement(t, item, path));
  const rk = r.map((item) => itemElement(t, item, path));
  const lByKey = new Map<PathElement, unknown>();
  lk.forEach((k, i) => {
    if (!lByKey.has(k)) lByKey.set(k, l[i]);
  });
  const rByKey = new Map<PathElement, unknown>();
  rk.forEach((k, i) => {
    if (rByKey.has(k))
      throw new FieldStructureError(`${pathString([...path, k])}: duplicate entries for key ${k.slice(2)}`);
    rByKey.set(k, r[i]);
  });
  const sharedOrder = rk.filter((k) => lByKey.has(k));
  let nextShared = 0;
  const done = new Set<PathElement>();
  const out: unknown[] = [];
  const take = (k: PathElement) => {
    done.add(k);
    out.push(mergeAt(lByKey.get(k), rByKey.get(k), t.element(), [...path, k]));
    if (sharedOrder[nextShared] === k) nextShared++;
  };
  let i = 0;
  let j = 0;
  while (i < lk.length || j < rk.length) {
    if (i < lk.length && done.has(lk[i])) {
      i++;
      continue;
    }
    if (i < lk.length && j < rk.length && lk[i] === rk[j]) {
      take(rk[j]);
      i++;
      j++;
      continue;
    }
    if (i < lk.length && !rByKey.has(lk[i])) {
      out.push(l[i]);
      done.add(lk[i]);
      i++;
      continue;
    }
    if (i < lk.length && j >= rk.length) {
      i++;
      continue;
    }
    if (i < lk.length && sharedOrder[nextShared] !== lk[i] && rByKey.has(lk[i]) && j < rk.length) {
      // a shared item not yet due in the configuration's order: let the configuration lead
      take(rk[j]);
      j++;
      continue;
    }
    if (j < rk.length) {
      if (!done.has(rk[j])) take(rk[j]);
      j++;
    }
  }
  return out;
}

/**
 * `value` without the fields in `drop` that nobody in `keep` owns. A declared field whose
 * subtree the applier owned before (`last`) and nobody owns now goes as a whole (its defaulted
 * children with it), as kube-apiserver does; a map key or list item only when it was owned
 * itself. Key fields of a kept keyed-list item stay.
 */
export function removeFields(
  value: unknown,
  type: FieldType,
  drop: FieldSet,
  last: FieldSet,
  keep: FieldSet,
): unknown {
  return removeAt(value, type, [], drop, last, keep);
}

function removeAt(
  value: unknown,
  type: FieldType,
  path: PathElement[],
  drop: FieldSet,
  last: FieldSet,
  keep: FieldSet,
  keyFields: readonly string[] = [],
): unknown {
  const t = concrete(type, value);
  if (isLeaf(t, value)) return value;
  if (t.kind === 'map') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value as Obj)) {
      const [ct, declared] = childOf(t, k);
      const p = [...path, fieldElement(k)];
      const key = encodePath(p);
      if (!keyFields.includes(k) && !hasAtOrUnder(keep, key)) {
        // metadata as a whole is the server's: only its owned fields go
        const whole = declared && !(path.length === 0 && k === 'metadata') && hasAtOrUnder(last, key);
        if (drop.has(key) || whole) continue;
      }
      out[k] = hasAtOrUnder(drop, key) ? removeAt(v, ct, p, drop, last, keep) : v;
    }
    return out;
  }
  if (t.kind === 'list') {
    const out: unknown[] = [];
    for (const item of value as unknown[]) {
      const pe = itemElement(t, item, path);
      const p = [...path, pe];
      const key = encodePath(p);
      if (drop.has(key) && !hasAtOrUnder(keep, key)) continue;
      out.push(hasAtOrUnder(drop, key) ? removeAt(item, t.element(), p, drop, last, keep, t.keys) : item);
    }
    return out;
  }
  return value;
}
