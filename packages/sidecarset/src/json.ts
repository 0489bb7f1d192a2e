// Fast paths of Go-compatible JSON text for the hot annotation encoders: a plain string needs
// no escaping and is written as is; anything else goes through core's `goJsonStringify`.
import { compareStringsBytewise, goJsonStringify, parseTime, toRFC3339 } from '@kruise-ts/core';

/** True when `s` has a character JSON or Go's encoder would escape (control, `"`, `\\`, `<>&`, U+2028/9, surrogates). */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) return true;
    if (c >= 0x2028 && (c <= 0x2029 || (c >= 0xd800 && c <= 0xdfff))) return true;
  }
  return false;
}

/** Strings made only of these characters never need escaping (a fast regex check first). */
const PLAIN = /^[\w.\-/:@+ ,=]*$/;

/** A JSON string literal as Go writes it (`<`, `>`, `&` escaped). Example: `a<b` → `"a\u003cb"`. */
export function jsonString(s: string): string {
  return PLAIN.test(s) || !needsEscape(s) ? `"${s}"` : goJsonStringify(s);
}

const CANONICAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * `now` as Kubernetes serialises a time (RFC 3339, UTC, seconds): a string already in that form
 * is returned as is, anything else goes through core's `toRFC3339`; `undefined` when it is not a time.
 * Example: `2025-01-01T08:00:00.5+08:00` → `2025-01-01T00:00:00Z`.
 */
export function canonicalTime(now: string | Date): string | undefined {
  if (typeof now === 'string' && CANONICAL_TIME.test(now)) {
    const month = Number(now.slice(5, 7));
    const day = Number(now.slice(8, 10));
    const h = Number(now.slice(11, 13));
    const m = Number(now.slice(14, 16));
    const sec = Number(now.slice(17, 19));
    if (
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      h <= 23 &&
      m <= 59 &&
      sec <= 59 &&
      now !== '0001-01-01T00:00:00Z'
    ) {
      return now;
    }
  }
  return parseTime(now) === null ? undefined : toRFC3339(now);
}

/** A `map[string]string` as Go writes it: keys sorted bytewise. Example: `{b: '1', a: '2'}` → `{"a":"2","b":"1"}`. */
export function jsonStringMap(m: Readonly<Record<string, string>>): string {
  const keys = Object.keys(m).sort(compareStringsBytewise);
  let out = '{';
  for (let i = 0; i < keys.length; i++)
    out += `${i > 0 ? ',' : ''}${jsonString(keys[i])}:${jsonString(m[keys[i]])}`;
  return `${out}}`;
}

/** A `[]string` (`null` for none). */
export function jsonStringList(list: readonly string[] | null): string {
  if (list === null) return 'null';
  let out = '[';
  for (let i = 0; i < list.length; i++) out += `${i > 0 ? ',' : ''}${jsonString(list[i])}`;
  return `${out}]`;
}
