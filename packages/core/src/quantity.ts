// Kubernetes resource quantities (spec/core.md Appendix C.1): parsing "1Gi", "500m", "1e3"
// into an exact value so that equivalent spellings compare equal ("1Gi" == "1024Mi",
// "0.5" == "500m"). Used by R1.11 (vertical scaling), Appendix C.2 (QoS) and R2.6.4.
import { KruiseError } from './errors';

/**
 * The exact value of a quantity, in **nano-units** (1e-9 of the unit), as a BigInt.
 *
 * Kubernetes stores every quantity with at most nano precision (a non-zero value finer than
 * 1n is rounded up, away from zero, to the next nano-unit) and caps magnitudes at
 * 2^63-1 units. Both rules are kept, so `1n` is the smallest positive value and
 * `"0.1n"` equals `"1n"`.
 */
export type QuantityValue = bigint;

const NANO = 1_000_000_000n;
/** The largest magnitude Kubernetes keeps: 2^63-1 units, in nano-units. */
const MAX_NANOS = (2n ** 63n - 1n) * NANO;
const MAX_INT64 = 2n ** 63n - 1n;

/** Decimal SI suffixes and their powers of ten (C.1). */
const DECIMAL_SUFFIXES: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
/** Binary SI suffixes and their powers of 1024 (C.1). */
const BINARY_SUFFIXES: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };

const QUANTITY_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;

/**
 * Parses a Kubernetes quantity into its exact value in nano-units; returns `undefined`
 * when the text is not a quantity.
 *
 * Grammar (C.1): optional sign, a decimal number (`1`, `1.5`, `.5`, `5.`), then an optional
 * suffix: `n u m k M G T P E` (powers of 10), `Ki Mi Gi Ti Pi Ei` (powers of 1024) or an
 * exponent `e<int>` / `E<int>`. A JSON number is accepted as its decimal text.
 *
 * Worked example: `"1.5Gi"` = 15 × 10^-1 × 1024^3 = 1 610 612 736 units
 * = 1 610 612 736 000 000 000n nano-units; `"1536Mi"` gives the same value.
 */
export function tryParseQuantity(input: unknown): QuantityValue | undefined {
  let s: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    s = String(input);
  } else if (typeof input === 'string') {
    s = input;
  } else {
    return undefined;
  }
  const m = QUANTITY_RE.exec(s);
  if (!m) return undefined;
  const [, sign, intPart, fracPart, suffix] = m as unknown as [
    string,
    string,
    string,
    string | undefined,
    string,
  ];
  const frac = fracPart ?? '';
  if (intPart.length === 0 && frac.length === 0) return undefined; // no digits at all
  let exp10 = BigInt(-frac.length);
  let binaryPower = 0;
  if (suffix in DECIMAL_SUFFIXES) {
    exp10 += BigInt(DECIMAL_SUFFIXES[suffix]!);
  } else if (suffix in BINARY_SUFFIXES) {
    binaryPower = BINARY_SUFFIXES[suffix]!;
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    const e = BigInt(suffix.slice(1));
    if (e > MAX_INT64 || e < -MAX_INT64 - 1n) return undefined;
    exp10 += e;
  } else {
    return undefined;
  }
  let mantissa = BigInt(intPart + frac || '0');
  if (mantissa === 0n) return 0n;
  mantissa *= 1024n ** BigInt(binaryPower);
  const negative = sign === '-';
  // nanos = mantissa × 10^(exp10 + 9), rounded up (away from zero) and capped.
  const t = exp10 + 9n;
  let nanos: bigint;
  if (t >= 0n) {
    nanos = t > 40n ? MAX_NANOS : mantissa * 10n ** t;
  } else {
    const digits = BigInt(mantissa.toString().length);
    if (-t > digits) {
      nanos = 1n; // smaller than one nano-unit: rounds up to 1n
    } else {
      const div = 10n ** -t;
      nanos = (mantissa + div - 1n) / div;
    }
  }
  if (nanos > MAX_NANOS) nanos = MAX_NANOS;
  return negative ? -nanos : nanos;
}

/**
 * Parses a quantity (see {@link tryParseQuantity}); **throws** a `KruiseError` naming the
 * value when it is not a quantity. Example: `parseQuantity("500m") === 500_000_000n`.
 */
export function parseQuantity(input: unknown): QuantityValue {
  const v = tryParseQuantity(input);
  if (v === undefined)
    throw new KruiseError(
      `invalid quantity ${JSON.stringify(input)}: expected [+-]<number>[n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|e<int>]`,
      input,
    );
  return v;
}

/** True when the text parses as a Kubernetes quantity (R1.11 step 5). */
export function isValidQuantity(input: unknown): boolean {
  return tryParseQuantity(input) !== undefined;
}

/**
 * Compares two quantities by value: negative when `a < b`, 0 when equal, positive when
 * `a > b`. **Throws** a `KruiseError` when either is not a quantity.
 * Example: `compareQuantities("1Gi", "1000Mi") > 0` (1 073 741 824 > 1 048 576 000).
 */
export function compareQuantities(a: unknown, b: unknown): number {
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * True when both are valid quantities with the same value (`"1Gi"` == `"1024Mi"`,
 * `"0.5"` == `"500m"`). Never throws: an invalid quantity equals nothing, except an
 * identical invalid string.
 */
export function quantityEquals(a: unknown, b: unknown): boolean {
  const x = tryParseQuantity(a);
  const y = tryParseQuantity(b);
  if (x === undefined || y === undefined) return x === undefined && y === undefined && a === b;
  return x === y;
}

/**
 * The value in milli-units rounded up (Kubernetes `MilliValue`). **Throws** on a malformed
 * quantity. Example: `quantityToMilli("0.1m") === 1n` (0.1 milli rounds up, away from zero), `("2") === 2000n`.
 */
export function quantityToMilli(input: unknown): bigint {
  const n = parseQuantity(input);
  const div = 1_000_000n;
  const magnitude = ((n < 0n ? -n : n) + div - 1n) / div;
  return n < 0n ? -magnitude : magnitude;
}

/** Approximate value in units as a JS number (for display and heuristics, not comparisons). */
export function quantityToNumber(input: unknown): number {
  const n = parseQuantity(input);
  return Number(n / NANO) + Number(n % NANO) / 1e9;
}

/** Sums quantities (values in nano-units). Throws on a malformed quantity. */
export function addQuantities(...values: unknown[]): QuantityValue {
  let sum = 0n;
  for (const v of values) sum += parseQuantity(v);
  return sum;
}
