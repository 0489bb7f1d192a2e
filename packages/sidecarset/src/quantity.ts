// The canonical string form of a Kubernetes resource quantity (`Quantity.String()`),
// which Go writes whenever it re-serialises a container's resources — needed for the
// exact SidecarSet hash encoding (spec/sidecarset.md SS-2.4 "Resource quantities use
// Kubernetes canonical string form").
// TODO(core): move to packages/core/src/quantity.ts (it only needs tryParseQuantity).
import { tryParseQuantity } from '@kruise-ts/core';

const NANO = 1_000_000_000n;
const DECIMAL_SUFFIX: Record<number, string> = {
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
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

function formatOf(text: string): Format {
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
 * text is not a quantity. The suffix family of the input is kept (decimal SI, binary SI or
 * exponent), trailing zeros move into the suffix, and binary values that are not whole
 * multiples (or are below 1024) fall back to decimal SI.
 *
 * Examples: `"0.5"` → `"500m"`; `"1000m"` → `"1"`; `"2000"` → `"2k"`; `"1536Mi"` → `"1536Mi"`;
 * `"1.5Gi"` → 1 610 612 736 = 1536 × 1024² → `"1536Mi"`; `"1e3"` → `"1e3"`; `"512"` as
 * binary (`"0.5Ki"`) → `"512"`; `0` → `"0"`.
 */
export function canonicalQuantity(input: unknown): string | undefined {
  const nanos = tryParseQuantity(input);
  if (nanos === undefined) return undefined;
  if (nanos === 0n) return '0';
  const text = typeof input === 'number' ? String(input) : String(input);
  let format = formatOf(text);
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const sign = neg ? '-' : '';
  if (format === 'BinarySI') {
    if (abs < 1024n * NANO || abs % NANO !== 0n) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let units = abs / NANO;
    let power = 0;
    while (power < 6 && units % 1024n === 0n) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${BINARY_SUFFIX[power]}`;
  }
  const { mantissa, exponent } = decimalCanonical(abs);
  if (format === 'DecimalSI' && exponent in DECIMAL_SUFFIX) {
    return `${sign}${mantissa}${DECIMAL_SUFFIX[exponent]}`;
  }
  return exponent === 0 ? `${sign}${mantissa}` : `${sign}${mantissa}e${exponent}`;
}
