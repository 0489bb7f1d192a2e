import {
  calculatePartitionReplicas,
  kruiseScaledValueFromIntOrPercent,
  legacyValueFromIntOrPercent,
  scaledValueFromIntOrPercent,
} from '@kruise-ts/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const total = fc.integer({ min: 0, max: 100_000 });
const intPercent = fc.integer({ min: 0, max: 100 });
const floatPercentText = fc
  .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
  .map(([i, f]) => `${i}.${String(f).padStart(2, '0')}%`)
  .chain((s) => fc.constantFrom(s, '100%', '0%'));

const helpers = [
  ['scaled (a)', scaledValueFromIntOrPercent],
  ['legacy (b)', legacyValueFromIntOrPercent],
  ['kruise (c)', kruiseScaledValueFromIntOrPercent],
] as const;

describe('§6.1 properties', () => {
  for (const [name, fn] of helpers) {
    it(`${name}: a percentage in [0, 100] scales into [0, total], up >= down`, () => {
      fc.assert(
        fc.property(intPercent, total, (p, t) => {
          const up = fn(`${p}%`, t, true);
          const down = fn(`${p}%`, t, false);
          expect(up).toBeGreaterThanOrEqual(0);
          expect(up).toBeLessThanOrEqual(t);
          expect(down).toBeGreaterThanOrEqual(0);
          expect(down).toBeLessThanOrEqual(up);
          expect(up - down).toBeLessThanOrEqual(1);
        }),
      );
    });
    it(`${name}: monotone in total`, () => {
      fc.assert(
        fc.property(intPercent, total, total, fc.boolean(), (p, a, b, roundUp) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(fn(`${p}%`, lo, roundUp)).toBeLessThanOrEqual(fn(`${p}%`, hi, roundUp));
        }),
      );
    });
  }

  it('kruise (c): fractional percentages in [0, 100] stay within [0, total] and are monotone', () => {
    fc.assert(
      fc.property(floatPercentText, total, total, (p, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const vLo = kruiseScaledValueFromIntOrPercent(p, lo, true);
        const vHi = kruiseScaledValueFromIntOrPercent(p, hi, true);
        expect(vLo).toBeGreaterThanOrEqual(0);
        expect(vHi).toBeLessThanOrEqual(hi);
        expect(vLo).toBeLessThanOrEqual(vHi);
      }),
    );
  });

  it('partition stays within [0, replicas]; a string below 100% leaves at least one pod to update', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -10, max: 200 }),
          floatPercentText,
          intPercent.map((p) => `${p}%`),
        ),
        fc.integer({ min: 0, max: 5_000 }),
        (partition, replicas) => {
          const p = calculatePartitionReplicas(partition, replicas);
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(replicas);
          if (typeof partition === 'string' && partition !== '100%' && replicas > 1) {
            expect(p).toBeLessThan(replicas);
          }
        },
      ),
    );
  });
});
