// The two generic patch formats an API server accepts, applied to plain JSON:
// JSON merge patch (RFC 7386) and JSON patch (RFC 6902, including `test`).
// Used by the in-memory API server (../apply) and the simulator. Inputs are never mutated.
import { KruiseError } from '../contract/errors';
import { extend } from './objects';

type Json = unknown;
type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Deep equality of JSON values (object key order ignored; a key whose value is `undefined`
 * counts as absent). Written as plain loops without `filter`ed key lists: the simulator compares
 * ~100k pods per rollout, and allocating those lists would dominate the cost.
 */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as JsonObject;
  const y = b as JsonObject;
  // for…in over plain JSON objects allocates no key array (Object.keys would, per object).
  let n = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k)) continue;
    const v = x[k];
    if (v === undefined) continue;
    n++;
    if (!Object.hasOwn(y, k) || !jsonEqual(v, y[k])) return false;
  }
  for (const k in y) if (Object.hasOwn(y, k) && y[k] !== undefined) n--;
  return n === 0;
}

/**
 * RFC 7386 JSON merge patch: objects merge key-wise, `null` deletes a key, anything else
 * (arrays included) replaces. Returns a new value.
 * Example: `{a: 1, b: {c: 2, d: 3}}` + `{b: {c: null, e: 4}, f: [1]}` → `{a: 1, b: {d: 3, e: 4}, f: [1]}`.
 */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  let deletes = false;
  for (const k in patch)
    if (Object.hasOwn(patch, k) && patch[k] === null) {
      deletes = true;
      break;
    }
  // Built without `delete`, which would turn the copy into a slow dictionary-mode object.
  let out: JsonObject;
  if (!isObject(target)) out = {};
  // extend, not a spread: the patch may add keys, and a spread that gains keys gets a hidden class of its own (objects.ts)
  else if (!deletes) out = extend(target);
  else {
    out = {};
    for (const k in target)
      if (Object.hasOwn(target, k) && !(Object.hasOwn(patch, k) && patch[k] === null)) out[k] = target[k];
  }
  for (const k in patch) {
    if (!Object.hasOwn(patch, k)) continue;
    const v = patch[k];
    if (v !== null) out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** One RFC 6902 operation. */
export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new KruiseError(`invalid JSON pointer ${JSON.stringify(pointer)}`, pointer);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(seg: string, length: number, allowEnd: boolean): number {
  if (allowEnd && seg === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(seg))
    throw new KruiseError(`invalid array index ${JSON.stringify(seg)}`, seg);
  const i = Number(seg);
  if (i > length || (!allowEnd && i === length)) throw new KruiseError(`array index ${i} out of bounds`, seg);
  return i;
}

function getAt(doc: Json, segs: readonly string[]): Json {
  let cur = doc;
  for (const seg of segs) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(seg, cur.length, false)];
    else if (isObject(cur) && Object.hasOwn(cur, seg)) cur = cur[seg];
    else throw new KruiseError(`path /${segs.join('/')} does not exist`, segs);
  }
  return cur;
}

/** Returns a copy of `doc` with `fn` applied to the container holding the last segment. */
function editAt(
  doc: Json,
  segs: readonly string[],
  fn: (parent: JsonObject | unknown[], last: string) => void,
): Json {
  if (segs.length === 0) throw new KruiseError('cannot edit the document root here', segs);
  const root = structuredClone(doc);
  const parent = getAt(root, segs.slice(0, -1));
  if (!Array.isArray(parent) && !isObject(parent)) {
    throw new KruiseError(`parent of /${segs.join('/')} is not a container`, segs);
  }
  fn(parent, segs[segs.length - 1]);
  return root;
}

function addAt(doc: Json, segs: readonly string[], value: Json): Json {
  if (segs.length === 0) return structuredClone(value);
  return editAt(doc, segs, (parent, last) => {
    if (Array.isArray(parent))
      parent.splice(arrayIndex(last, parent.length, true), 0, structuredClone(value));
    else parent[last] = structuredClone(value);
  });
}

function removeAt(doc: Json, segs: readonly string[]): Json {
  getAt(doc, segs);
  return editAt(doc, segs, (parent, last) => {
    if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length, false), 1);
    else delete parent[last];
  });
}

/**
 * RFC 6902 JSON patch: `add`, `remove`, `replace`, `move`, `copy`, `test`, applied in order.
 * Returns a new document.
 * Example: `{a: [1, 2]}` + `[{op:'test',path:'/a/0',value:1},{op:'add',path:'/a/-',value:3}]` → `{a: [1, 2, 3]}`.
 * @throws KruiseError when an operation is malformed, a path does not exist or a `test` fails.
 */
export function applyJsonPatch(doc: Json, ops: unknown): Json {
  if (!Array.isArray(ops)) throw new KruiseError('a JSON patch must be an array of operations', ops);
  let cur = doc;
  for (const raw of ops) {
    if (!isObject(raw) || typeof raw.path !== 'string')
      throw new KruiseError('malformed JSON patch operation', raw);
    const op = raw as unknown as JsonPatchOp;
    const segs = parsePointer(op.path);
    switch (op.op) {
      case 'add':
        if (!('value' in raw)) throw new KruiseError('add operation needs a value', raw);
        cur = addAt(cur, segs, op.value);
        break;
      case 'remove':
        cur = removeAt(cur, segs);
        break;
      case 'replace':
        if (!('value' in raw)) throw new KruiseError('replace operation needs a value', raw);
        if (segs.length === 0) {
          cur = structuredClone(op.value);
          break;
        }
        getAt(cur, segs);
        cur = editAt(cur, segs, (parent, last) => {
          if (Array.isArray(parent))
            parent[arrayIndex(last, parent.length, false)] = structuredClone(op.value);
          else parent[last] = structuredClone(op.value);
        });
        break;
      case 'move': {
        if (typeof op.from !== 'string') throw new KruiseError('move operation needs from', raw);
        const from = parsePointer(op.from);
        if (segs.length > from.length && from.every((s, i) => segs[i] === s)) {
          throw new KruiseError('cannot move a value into one of its children', raw);
        }
        const value = getAt(cur, from);
        cur = addAt(removeAt(cur, from), segs, value);
        break;
      }
      case 'copy': {
        if (typeof op.from !== 'string') throw new KruiseError('copy operation needs from', raw);
        cur = addAt(cur, segs, getAt(cur, parsePointer(op.from)));
        break;
      }
      case 'test':
        if (!jsonEqual(getAt(cur, segs), op.value)) {
          throw new KruiseError(`test operation failed at ${JSON.stringify(op.path)}`, raw);
        }
        break;
      default:
        throw new KruiseError(`unknown JSON patch operation ${JSON.stringify((raw as JsonObject).op)}`, raw);
    }
  }
  return cur;
}
