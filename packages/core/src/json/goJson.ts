// JSON text as Go writes it: the byte-wise (UTF-8) string order of Go's `sort.Strings`, and
// `encoding/json`'s output for a generic map (sorted keys, HTML-safe escapes). Annotations, revision
// data and strategic-merge patches that Kruise compares byte for byte are written with these.

type JsonObject = Record<string, unknown>;

/**
 * Byte-wise (UTF-8, i.e. code point) string order, as Go's `sort.Strings`: negative, 0 or
 * positive. JavaScript's `<` compares UTF-16 units instead, which differs once a character
 * beyond U+FFFF (a surrogate pair) meets one in U+E000–U+FFFF. A lone surrogate counts as the
 * code point of its unit.
 *
 * Example: `'\uffff' < '😀'` here (U+FFFF < U+1F600) although `'\uffff' > '😀'` with `<`
 * (0xFFFF > 0xD83D); `'a' < 'ab' < 'b'`.
 *
 * Fast path: one pass of `charCodeAt` up to the first differing unit; only there are
 * surrogate pairs decoded (the unit before it when that is a high surrogate shared by both).
 */
export function compareStringsBytewise(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // One is a prefix of the other (in units, hence in code points): the shorter sorts first.
  if (i === n) return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  // A shared high surrogate just before may pair with the differing unit in one string only.
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) {
    const ca = codePointAtUnit(a, i - 1);
    const cb = codePointAtUnit(b, i - 1);
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
  return codePointAtUnit(a, i) < codePointAtUnit(b, i) ? -1 : 1;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** The code point starting at unit `i`: a surrogate pair decoded, anything else its unit. */
function codePointAtUnit(s: string, i: number): number {
  const hi = s.charCodeAt(i);
  if (isHighSurrogate(hi) && i + 1 < s.length) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
  }
  return hi;
}

/**
 * JSON text the way Go's `encoding/json` writes a `map[string]interface{}`: object keys
 * sorted byte-wise, no spaces, and `<`, `>`, `&`, U+2028, U+2029 escaped as `\u003c`,
 * `\u003e`, `\u0026`, `\u2028`, `\u2029`. `undefined` members are skipped.
 * Example: `goJsonStringify({b: "<", a: 1})` → `{"a":1,"b":"\u003c"}`.
 */
export function goJsonStringify(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + goJsonStringify(value[i]);
    return `${out}]`;
  }
  const obj = value as JsonObject;
  const keys: string[] = [];
  for (const k of Object.keys(obj)) if (obj[k] !== undefined) keys.push(k);
  if (keys.length > 1) keys.sort(compareStringsBytewise);
  let out = '{';
  for (let i = 0; i < keys.length; i++)
    out += `${i > 0 ? ',' : ''}${goString(keys[i])}:${goJsonStringify(obj[keys[i]])}`;
  return `${out}}`;
}

const GO_ESCAPED = /[<>&\u2028\u2029]/;
const GO_ESCAPED_ALL = /[<>&\u2028\u2029]/g;

function goString(s: string): string {
  const json = JSON.stringify(s);
  // Most strings (names, images, timestamps) need no HTML-safe escaping: skip the replace.
  if (!GO_ESCAPED.test(json)) return json;
  return json.replace(GO_ESCAPED_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
