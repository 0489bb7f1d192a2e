// Canonical JSON text as Go's encoding/json writes a generic map: object keys sorted byte-wise,
// no spaces, `<`, `>`, `&`, U+2028 and U+2029 escaped. Used for revision data bytes (§9) and for
// the raw subset patch text written to the `apps.kruise.io/subset-patch` annotation (§7.4 step 10).

/** `{"b":1,"a":"<x>"}` → `{"a":"\u003cx\u003e","b":1}`; `undefined` members are dropped. */
export function canonicalJson(value: unknown): string {
  return escapeGo(JSON.stringify(sortKeys(value)) ?? 'null');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

function escapeGo(text: string): string {
  return text
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
