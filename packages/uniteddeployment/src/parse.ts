// Parsing a subset quantity (docs/reference/uniteddeployment.md §3): a subset's `replicas`, `minReplicas` or
// `maxReplicas` against the UnitedDeployment total. Owns the "halves round up" percentage rule.
import type { IntOrString } from '@kruise-ts/api';

/** 2147483647, the "unlimited" maxReplicas of the elastic allocator (§4.3 E1). */
export const MAXINT32 = 2147483647;

/** Result of {@link parseSubsetReplicas}: a value or the reason it could not be parsed. */
export type ParsedQuantity = { value: number } | { error: string };

const INT32_TEXT = /^[+-]?[0-9]+$/;

/**
 * Parses a subset quantity against the UnitedDeployment total (§3), never throwing.
 *
 * - an integer `n ≥ 0` is `n` whatever the total; a negative (or non-integral) number is an error;
 * - a string needs a total (`total < 0` means "unset" → error), must end in `%`, and the rest must
 *   be a base-10 int32 `P` with `0 ≤ P ≤ 100`;
 * - `"P%"` gives **`floor((total × P + 50) / 100)`**: `total × P / 100` rounded to nearest,
 *   halves up.
 *
 * Worked example, total 5: `"50%"` → (250 + 50) / 100 = **3**; `"30%"` → (150 + 50) / 100 = **2**;
 * `"10%"` → (50 + 50) / 100 = **1**; `"9%"` → (45 + 50) / 100 = 0.95 → **0**. Two `"50%"` subsets
 * of 5 thus ask for 3 + 3 = 6 (the specific allocator then reports an error, §4.2 S3).
 */
export function parseSubsetReplicas(total: number, q: IntOrString): ParsedQuantity {
  if (typeof q === 'number') {
    if (!Number.isInteger(q)) return { error: `subset replicas ${q} is not an integer` };
    if (q < 0) return { error: `subset replicas (${q}) should not be less than 0` };
    return { value: q };
  }
  if (typeof q !== 'string')
    return { error: `subset replicas ${JSON.stringify(q)} is not an int or a string` };
  if (total < 0)
    return { error: `subset replicas (${q}) needs a total, but UnitedDeployment replicas is unset` };
  if (!q.endsWith('%'))
    return {
      error: `subset replicas (${q}) only supports integer value or percentage value with a suffix '%'`,
    };
  const text = q.slice(0, -1);
  if (!INT32_TEXT.test(text)) return { error: `subset replicas (${q}) is not a valid integer percentage` };
  const p = Number(text);
  if (p > MAXINT32 || p < -MAXINT32 - 1) return { error: `subset replicas (${q}) is out of int32 range` };
  if (p < 0 || p > 100) return { error: `subset replicas (${q}) should be in range [0, 100]` };
  return { value: Math.floor((total * p + 50) / 100) };
}

/** The value of a parse, or `fallback` on error (§4.3 E1 uses 0; the specific allocator treats an error as unset). */
export function parsedOr(parsed: ParsedQuantity, fallback: number): number {
  return 'value' in parsed ? parsed.value : fallback;
}
