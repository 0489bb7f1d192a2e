// docs/reference/core.md Appendix A: the RFC 6902 diff of appscode/jsonpatch v1.0.1.
import { describe, expect, it } from 'vitest';
import { KruiseError } from '../src/contract/errors';
import { compareStringsBytewise } from '../src/json/goJson';
import { createJsonPatch, escapeJsonPointer, isSimpleArray, jsonDiff } from '../src/json/jsonDiff';
import { applyJsonPatch } from './jsonPatchApply';

describe('Appendix A jsonDiff', () => {
  it('A.1: added keys → add, removed keys → remove, keys escaped (RFC 6901)', () => {
    expect(jsonDiff({ a: 1, 'x/y': 1 }, { b: 2, 'x/y': 1, 'm~n': 3 })).toEqual([
      { op: 'add', path: '/b', value: 2 },
      { op: 'add', path: '/m~0n', value: 3 },
      { op: 'remove', path: '/a' },
    ]);
    expect(escapeJsonPointer('a/b~c')).toBe('a~1b~0c');
  });

  it('A.2: null → value is add; type change is replace; value → null is replace', () => {
    expect(jsonDiff({ a: null }, { a: 1 })).toEqual([{ op: 'add', path: '/a', value: 1 }]);
    expect(jsonDiff({ a: 1 }, { a: '1' })).toEqual([{ op: 'replace', path: '/a', value: '1' }]);
    expect(jsonDiff({ a: 1 }, { a: null })).toEqual([{ op: 'replace', path: '/a', value: null }]);
    expect(jsonDiff({ a: null }, { a: null })).toEqual([]);
  });

  it('A.3: "simple" arrays — primitives, or a first flat object; not with arrays, nulls or nested objects', () => {
    expect(isSimpleArray(['a', 1, true])).toBe(true);
    expect(isSimpleArray([{ name: 'c1', image: 'x' }, { env: [] }])).toBe(true);
    expect(isSimpleArray([{ name: 'c1', env: [] }])).toBe(false);
    expect(isSimpleArray(['a', null])).toBe(false);
    expect(isSimpleArray([['a']])).toBe(false);
    expect(isSimpleArray([])).toBe(true);
  });

  it('A.4: simple arrays by edit distance: insertion in the middle is one add', () => {
    expect(jsonDiff({ l: ['a', 'c'] }, { l: ['a', 'b', 'c'] })).toEqual([
      { op: 'add', path: '/l/1', value: 'b' },
    ]);
    expect(jsonDiff({ l: ['a', 'b', 'c'] }, { l: ['a', 'c'] })).toEqual([{ op: 'remove', path: '/l/1' }]);
    expect(jsonDiff({ l: ['a', 'b'] }, { l: ['a', 'x'] })).toEqual([
      { op: 'replace', path: '/l/1', value: 'x' },
    ]);
  });

  it('A.4: substitution of flat objects is compared recursively (container image → replace of /image)', () => {
    expect(jsonDiff({ c: [{ name: 'c1', image: 'x' }] }, { c: [{ name: 'c1', image: 'y' }] })).toEqual([
      { op: 'replace', path: '/c/0/image', value: 'y' },
    ]);
  });

  it('A.2: non-simple arrays element-wise: removes from the end, then adds, then per-index', () => {
    const a = {
      c: [
        { n: 'a', e: [1] },
        { n: 'b', e: [1] },
        { n: 'c', e: [1] },
      ],
    };
    const b = { c: [{ n: 'a', e: [2] }] };
    expect(jsonDiff(a, b)).toEqual([
      { op: 'remove', path: '/c/2' },
      { op: 'remove', path: '/c/1' },
      { op: 'replace', path: '/c/0/e/0', value: 2 },
    ]);
    const grow = jsonDiff({ c: [{ e: [] }] }, { c: [{ e: [] }, { e: [1] }] });
    expect(grow).toEqual([{ op: 'add', path: '/c/1', value: { e: [1] } }]);
  });

  it('A.2 quirk: a null array element that becomes a value is an `add` (RFC 6902 inserts there)', () => {
    const a = { l: [{ x: [1] }, null] };
    const b = { l: [{ x: [1] }, 'v'] };
    expect(jsonDiff(a, b)).toEqual([{ op: 'add', path: '/l/1', value: 'v' }]);
    expect(applyJsonPatch(a, jsonDiff(a, b))).toEqual({ l: [{ x: [1] }, 'v', null] });
  });

  it('R1.2: createJsonPatch throws KruiseError for non-JSON or non-object documents', () => {
    expect(() => createJsonPatch('{', '{}')).toThrow(KruiseError);
    expect(() => createJsonPatch('[]', '{}')).toThrow(KruiseError);
    const ops = createJsonPatch('{"a":[1,2]}', '{"a":[2]}');
    expect(applyJsonPatch({ a: [1, 2] }, ops)).toEqual({ a: [2] });
  });

  it('byte-wise order (Go sort.Strings): "$" keys before letters, code points not UTF-16 units', () => {
    expect(['b', '$x', 'a', 'A'].sort(compareStringsBytewise)).toEqual(['$x', 'A', 'a', 'b']);
    expect(compareStringsBytewise('\u{1F600}', '\uFFFD')).toBe(1);
  });
});
