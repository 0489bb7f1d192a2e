// docs/reference/core.md Appendix C.1: Kubernetes quantities compare by value.
import { describe, expect, it } from 'vitest';
import { KruiseError } from '../src/contract/errors';
import {
  addQuantities,
  compareQuantities,
  isValidQuantity,
  parseQuantity,
  quantityEquals,
  quantityToMilli,
  quantityToNumber,
  tryParseQuantity,
} from '../src/kube/quantity';

describe('C.1 quantities', () => {
  it('C.1: "1Gi" == "1024Mi" and "0.5" == "500m"', () => {
    expect(quantityEquals('1Gi', '1024Mi')).toBe(true);
    expect(quantityEquals('0.5', '500m')).toBe(true);
    expect(quantityEquals('1Gi', '1G')).toBe(false);
  });

  it('C.1: decimal suffixes n u m k M G T P E are powers of 10', () => {
    const units: Array<[string, bigint]> = [
      ['1n', 1n],
      ['1u', 1_000n],
      ['1m', 1_000_000n],
      ['1', 1_000_000_000n],
      ['1k', 10n ** 12n],
      ['1M', 10n ** 15n],
      ['1G', 10n ** 18n],
      ['1T', 10n ** 21n],
      ['1P', 10n ** 24n],
      ['1E', 10n ** 27n],
    ];
    for (const [s, nanos] of units) expect(parseQuantity(s)).toBe(nanos);
  });

  it('C.1: binary suffixes Ki..Ei are powers of 1024', () => {
    expect(parseQuantity('1Ki')).toBe(1024n * 10n ** 9n);
    expect(parseQuantity('1Ei')).toBe(1024n ** 6n * 10n ** 9n);
    expect(quantityEquals('1.5Gi', '1536Mi')).toBe(true);
  });

  it('C.1: exponents e<int> / E<int>, with sign, and signed numbers', () => {
    expect(quantityEquals('1e3', '1k')).toBe(true);
    expect(quantityEquals('12E-3', '12m')).toBe(true);
    expect(quantityEquals('+2', '2')).toBe(true);
    expect(parseQuantity('-1.5')).toBe(-1_500_000_000n);
    expect(quantityEquals('.5', '5.e-1')).toBe(true);
  });

  it('C.1: anything else is invalid (R1.11 step 5)', () => {
    for (const bad of [
      '',
      'abc',
      '1Ki1',
      '1.2.3',
      '1e',
      '1 Gi',
      'Gi',
      '.',
      '-',
      '1KB',
      'not-a-quantity',
      '1e1.5',
      '0x10',
    ]) {
      expect(isValidQuantity(bad)).toBe(false);
    }
    expect(tryParseQuantity(null)).toBeUndefined();
    expect(() => parseQuantity('abc')).toThrow(KruiseError);
  });

  it('C.1 (Kubernetes value rules): values below 1n round up to 1n; magnitudes cap at 2^63-1 units', () => {
    expect(quantityEquals('0.1n', '1n')).toBe(true);
    expect(quantityEquals('1e-30', '1n')).toBe(true);
    expect(quantityEquals('-0.1n', '-1n')).toBe(true);
    expect(quantityEquals('1e30', '1e40')).toBe(true);
    expect(quantityEquals('0', '0e1000')).toBe(true);
  });

  it('compare, sums, milli-units and numbers', () => {
    expect(compareQuantities('1Gi', '1000Mi')).toBe(1);
    expect(compareQuantities('100m', '0.1')).toBe(0);
    expect(compareQuantities('1', '2')).toBe(-1);
    expect(addQuantities('500m', '0.5', '1')).toBe(parseQuantity('2'));
    expect(quantityToMilli('0.1m')).toBe(1n);
    expect(quantityToMilli('2')).toBe(2000n);
    expect(quantityToMilli('-0.1m')).toBe(-1n);
    expect(quantityToNumber('1.5k')).toBe(1500);
    expect(quantityEquals(2, '2')).toBe(true);
  });
});
