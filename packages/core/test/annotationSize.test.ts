// The annotation size limit (annotationSize.ts): bytes counted as kube-apiserver counts them and
// the error printed with Kubernetes' message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annotationsSize } from '../src/contract/annotationSize';
import { TOTAL_ANNOTATION_SIZE_LIMIT } from '../src/contract/validation';
import { formatFieldError, validateAnnotationsSize } from '../src/index';
import { deepFreeze } from '../src/testing';

describe('annotationsSize', () => {
  it('counts keys and values in UTF-8 bytes', () => {
    expect(annotationsSize({ a: 'xyz', é: '' })).toBe(6);
    expect(annotationsSize({ k: '€😀' })).toBe(1 + 3 + 4);
    expect(annotationsSize({})).toBe(0);
  });

  it('counts a lone surrogate as the 3 bytes of U+FFFD', () => {
    expect(annotationsSize({ k: '\ud800' })).toBe(4);
    expect(annotationsSize({ k: '\ud800x' })).toBe(5);
  });

  it('counts a value that is not a string as its JSON text, and anything but an object as 0', () => {
    expect(annotationsSize({ k: 12 })).toBe(3);
    expect(annotationsSize({ k: { a: 1 } })).toBe(1 + '{"a":1}'.length);
    expect(annotationsSize({ k: 10n })).toBe(1);
    for (const v of [null, undefined, 'abc', 7, ['a', 'b']]) expect(annotationsSize(v)).toBe(0);
  });

  it('agrees with TextEncoder on any string map', () => {
    const enc = new TextEncoder();
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (m) => {
        let bytes = 0;
        for (const [k, v] of Object.entries(m)) bytes += enc.encode(k).length + enc.encode(v).length;
        expect(annotationsSize(deepFreeze(m))).toBe(bytes);
      }),
    );
  });
});

describe('validateAnnotationsSize', () => {
  it('accepts exactly 262144 bytes and rejects one more, with the Kubernetes message', () => {
    const at = { k: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 1) };
    expect(validateAnnotationsSize(deepFreeze(at))).toEqual([]);
    const over = validateAnnotationsSize(deepFreeze({ k: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT) }));
    expect(over.map(formatFieldError)).toEqual([
      'metadata.annotations: Too long: must have at most 262144 bytes',
    ]);
  });

  it('names the field it is given', () => {
    const [e] = validateAnnotationsSize({ k: 'x'.repeat(300_000) }, 'items[1].metadata.annotations');
    expect(e).toEqual({
      type: 'FieldValueTooLong',
      field: 'items[1].metadata.annotations',
      detail: 'must have at most 262144 bytes',
    });
  });

  it('never throws on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(Array.isArray(validateAnnotationsSize(deepFreeze(v)))).toBe(true);
      }),
    );
  });
});
