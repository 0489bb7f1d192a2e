// Int-or-percent values (docs/reference/core.md §6): the three rounding helpers Kruise
// controllers use — (a) Kubernetes' strict scaled helper, (b) Kubernetes' legacy
// helper, (c) Kruise's float-percent helper — plus CloneSet's partition rule and
// Kubernetes' `intstr.Parse`. Parsing follows Go's strconv rules, not JavaScript's.
import type { IntOrString } from '@kruise-ts/api';
import { KruiseError } from '../contract/errors';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Go's `strconv.Atoi` / `ParseInt(s, 10, bits)` syntax: optional sign, then decimal digits only. */
const GO_DECIMAL_INT = /^[+-]?[0-9]+$/;

/**
 * Go's `strconv.ParseInt(s, 10, 64)`: returns the integer or `undefined` when the text is not
 * a base-10 integer (`""`, `"1.5"`, `"0x10"`, `"1_000"`, `" 1"` are all rejected) or does not
 * fit in a signed 64-bit integer. Values beyond 2^53 lose precision as JS numbers, which
 * never matters for replica counts.
 */
export function parseGoInt(text: string, bits: 32 | 64 = 64): number | undefined {
  if (!GO_DECIMAL_INT.test(text)) return undefined;
  const big = BigInt(text);
  const max = bits === 32 ? BigInt(INT32_MAX) : 9223372036854775807n;
  const min = bits === 32 ? BigInt(INT32_MIN) : -9223372036854775808n;
  if (big > max || big < min) return undefined;
  return Number(big);
}

/** Characters allowed by Go's underscore rule: `_` only between digits (or after a base prefix). */
function goUnderscoresOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1].toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1].toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

const GO_DEC_FLOAT = /^[+-]?(?:[0-9_]+\.?[0-9_]*|\.[0-9_]+)(?:[eE][+-]?[0-9][0-9_]*)?$/;
const GO_HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F_]*)\.?([0-9a-fA-F_]*)[pP]([+-]?[0-9][0-9_]*)$/;
const GO_SPECIAL_FLOAT = /^[+-]?(?:inf|infinity|nan)$/i;

/**
 * Go's `strconv.ParseFloat(s, 64)` syntax: decimal (`"99.99"`, `".5"`, `"1e1"`, `"1_000.5"`)
 * and hexadecimal (`"0x1p-2"`) literals. Returns `undefined` for anything Go rejects
 * (`""`, `"90#"`, `"1_"`, `"0x10"` without a `p` exponent) and — a deliberate choice —
 * for values that are not finite (`"Inf"`, `"NaN"`, overflow such as `"1e400"`), since no
 * replica count can be derived from them.
 */
export function parseGoFloat(text: string): number | undefined {
  if (GO_SPECIAL_FLOAT.test(text)) return undefined;
  const hex = GO_HEX_FLOAT.exec(text);
  if (hex) {
    const [, sign, intPart, fracPart, expPart] = hex;
    if ((intPart + fracPart).replace(/_/g, '') === '') return undefined;
    if (!goUnderscoresOK(text)) return undefined;
    const digits = (intPart + fracPart).replace(/_/g, '');
    const fracBits = fracPart.replace(/_/g, '').length * 4;
    const exp = Number(expPart.replace(/_/g, '')) - fracBits;
    const mantissa = Number(BigInt(`0x${digits}`));
    const value = (sign === '-' ? -1 : 1) * mantissa * 2 ** exp;
    return Number.isFinite(value) ? value : undefined;
  }
  if (!GO_DEC_FLOAT.test(text)) return undefined;
  // At least one digit in the mantissa; underscores only between digits.
  const mantissaPart = text.replace(/[eE].*$/, '');
  if (!/[0-9]/.test(mantissaPart)) return undefined;
  if (text.includes('_') && !goUnderscoresOK(text)) return undefined;
  const value = Number(text.replace(/_/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

/** A JS number given as an IntOrString must be what Go could unmarshal into an int32. */
function intValue(value: number): number {
  if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
    throw new KruiseError(`invalid value ${JSON.stringify(value)}: not an int32`, value);
  }
  return value;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function roundScaled(percent: number, total: number, roundUp: boolean): number {
  // Go evaluates float64(value) * float64(total) / 100 left to right.
  const x = (percent * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/**
 * Kubernetes' `getIntOrPercentValueSafely`: the integer behind an int-or-percent and whether
 * it is a percentage, or an error. Strings must end with `%` and the rest must be a Go
 * base-10 integer. Never throws.
 *
 * Example: `"30%"` → `{ value: 30, isPercent: true }`; `"30%0"` and `"40%%"` → error.
 */
export function getIntOrPercentValueSafely(value: IntOrString | null | undefined): {
  value: number;
  isPercent: boolean;
  error?: string;
} {
  if (typeof value === 'number') {
    try {
      return { value: intValue(value), isPercent: false };
    } catch (e) {
      return { value: 0, isPercent: false, error: (e as Error).message };
    }
  }
  if (typeof value !== 'string') {
    return { value: 0, isPercent: false, error: 'invalid type: neither int nor percentage' };
  }
  if (!value.endsWith('%')) {
    return { value: 0, isPercent: false, error: 'invalid type: string is not a percentage' };
  }
  const v = parseGoInt(value.slice(0, -1));
  if (v === undefined) {
    return {
      value: 0,
      isPercent: false,
      error: `invalid value ${describe(value)}: not an integer percentage`,
    };
  }
  return { value: v, isPercent: true };
}

/**
 * (a) Kubernetes' `GetScaledValueFromIntOrPercent` (docs/reference/core.md §6.1 a). An int is returned
 * as is; a string must be `<int>%` and gives `ceil`/`floor` of `p * total / 100`.
 *
 * Example: `("90%", 95, false)` → floor(85.5) = 85; `("90%", 95, true)` → 86; `(3, 95, _)` → 3.
 *
 * @throws KruiseError naming the value when it is null, a string without `%` (`"90"`), or
 *   not an integer percentage (`"90#"`, `"1.5%"`, `"%"`).
 */
export function scaledValueFromIntOrPercent(
  value: IntOrString | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (value === null || value === undefined) throw new KruiseError('nil value for IntOrString', value);
  const r = getIntOrPercentValueSafely(value);
  if (r.error !== undefined) {
    const msg = r.error.startsWith('invalid value')
      ? r.error
      : `invalid value ${describe(value)}: ${r.error}`;
    throw new KruiseError(msg, value);
  }
  return r.isPercent ? roundScaled(r.value, total, roundUp) : r.value;
}

/**
 * (b) Kubernetes' deprecated `GetValueFromIntOrPercent` (docs/reference/core.md §6.1 b), used by
 * CloneSet and Advanced StatefulSet: every `%` is removed and the rest is a Go base-10
 * integer taken as a percentage **even without `%`**.
 *
 * Example: `("25%", 10, true)` → ceil(2.5) = 3; `("5", 10, true)` → ceil(0.5) = 1 (5 %, not 5).
 *
 * @throws KruiseError naming the value when it is null or the digits do not parse (`"a"`, `"1.5%"`).
 */
export function legacyValueFromIntOrPercent(
  value: IntOrString | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (value === null || value === undefined) throw new KruiseError('nil value for IntOrString', value);
  if (typeof value === 'number') return intValue(value);
  if (typeof value !== 'string') throw new KruiseError(`invalid value ${describe(value)}`, value);
  const v = parseGoInt(value.replace(/%/g, ''));
  if (v === undefined) throw new KruiseError(`invalid value ${describe(value)}: not an integer`, value);
  return roundScaled(v, total, roundUp);
}

/**
 * The percentage of a Kruise float percent string, unscaled: `"99.99%"` → 99.99.
 * @throws KruiseError when the string does not end with `%` or the number is not Go float syntax.
 */
function parseKruisePercent(value: string): number {
  if (!value.endsWith('%')) {
    throw new KruiseError(`invalid value ${describe(value)}: string is not a percentage`, value);
  }
  const p = parseGoFloat(value.slice(0, -1));
  if (p === undefined) throw new KruiseError(`invalid value ${describe(value)}: not a number`, value);
  return p;
}

/**
 * Kruise's `ParsePercentageAsFloat64`: `"50%"` → 0.5, `"0%"` → 0.
 * @throws KruiseError for a string without `%` (`"100"`) or a malformed number.
 */
export function parsePercentageAsFloat64(value: string): number {
  return parseKruisePercent(value) / 100;
}

/**
 * (c) Kruise's `GetScaledValueFromIntOrPercent` (docs/reference/core.md §6.1 c): like (a) but the
 * percentage may be fractional (Go float syntax). Computed as `ceil/floor(p * total / 100)`,
 * multiplying first.
 *
 * Example: `("99.99%", 999, true)` → 99.99 × 999 = 99890.01, / 100 = 998.9001 → 999;
 * `("0.01%", 95, true)` → ceil(0.0095) = 1.
 *
 * @throws KruiseError naming the value for null, `"90"` (no `%`), `"90#"`, `""`.
 */
export function kruiseScaledValueFromIntOrPercent(
  value: IntOrString | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (value === null || value === undefined) throw new KruiseError('nil value for IntOrString', value);
  if (typeof value === 'number') return intValue(value);
  if (typeof value !== 'string') throw new KruiseError(`invalid value ${describe(value)}`, value);
  return roundScaled(parseKruisePercent(value), total, roundUp);
}

/**
 * CloneSet's partition (docs/reference/core.md §6.1, docs/reference/cloneset.md §5.2) without throwing: the
 * error of (c) gives value 0 plus the error message.
 *
 * Steps: null partition → 0; null replicas → 1; `p = kruiseScaled(partition, replicas, up)`;
 * if replicas > 1, p == replicas and the partition is a string other than `"100%"` → p =
 * replicas − 1; clamp to [0, replicas].
 *
 * Example: `("99%", 9)` → ceil(8.91) = 9 → corrected to 8; `("99.99%", 999)` → 999 → 998;
 * `(10, 3)` → clamped to 3; `("99", 9)` → `{ value: 0, error }`.
 */
export function tryCalculatePartitionReplicas(
  partition: IntOrString | null | undefined,
  replicas: number | null | undefined,
): { value: number; error?: string } {
  if (partition === null || partition === undefined) return { value: 0 };
  const r = replicas ?? 1;
  let p: number;
  try {
    p = kruiseScaledValueFromIntOrPercent(partition, r, true);
  } catch (e) {
    return { value: 0, error: (e as Error).message };
  }
  if (r > 1 && p === r && typeof partition === 'string' && partition !== '100%') p = r - 1;
  return { value: Math.min(Math.max(p, 0), r) };
}

/**
 * CloneSet's partition (docs/reference/core.md §6.1); see {@link tryCalculatePartitionReplicas}.
 *
 * Example: `calculatePartitionReplicas("1%", 10)` → ceil(0.1) = 1; `("100%", 99)` → 99.
 *
 * @throws KruiseError where (c) throws (e.g. `"99"`).
 */
export function calculatePartitionReplicas(
  partition: IntOrString | null | undefined,
  replicas: number | null | undefined,
): number {
  const r = tryCalculatePartitionReplicas(partition, replicas);
  if (r.error !== undefined) throw new KruiseError(r.error, partition);
  return r.value;
}

/**
 * Kubernetes' `intstr.Parse`: an int when the whole string is a base-10 int32
 * (`"0"`, `"-2147483648"`, `"+5"`), otherwise the string itself (`"-2147483649"`, `"20%"`).
 * Used e.g. for the annotation `apps.kruise.io/image-predownload-min-updated-ready-pods`.
 */
export function parseIntOrString(value: string): IntOrString {
  const v = parseGoInt(value, 32);
  return v === undefined ? value : v;
}
