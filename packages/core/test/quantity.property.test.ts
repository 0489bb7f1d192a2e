// Property: quantity equality is an equivalence over equivalent spellings (Appendix C.1).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantityEquals, tryParseQuantity } from '../src/kube/quantity';

/** Several spellings of the same integer number of milli-units. */
function spellings(milli: bigint): string[] {
  const sign = milli < 0n ? '-' : '';
  const m = milli < 0n ? -milli : milli;
  const whole = m / 1000n;
  const frac = (m % 1000n).toString().padStart(3, '0');
  const out = [
    `${sign}${m}m`,
    `${sign}${whole}.${frac}`,
    `${sign}${m}e-3`,
    `${sign}${m * 1000n}u`,
    `${sign}${m * 1_000_000n}n`,
  ];
  if (m % 1000n === 0n) out.push(`${sign}${whole}`, `${sign}${whole}e0`, `${sign}${whole}.`);
  if (m % 1_000_000n === 0n) out.push(`${sign}${m / 1_000_000n}k`);
  if (m % 1024_000n === 0n) out.push(`${sign}${m / 1024_000n}Ki`);
  return out;
}

describe('quantity equality (property)', () => {
  it('equivalent spellings are equal; different values are not', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (milli, delta) => {
          const same = spellings(milli);
          for (const a of same) for (const b of same) expect(quantityEquals(a, b)).toBe(true);
          for (const b of spellings(milli + delta)) expect(quantityEquals(same[0]!, b)).toBe(false);
        },
      ),
    );
  });

  it('an equivalence relation: reflexive, symmetric, transitive', () => {
    const quantity = fc
      .tuple(
        fc.constantFrom('', '-', '+'),
        fc.nat({ max: 5000 }),
        fc.constantFrom('', '.5', '.25', '.125'),
        fc.constantFrom('', 'm', 'k', 'M', 'Ki', 'Mi', 'e3', 'e-3', 'n', 'u'),
      )
      .map(([s, n, f, suf]) => `${s}${n}${f}${suf}`);
    fc.assert(
      fc.property(quantity, quantity, quantity, (a, b, c) => {
        expect(tryParseQuantity(a)).toBeDefined();
        expect(quantityEquals(a, a)).toBe(true);
        expect(quantityEquals(a, b)).toBe(quantityEquals(b, a));
        if (quantityEquals(a, b) && quantityEquals(b, c)) expect(quantityEquals(a, c)).toBe(true);
      }),
    );
  });
});
