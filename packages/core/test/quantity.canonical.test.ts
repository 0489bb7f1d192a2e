// canonicalQuantity: Go's `resource.Quantity.String()` (the canonical form quantities take when
// Go re-serialises them; docs/reference/sidecarset.md SS-2.4, docs/reference/core.md Appendix C.1).
import { canonicalQuantity, tryParseQuantity } from '@kruise-ts/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('canonicalQuantity worked examples', () => {
  it.each([
    ['0.5', '500m', 'decimal: 5 × 10^-1 → 500 × 10^-3'],
    ['1000m', '1', 'trailing zeros move into the suffix: 1 × 10^0'],
    ['100m', '100m', 'already canonical'],
    ['2000', '2k', '2 × 10^3'],
    ['1500', '1500', '15 × 10^2 → 1500 × 10^0 (exponent a multiple of 3)'],
    ['1Gi', '1Gi', 'binary kept'],
    ['1024Mi', '1Gi', '1024 Mi = 1 Gi'],
    ['1.5Gi', '1536Mi', '1 610 612 736 = 1536 × 1024²'],
    ['0.5Ki', '512', 'binary below 1024 falls back to decimal'],
    ['1e3', '1e3', 'the exponent form is kept'],
    ['12e2', '1200', 'exponent form with exponent 0 after normalising: no "e0"'],
    ['1e-3', '1e-3', 'negative exponent'],
    ['-1.5Gi', '-1536Mi', 'the sign is kept'],
    ['0.1n', '1n', 'below one nano-unit rounds up'],
    ['0', '0', 'zero'],
    ['0Gi', '0', 'zero in any family'],
  ])('%s → %s (%s)', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });

  it('a JSON number is read as its decimal text: 0.5 → 500m, 2 → 2', () => {
    expect(canonicalQuantity(0.5)).toBe('500m');
    expect(canonicalQuantity(2)).toBe('2');
  });

  it('not a quantity → undefined (never throws)', () => {
    for (const bad of ['', 'abc', '1x', '1.2.3', null, undefined, {}, Number.NaN]) {
      expect(canonicalQuantity(bad)).toBeUndefined();
    }
  });
});

/** Quantity texts across the three suffix families. */
const quantityText = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.bigInt({ min: 0n, max: 10n ** 12n }),
    fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: undefined }),
    fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'Ti', 'e3', 'e-2', 'E6'),
  )
  .map(([sign, int, frac, suffix]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}${suffix}`);

describe('canonicalQuantity properties', () => {
  it('keeps the value: the canonical text parses to the same nano-units', () => {
    fc.assert(
      fc.property(quantityText, (q) => {
        const c = canonicalQuantity(q);
        expect(c).toBeDefined();
        expect(tryParseQuantity(c)).toBe(tryParseQuantity(q));
      }),
    );
  });

  it('is idempotent: the canonical text is its own canonical form', () => {
    fc.assert(
      fc.property(quantityText, (q) => {
        const c = canonicalQuantity(q);
        expect(canonicalQuantity(c)).toBe(c);
      }),
    );
  });
});
