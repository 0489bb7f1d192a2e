// Kubernetes resource quantities (docs/reference/core.md Appendix C.1): parsing "1Gi", "500m", "1e3"
// into an exact value so that equivalent spellings compare equal ("1Gi" == "1024Mi",
// "0.5" == "500m"), and their canonical spelling (Go's `Quantity.String()`, which SidecarSet's
// hash encoding needs: docs/reference/sidecarset.md SS-2.4). Used by R1.11 (vertical scaling),
// Appendix C.2 (QoS) and R2.6.4.
import { KruiseError } from '../contract/errors';

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

// ---- Canonical spelling (`resource.Quantity.String()`) -------------------------------------

/** The decimal SI suffix of each power of ten that has one. */
const DECIMAL_SUFFIX_OF: Readonly<Record<number, string>> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
/** The binary SI suffix of each power of 1024. */
const BINARY_SUFFIX_OF: readonly string[] = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** The suffix family of a quantity's text (Go keeps it when re-serialising). */
function quantityFormatOf(text: string): QuantityFormat {
  if (/(Ki|Mi|Gi|Ti|Pi|Ei)$/.test(text)) return 'BinarySI';
  if (/[0-9.][eE][+-]?[0-9]+$/.test(text)) return 'DecimalExponent';
  return 'DecimalSI';
}

/** Decimal mantissa and an exponent that is a multiple of 3 (Go's `AsCanonicalBytes`). */
function decimalCanonical(nanos: bigint): { mantissa: bigint; exponent: number } {
  let mantissa = nanos;
  let exponent = -9;
  while (mantissa !== 0n && mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const r = exponent % 3;
  if (r === 1 || r === -2) {
    mantissa *= 10n;
    exponent -= 1;
  } else if (r === 2 || r === -1) {
    mantissa *= 100n;
    exponent -= 2;
  }
  return { mantissa, exponent };
}

/**
 * `resource.Quantity.String()`: the canonical spelling of a quantity, or `undefined` when the
 * input is not a quantity ({@link tryParseQuantity}). The suffix family of the input is kept
 * (decimal SI, binary SI or exponent); trailing zeros move into the suffix (the exponent becomes
 * a multiple of 3); a binary value that is below 1024 or not a whole number of units falls back
 * to decimal SI; a decimal exponent without a suffix letter is written as `e<exp>`.
 *
 * Worked examples: `"0.5"` = 500 × 10^-3 → `"500m"`; `"1000m"` = 1 × 10^0 → `"1"`;
 * `"2000"` = 2 × 10^3 → `"2k"`; `"1.5Gi"` = 1 610 612 736 = 1536 × 1024² → `"1536Mi"`;
 * `"0.5Ki"` = 512 (< 1024) → decimal `"512"`; `"1e3"` stays `"1e3"`; `"12e2"` = 1.2 × 10^3 →
 * `"1200"` (mantissa 1200, exponent 0); `0` → `"0"`.
 */
export function canonicalQuantity(input: unknown): string | undefined {
  const nanos = tryParseQuantity(input);
  if (nanos === undefined) return undefined;
  if (nanos === 0n) return '0';
  let format = quantityFormatOf(String(input));
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const sign = neg ? '-' : '';
  if (format === 'BinarySI' && (abs < 1024n * NANO || abs % NANO !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    let units = abs / NANO;
    let power = 0;
    while (power < 6 && units % 1024n === 0n) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${BINARY_SUFFIX_OF[power]}`;
  }
  const { mantissa, exponent } = decimalCanonical(abs);
  if (format === 'DecimalSI' && exponent in DECIMAL_SUFFIX_OF) {
    return `${sign}${mantissa}${DECIMAL_SUFFIX_OF[exponent]}`;
  }
  return exponent === 0 ? `${sign}${mantissa}` : `${sign}${mantissa}e${exponent}`;
}
