// Field sets: the sets of field paths that managedFields entries record, and their `FieldsV1`
// encoding. A path is a list of elements, each written as kube-apiserver writes it:
// `f:<name>` a field (or a key of a map), `k:{"name":"nginx"}` the item of a keyed list with
// those key values, `v:"value"` the item of a set, `i:<n>` an item by index. In `fieldsV1` a path
// is nested objects; a path that is both a member and the parent of other members (a list item,
// a map created by an update) carries `.: {}` next to its children.
//
// Sets are plain JavaScript sets of encoded paths (elements joined by a NUL, which the JSON
// encoding inside elements never produces), which keeps union, difference and intersection simple.

/** One element of a field path, in its fieldsV1 form (`f:spec`, `k:{"name":"a"}`, `v:1`, `i:0`). */
export type PathElement = string;

/** A field path. */
export type FieldPath = readonly PathElement[];

/** A set of field paths (encoded with {@link encodePath}). */
export type FieldSet = ReadonlySet<string>;

const SEP = '\u0000';

/** The set form of a path. */
export function encodePath(path: FieldPath): string {
  return path.join(SEP);
}

/** The path of an encoded path. */
export function decodePath(key: string): FieldPath {
  return key === '' ? [] : key.split(SEP);
}

/** The element of a field (or map key) `name`. */
export const fieldElement = (name: string): PathElement => `f:${name}`;

/** The element of a keyed list item: the key fields sorted by name, as compact JSON. */
export function keyElement(keys: Readonly<Record<string, unknown>>): PathElement {
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(keys).sort()) sorted[k] = keys[k];
  return `k:${JSON.stringify(sorted)}`;
}

/** The element of a set item. */
export const valueElement = (value: unknown): PathElement => `v:${JSON.stringify(value)}`;

/** The element of an item by position. */
export const indexElement = (i: number): PathElement => `i:${i}`;

/** `true` when `key` is `prefix` or lies under it. */
export function isUnder(key: string, prefix: string): boolean {
  if (prefix === '') return true;
  return key === prefix || key.startsWith(prefix + SEP);
}

/** `true` when some member of `set` is `key` or lies under it. */
export function hasAtOrUnder(set: FieldSet, key: string): boolean {
  if (set.has(key)) return true;
  const prefix = key === '' ? '' : key + SEP;
  for (const m of set) if (m.startsWith(prefix)) return true;
  return false;
}

/** Members of `a` or `b`. */
export function union(...sets: FieldSet[]): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const m of s) out.add(m);
  return out;
}

/** Members of `a` that are not in `b`. */
export function difference(a: FieldSet, b: FieldSet): Set<string> {
  const out = new Set<string>();
  for (const m of a) if (!b.has(m)) out.add(m);
  return out;
}

/** Members of both `a` and `b`. */
export function intersection(a: FieldSet, b: FieldSet): Set<string> {
  const out = new Set<string>();
  for (const m of a) if (b.has(m)) out.add(m);
  return out;
}

/**
 * A path as kube-apiserver prints it in a conflict: `.spec.replicas`,
 * `.spec.template.spec.containers[name="nginx"].image`, `.metadata.finalizers[="a"]`.
 */
export function pathString(path: FieldPath): string {
  let out = '';
  for (const e of path) {
    const body = e.slice(2);
    if (e.startsWith('f:')) out += `.${body}`;
    else if (e.startsWith('k:')) {
      const keys = safeParse(body) as Record<string, unknown> | undefined;
      out += `[${Object.entries(keys ?? {})
        .map(([k, v]) => `${k}=${valueString(v)}`)
        .join(',')}]`;
    } else if (e.startsWith('v:')) out += `[=${valueString(safeParse(body))}]`;
    else out += `[${body}]`;
  }
  return out;
}

function valueString(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v ?? null);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** fieldsV1 order: `.` first, then fields, keyed items, set items, indexes, each by its text. */
function elementOrder(a: string, b: string): number {
  const rank = (e: string) => ['f', 'k', 'v', 'i'].indexOf(e[0]);
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Trie {
  member: boolean;
  children: Map<string, Trie>;
}

/** The `fieldsV1` object of a set (`{"f:spec": {"f:replicas": {}}}`). */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const root: Trie = { member: false, children: new Map() };
  for (const key of set) {
    let node = root;
    for (const e of decodePath(key)) {
      let next = node.children.get(e);
      if (!next) {
        next = { member: false, children: new Map() };
        node.children.set(e, next);
      }
      node = next;
    }
    node.member = true;
  }
  const emit = (node: Trie): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (node.member && node.children.size > 0) out['.'] = {};
    for (const e of [...node.children.keys()].sort(elementOrder)) out[e] = emit(node.children.get(e)!);
    return out;
  };
  return emit(root);
}

/**
 * The set a `fieldsV1` object describes. Anything that is not an object of objects is ignored
 * (managedFields are user data: a malformed entry must not break a write).
 */
export function fromFieldsV1(fields: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, path: PathElement[]) => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const entries = Object.entries(node as Record<string, unknown>);
    if (entries.length === 0 && path.length > 0) out.add(encodePath(path));
    for (const [k, v] of entries) {
      if (k === '.') {
        if (path.length > 0) out.add(encodePath(path));
      } else if (/^[fkvi]:/.test(k)) walk(v, [...path, k]);
    }
  };
  walk(fields, []);
  return out;
}
