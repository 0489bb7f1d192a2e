import { createRng, deterministicUid, generateName, randomSuffix } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';

describe('seeded PRNG', () => {
  it('same seed → same sequence; different seeds → different sequences', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const sa = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(sa);
    expect([c.next(), c.next(), c.next()]).not.toEqual(sa);
  });
  it('int(0) is 0', () => {
    expect(createRng(1).int(0)).toBe(0);
  });
  it('spreads roughly uniformly over the alphabet', () => {
    const r = createRng(7);
    const counts = new Map<string, number>();
    const s = r.string(27_000);
    for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(27);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });
});

describe('names', () => {
  it('randomSuffix: 5 characters by default, so pod names look like sample-x7k2p', () => {
    const name = `sample-${randomSuffix(createRng(1))}`;
    expect(name).toMatch(/^sample-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
  it('generateName: prefix + 5 characters, prefix cut to 58', () => {
    expect(generateName('web-', createRng(3))).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const long = generateName('x'.repeat(80), createRng(3));
    expect(long).toHaveLength(63);
    expect(generateName('web-', createRng(3))).toBe(generateName('web-', createRng(3)));
  });
});

describe('deterministicUid', () => {
  it('UUID-shaped (version 4 layout) and deterministic', () => {
    const u = deterministicUid(7, 0);
    expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicUid(7, 0)).toBe(u);
    expect(deterministicUid(8, 0)).not.toBe(u);
  });
  it('distinct counters never collide for one seed', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(deterministicUid(1, i));
    expect(seen.size).toBe(20_000);
  });
});
