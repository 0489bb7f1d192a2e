// RFC 7386 JSON merge patch with Go's byte layout, as the `MergePatchJson` policy of
// `patchPodMetadata` produces it (docs/reference/sidecarset.md SS-4.3.1): merged objects are re-encoded
// with sorted keys, untouched nested values keep their compacted original text, `null` in
// the patch deletes, `<`, `>`, `&` are escaped, and the error cases of the Go library.

/** A parsed JSON value that remembers its source text (Go's lazy node). */
type Node =
  | { t: 'obj'; raw: string; entries: Map<string, Node | null>; touched: boolean }
  | { t: 'arr'; raw: string; items: (Node | null)[]; touched: boolean }
  | { t: 'lit'; raw: string };

class Parser {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i])) this.i++;
  }
  fail(): never {
    throw new SyntaxError(`invalid JSON at ${this.i}`);
  }
  value(): Node | null {
    this.ws();
    const start = this.i;
    const c = this.s[this.i];
    if (c === '{') {
      this.i++;
      const entries = new Map<string, Node | null>();
      this.ws();
      if (this.s[this.i] === '}') this.i++;
      else {
        for (;;) {
          this.ws();
          if (this.s[this.i] !== '"') this.fail();
          const key = JSON.parse(this.str()) as string;
          this.ws();
          if (this.s[this.i++] !== ':') this.fail();
          entries.set(key, this.value());
          this.ws();
          const d = this.s[this.i++];
          if (d === '}') break;
          if (d !== ',') this.fail();
        }
      }
      return { t: 'obj', raw: this.s.slice(start, this.i), entries, touched: false };
    }
    if (c === '[') {
      this.i++;
      const items: (Node | null)[] = [];
      this.ws();
      if (this.s[this.i] === ']') this.i++;
      else {
        for (;;) {
          items.push(this.value());
          this.ws();
          const d = this.s[this.i++];
          if (d === ']') break;
          if (d !== ',') this.fail();
        }
      }
      return { t: 'arr', raw: this.s.slice(start, this.i), items, touched: false };
    }
    if (c === '"') return { t: 'lit', raw: this.str() };
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.s.slice(this.i));
    if (!m) this.fail();
    this.i += m[0].length;
    return m[0] === 'null' ? null : { t: 'lit', raw: m[0] };
  }
  str(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== '"') {
      const ch = this.s.charCodeAt(this.i);
      if (ch < 0x20) this.fail();
      if (this.s[this.i] === '\\') {
        const e = this.s[this.i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) this.fail();
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else this.fail();
      } else this.i++;
    }
    if (this.s[this.i] !== '"') this.fail();
    this.i++;
    return this.s.slice(start, this.i);
  }
}

/** Parses JSON text into lazy nodes; `undefined` for a syntax error. `null` is the JSON null. */
function parse(text: string): { node: Node | null } | undefined {
  const p = new Parser(text);
  try {
    const node = p.value();
    p.ws();
    if (p.i !== text.length) return undefined;
    return { node };
  } catch {
    return undefined;
  }
}

/** Go's `json.Compact` with HTML escaping, as `json.Marshal(json.RawMessage)` writes raw text. */
function compactRaw(raw: string): string {
  let out = '';
  let inStr = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (inStr) {
      if (c === '\\') {
        out += c + raw[i + 1];
        i++;
        continue;
      }
      if (c === '"') inStr = false;
      out += escapeHtml(c);
    } else if (c === '"') {
      inStr = true;
      out += c;
    } else if (!' \t\n\r'.includes(c)) out += c;
  }
  return out;
}

function escapeHtml(c: string): string {
  switch (c) {
    case '<':
      return '\\u003c';
    case '>':
      return '\\u003e';
    case '&':
      return '\\u0026';
    case '\u2028':
      return '\\u2028';
    case '\u2029':
      return '\\u2029';
    default:
      return c;
  }
}

function keyText(k: string): string {
  return JSON.stringify(k).replace(/[<>&\u2028\u2029]/g, escapeHtml);
}

function encode(n: Node | null): string {
  if (n === null) return 'null';
  if (n.t === 'lit' || !n.touched) return compactRaw(n.raw);
  if (n.t === 'arr') return `[${n.items.map(encode).join(',')}]`;
  const keys = [...n.entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${keyText(k)}:${encode(n.entries.get(k) ?? null)}`).join(',')}}`;
}

/** `pruneNulls`: drops null members of objects (recursively); arrays keep null items. */
function pruneNulls(n: Node | null): void {
  if (n === null || n.t === 'lit') return;
  n.touched = true;
  if (n.t === 'obj') {
    for (const [k, v] of [...n.entries]) {
      if (v === null) n.entries.delete(k);
      else pruneNulls(v);
    }
  } else for (const v of n.items) if (v !== null) pruneNulls(v);
}

function mergeDocs(doc: Extract<Node, { t: 'obj' }>, patch: Extract<Node, { t: 'obj' }>): void {
  doc.touched = true;
  for (const [k, v] of patch.entries) {
    if (v === null) {
      doc.entries.delete(k);
      continue;
    }
    const cur = doc.entries.get(k);
    if (cur === undefined || cur === null) {
      pruneNulls(v);
      doc.entries.set(k, v);
    } else if (cur.t !== 'obj') {
      pruneNulls(v);
      doc.entries.set(k, v);
    } else if (v.t !== 'obj') {
      doc.entries.set(k, v);
    } else {
      mergeDocs(cur, v);
    }
  }
}

/**
 * Applies merge patch `patchText` to `docText` the way kruise's `MergePatchJson` policy does
 * (evanphx/json-patch `MergePatch`, then Go's encoder). Errors: a document or patch that is not
 * valid JSON, a `null` document or patch, a patch that is neither an object nor an array. A valid
 * non-object document is replaced by the patch with its nulls removed.
 *
 * Example (SS-4.3.3): `{"log-agent":1}` patched with `{"envoy":2}` → `{"envoy":2,"log-agent":1}`;
 * `{"a":{"z":1,"y":2},"b":1}` patched with `{"b":null,"c":"<x>"}` → `{"a":{"z":1,"y":2},"c":"\u003cx\u003e"}`
 * (the untouched `a` keeps its key order).
 */
export function goMergePatch(docText: string, patchText: string): { value: string } | { error: string } {
  const doc = parse(docText);
  if (!doc) return { error: 'Invalid JSON Document' };
  const patch = parse(patchText);
  if (!patch) return { error: 'Invalid JSON Patch' };
  if (doc.node === null) return { error: 'Invalid JSON Document' };
  if (patch.node === null) return { error: 'Invalid JSON Patch' };
  const p = patch.node;
  if (p.t === 'lit') return { error: 'Invalid JSON Patch' };
  if (doc.node.t !== 'obj' || p.t === 'arr') {
    pruneNulls(p);
    return { value: encode(p) };
  }
  mergeDocs(doc.node, p);
  return { value: encode(doc.node) };
}
