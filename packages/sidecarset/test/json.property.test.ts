// The fast Go-JSON helpers of src/json.ts agree with core's reference implementations
// (the string order moved to core: packages/core/test/compareStringsBytewise.property.test.ts).
import { goJsonStringify, toRFC3339 } from '@kruise-ts/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTime, jsonString, jsonStringMap } from '../src/json';

describe('json fast paths', () => {
  it('jsonString / jsonStringMap write what goJsonStringify writes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.dictionary(fc.string(), fc.string()), (s, m) => {
        expect(jsonString(s)).toBe(goJsonStringify(s));
        expect(jsonStringMap(m)).toBe(goJsonStringify(m));
      }),
    );
  });

  it('canonicalTime equals toRFC3339 for valid times and rejects invalid ones', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (d) => {
          const s = d.toISOString().replace(/\.\d{3}Z$/, 'Z');
          expect(canonicalTime(s)).toBe(toRFC3339(s));
          expect(canonicalTime(d)).toBe(toRFC3339(d));
        },
      ),
    );
    expect(canonicalTime('2025-01-01T08:00:00.5+08:00')).toBe('2025-01-01T00:00:00Z');
    expect(canonicalTime('yesterday')).toBeUndefined();
  });
});
