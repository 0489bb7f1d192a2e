// The per-reconcile burst (src/burst.ts): the option's reading and the counter controllers spend.
import { describe, expect, it } from 'vitest';
import { Burst, DEFAULT_BURST_REPLICAS, REQUEUE_NOW, resolveBurstReplicas } from '../src/index';

describe('burst', () => {
  it('reads the option: positive numbers rounded down (at least 1), Infinity kept, else 500', () => {
    expect(DEFAULT_BURST_REPLICAS).toBe(500);
    expect(REQUEUE_NOW).toBe(0);
    expect([undefined, 0, -3, Number.NaN, '9', null, {}].map(resolveBurstReplicas)).toEqual(
      new Array(7).fill(500),
    );
    expect([20, 2.7, 0.5, Number.POSITIVE_INFINITY].map(resolveBurstReplicas)).toEqual([
      20,
      2,
      1,
      Number.POSITIVE_INFINITY,
    ]);
  });

  it('spends units one by one or in a batch, and says when one was refused', () => {
    const b = new Burst(3);
    expect(b.take()).toBe(true);
    expect(b.takeUpTo(1)).toBe(1);
    expect(b.limited).toBe(false);
    expect(b.takeUpTo(5)).toBe(1);
    expect(b.limited).toBe(true);
    expect(b.remaining).toBe(0);
    expect(b.take()).toBe(false);
    expect(new Burst(Number.POSITIVE_INFINITY).takeUpTo(2147483647)).toBe(2147483647);
  });
});
