import { createRng } from '@kruise-ts/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('seeded PRNG properties', () => {
  it('next() in [0, 1), int(n) in [0, n), string(n) from the Kubernetes alphabet', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const r = createRng(seed);
        const x = r.next();
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThan(1);
        const i = r.int(n);
        expect(Number.isInteger(i) && i >= 0 && i < n).toBe(true);
        expect(r.string(8)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{8}$/);
      }),
    );
  });
});
