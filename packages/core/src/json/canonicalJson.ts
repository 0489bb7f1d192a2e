// Canonical JSON: one text per JSON value whatever its key order, so two values compare (and
// hash) by content. The one implementation for every package; for Go's exact bytes (byte-wise key
// order, HTML-safe escapes) see ./goJson.

/**
 * Canonical JSON: object keys sorted (JavaScript string order), no whitespace, `undefined`
 * members dropped (as `JSON.stringify` does). Equal JSON values give equal text whatever the
 * key order. Example: `{b: 1, a: [{d: 2, c: 3}]}` → `{"a":[{"c":3,"d":2}],"b":1}`.
 */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value !== null && typeof value === 'object') {
    const src = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(src).sort()) {
      if (src[k] !== undefined) out[k] = sortKeys(src[k]);
    }
    return out;
  }
  return value;
}
