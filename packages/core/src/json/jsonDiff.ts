// RFC 6902 JSON diff with the exact operation set of appscode/jsonpatch v1.0.1
// (docs/reference/core.md Appendix A). Section 1 classifies revision changes from these operations,
// so *which* operations appear matters (e.g. a changed env list gives `replace` of a leaf,
// an added container gives `add`); their order does not.
import { KruiseError } from '../contract/errors';
import { compareStringsBytewise } from './goJson';

/** One RFC 6902 operation as produced by {@link jsonDiff} (`value` absent for `remove`). */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

/** Escapes one JSON-pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function escapeJsonPointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Decodes one JSON-pointer segment (RFC 6901): `~1` → `/`, then `~0` → `~`. */
export function unescapeJsonPointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

type Kind = 'null' | 'object' | 'array' | 'string' | 'number' | 'boolean';

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  return 'object';
}

function isPrimitive(v: unknown): boolean {
  const k = kindOf(v);
  return k === 'string' || k === 'number' || k === 'boolean';
}

/**
 * Whether {@link jsonDiff} finds nothing to change from `a` to `b`: the equality the edit
 * distance (A.4) must use so that a zero-cost step is one that needs no operation. It follows
 * {@link jsonDiff}'s own model, not JSON's: `undefined` counts as `null` (A.2) and an object member
 * holding `undefined` is still a member. Everywhere else use `jsonEqual` (./jsonPatch), which
 * treats such a member as absent, as JSON does.
 */
function diffsToNothing(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  if (ka === 'null') return true;
  if (ka === 'array') {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!diffsToNothing(x[i], y[i])) return false;
    return true;
  }
  if (ka === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    // for…in over own keys: no key arrays (this runs for every pod a controller compares)
    let n = 0;
    for (const k in x) {
      if (!Object.hasOwn(x, k)) continue;
      n++;
      if (!Object.hasOwn(y, k) || !diffsToNothing(x[k], y[k])) return false;
    }
    for (const k in y) if (Object.hasOwn(y, k)) n--;
    return n === 0;
  }
  return false; // primitives that are not === (NaN never occurs in JSON)
}

/**
 * The RFC 6902 operations turning `a` into `b`, exactly as appscode/jsonpatch v1.0.1
 * computes them (Appendix A). Applying them in order to `a` yields `b`.
 *
 * Objects: keys of `b` missing in `a` → `add`; keys of `a` missing in `b` → `remove`;
 * others compared recursively. Values: `null` → non-null gives `add`; different types or
 * unequal primitives give `replace`. Arrays: "simple" arrays (A.3) are diffed by edit
 * distance (A.4), others element-wise (removes from the end, adds, then per-index diffs).
 *
 * Worked example: `a = {"c":[{"name":"c1","image":"x"}]}`,
 * `b = {"c":[{"name":"c1","image":"y"}]}` → the array is simple (its first element is a flat
 * object), the edit distance is 1 substitution, the old first element is not a primitive so
 * the two elements are compared recursively → `[{op:"replace", path:"/c/0/image", value:"y"}]`.
 */
export function jsonDiff(a: unknown, b: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  compareValues(a, b, '', ops);
  return ops;
}

/**
 * Parses two JSON texts and diffs them ({@link jsonDiff}). Both must be JSON objects
 * (R1.2). **Throws** a `KruiseError` when a text is not valid JSON or not an object.
 */
export function createJsonPatch(aText: string, bText: string): JsonPatchOperation[] {
  return jsonDiff(parseJsonObject(aText), parseJsonObject(bText));
}

function parseJsonObject(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new KruiseError(`invalid JSON document: ${(e as Error).message}`, text);
  }
  if (kindOf(v) !== 'object') throw new KruiseError('JSON document is not an object', text);
  return v as Record<string, unknown>;
}

function diffObjects(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  path: string,
  ops: JsonPatchOperation[],
) {
  // A.1: keys of b (sorted for determinism; the outcome does not depend on the order).
  for (const key of Object.keys(b).sort(compareStringsBytewise)) {
    const p = `${path}/${escapeJsonPointer(key)}`;
    if (!Object.hasOwn(a, key)) ops.push({ op: 'add', path: p, value: b[key] });
    else compareValues(a[key], b[key], p, ops);
  }
  for (const key of Object.keys(a).sort(compareStringsBytewise)) {
    if (!Object.hasOwn(b, key)) ops.push({ op: 'remove', path: `${path}/${escapeJsonPointer(key)}` });
  }
}

/** A.2 value comparison at path `p`. */
function compareValues(av: unknown, bv: unknown, p: string, ops: JsonPatchOperation[]) {
  const ka = kindOf(av);
  const kb = kindOf(bv);
  if (ka === 'null' && kb === 'null') return;
  if (ka === 'null') {
    ops.push({ op: 'add', path: p, value: bv });
    return;
  }
  if (ka !== kb) {
    ops.push({ op: 'replace', path: p, value: bv });
    return;
  }
  switch (ka) {
    case 'object':
      diffObjects(av as Record<string, unknown>, bv as Record<string, unknown>, p, ops);
      return;
    case 'array':
      compareArrays(av as unknown[], bv as unknown[], p, ops);
      return;
    default:
      if (av !== bv) ops.push({ op: 'replace', path: p, value: bv });
  }
}

function compareArrays(a: unknown[], b: unknown[], p: string, ops: JsonPatchOperation[]) {
  if (isSimpleArray(a) && isSimpleArray(b)) {
    editDistanceOps(a, b, p, ops);
    return;
  }
  const min = Math.min(a.length, b.length);
  for (let i = a.length - 1; i >= min; i--) ops.push({ op: 'remove', path: `${p}/${i}` });
  for (let i = min; i < b.length; i++) ops.push({ op: 'add', path: `${p}/${i}`, value: b[i] });
  for (let i = 0; i < min; i++) compareValues(a[i], b[i], `${p}/${i}`, ops);
}

/**
 * A.3: scanning in order, primitives continue; the first flat object (all values
 * null/primitive) ends the scan with "simple"; an array, a null or a nested object ends it
 * with "not simple".
 */
export function isSimpleArray(arr: readonly unknown[]): boolean {
  for (const el of arr) {
    const k = kindOf(el);
    if (k === 'string' || k === 'number' || k === 'boolean') continue;
    if (k !== 'object') return false;
    const values = Object.values(el as Record<string, unknown>);
    return values.every((v) => kindOf(v) === 'null' || isPrimitive(v));
  }
  return true;
}

/** A.4: Wagner–Fischer edit distance and its backtrack from (m, n). */
function editDistanceOps(s: unknown[], t: unknown[], p: string, ops: JsonPatchOperation[]) {
  const m = s.length;
  const n = t.length;
  const d: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = 0; i <= m; i++) d[i]![0] = i;
  for (let j = 0; j <= n; j++) d[0]![j] = j;
  for (let j = 1; j <= n; j++) {
    for (let i = 1; i <= m; i++) {
      const cost = diffsToNothing(s[i - 1], t[j - 1]) ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
    }
  }
  const firstIsPrimitive = m > 0 && isPrimitive(s[0]);
  let i = m;
  let j = n;
  while (i > 0 || j > 0) {
    const cur = d[i]![j]!;
    if (i > 0 && d[i - 1]![j]! + 1 === cur) {
      ops.push({ op: 'remove', path: `${p}/${i - 1}` });
      i--;
    } else if (j > 0 && d[i]![j - 1]! + 1 === cur) {
      ops.push({ op: 'add', path: `${p}/${i}`, value: t[j - 1] });
      j--;
    } else if (i > 0 && j > 0 && d[i - 1]![j - 1]! + 1 === cur) {
      if (firstIsPrimitive) ops.push({ op: 'replace', path: `${p}/${i - 1}`, value: t[j - 1] });
      else compareValues(s[i - 1], t[j - 1], `${p}/${i - 1}`, ops);
      i--;
      j--;
    } else {
      i--;
      j--;
    }
  }
}
