// Property: applying jsonDiff(a, b) to a (RFC 6902, in order) yields b.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDiff } from '../src/json/jsonDiff';
import { applyJsonPatch } from './jsonPatchApply';

// Array elements are never null: Appendix A turns `null → value` into an `add`, which inside an
// array inserts instead of replacing (appscode's behaviour, see jsonDiff.test.ts); Kubernetes
// revision data has no null list elements.
const key = fc.stringMatching(/^[a-c~/]{1,3}$/);
const { json, element } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), tie('element')),
  element: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(true, false, 0, 1, 2),
    fc.constantFrom('x', 'y', 'z'),
    fc.array(tie('element'), { maxLength: 5 }),
    fc.array(fc.dictionary(key, fc.constantFrom('x', 'y', 1, null), { maxKeys: 3 }), { maxLength: 5 }),
    fc.dictionary(key, tie('json'), { maxKeys: 4 }),
  ),
}));

describe('jsonDiff (property)', () => {
  it('apply(a, jsonDiff(a, b)) deep-equals b for objects', () => {
    const obj = fc.dictionary(key, json, { maxKeys: 5 });
    fc.assert(
      fc.property(obj, obj, (a, b) => {
        expect(applyJsonPatch(a, jsonDiff(a, b))).toEqual(b);
      }),
    );
  });

  it('jsonDiff(a, a) is empty', () => {
    fc.assert(
      fc.property(element, (a) => {
        expect(jsonDiff(a, structuredClone(a))).toEqual([]);
      }),
    );
  });
});
