// extend (objects.ts) is the spread it replaces: same own keys, same order, same values, for any
// plain JSON objects — an own `__proto__` key and `undefined` values included — and it never
// touches its inputs. Whether copies share V8 hidden classes is a property of the engine, measured
// in the file header, not tested here.
import { extend } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const key = fc.oneof(fc.constantFrom('a', 'b', 'labels', '__proto__', 'constructor', '0', '10'), fc.string());
const value = fc.oneof(fc.integer(), fc.string(), fc.constant(undefined), fc.constant(null), fc.object());
/** Objects as JSON.parse makes them: every key (even `__proto__`) an own data property. */
const plain = fc
  .array(fc.tuple(key, value), { maxLength: 8 })
  .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as Record<string, unknown>);
const withUndefined = fc.tuple(plain, fc.array(key, { maxLength: 3 })).map(([o, ks]) => {
  const c: Record<string, unknown> = { ...o };
  for (const k of ks)
    Object.defineProperty(c, k, { value: undefined, enumerable: true, writable: true, configurable: true });
  return c;
});

function entries(o: object): [string, unknown][] {
  return Object.keys(o).map((k) => [k, (o as Record<string, unknown>)[k]]);
}

describe('extend', () => {
  it('equals { ...base, ...extra }: keys, order, values and prototype', () => {
    fc.assert(
      fc.property(
        fc.option(withUndefined, { nil: undefined }),
        fc.option(withUndefined, { nil: undefined }),
        (a, b) => {
          if (a) deepFreeze(a);
          if (b) deepFreeze(b);
          const got = extend(a, b);
          const want = { ...a, ...b };
          expect(entries(got)).toEqual(entries(want));
          expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
          expect(got).not.toBe(a);
        },
      ),
      { seed: 20261130, numRuns: 500 },
    );
  });

  it('keeps a key the base has in its place and appends a new one', () => {
    const spec = { containers: [], nodeName: 'old', dnsPolicy: 'ClusterFirst' };
    expect(Object.keys(extend(spec, { nodeName: 'n1' }))).toEqual(['containers', 'nodeName', 'dnsPolicy']);
    expect(Object.keys(extend({ a: 1 }, { nodeName: 'n1' }))).toEqual(['a', 'nodeName']);
    expect(extend(undefined, { x: 1 })).toEqual({ x: 1 });
    expect(extend(null)).toEqual({});
  });

  it('defines an own __proto__ key as data, never as the prototype', () => {
    const evil = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const got = extend({ b: 2 }, evil) as Record<string, unknown>;
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.hasOwn(got, '__proto__')).toBe(true);
    expect(got.polluted).toBeUndefined();
  });
});
