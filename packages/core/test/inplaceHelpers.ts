// Test helpers for the in-place/lifecycle suites: loading upstream JSON cases and the
// "semantic" comparison of testdata/upstream/core/README.md (absent == null == "" == empty map/list,
// quantities by value, JSON annotation values compared parsed).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tryParseQuantity } from '../src/kube/quantity';

export interface UpstreamCase<I = any, E = any> {
  id: string;
  function?: string;
  featureGates?: Record<string, boolean>;
  compare?: string;
  input: I;
  expected: E;
  note?: string;
}

/** Loads `testdata/upstream/core/<file>` . */
export function loadCases<I = any, E = any>(file: string): UpstreamCase<I, E>[] {
  const url = new URL(`../../../testdata/upstream/core/${file}`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')).cases;
}

const JSON_ANNOTATIONS = new Set([
  'apps.kruise.io/inplace-update-state',
  'apps.kruise.io/inplace-update-grace',
]);

/**
 * Normalises a value for semantic comparison: drops null/undefined/empty maps and lists,
 * turns quantities inside `limits`/`requests` maps into their exact value, parses the JSON
 * annotations, and (optionally) maps timestamps through `timeMap`.
 */
export function semantic(v: unknown, key = '', timeMap: Record<string, string> = {}): unknown {
  if (v === null || v === undefined || v === '') return undefined; // Go zero values
  if (typeof v === 'string') {
    if (JSON_ANNOTATIONS.has(key)) return semantic(JSON.parse(v), '', timeMap);
    return timeMap[v] ?? v;
  }
  if (Array.isArray(v)) {
    const arr = v.map((x) => semantic(x, '', timeMap));
    return arr.length === 0 ? undefined : arr;
  }
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      let n: unknown;
      if ((k === 'limits' || k === 'requests') && x && typeof x === 'object' && !Array.isArray(x)) {
        const q: Record<string, string> = {};
        for (const [r, val] of Object.entries(x)) q[r] = `q:${tryParseQuantity(val)}`;
        n = Object.keys(q).length > 0 ? q : undefined;
      } else {
        n = semantic(x, k, timeMap);
      }
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}
