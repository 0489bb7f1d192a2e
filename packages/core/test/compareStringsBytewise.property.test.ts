// compareStringsBytewise (Go's sort.Strings order): the fast charCodeAt walk agrees with the
// plain definition — compare the code point sequences — for any UTF-16 text, lone surrogates included.
import { compareStringsBytewise } from '@kruise-ts/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** The definition: code points in order (a lone surrogate is its own code point), shorter prefix first. */
function reference(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return Math.sign(x.length - y.length);
}

/** Units that make the surrogate branches matter: pair halves, lone ones, and BMP neighbours. */
const TRICKY = [
  'a',
  'z',
  '\uD83D',
  '\uDE00',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\uE000',
  '\uFFFF',
  '😀',
];
const tricky = fc.array(fc.constantFrom(...TRICKY), { maxLength: 6 }).map((u) => u.join(''));

describe('compareStringsBytewise', () => {
  it('agrees with the code point definition on any strings (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareStringsBytewise(a, b))).toBe(reference(a, b));
      }),
    );
  });

  it('agrees with the definition when a shared prefix ends inside a surrogate pair', () => {
    fc.assert(
      fc.property(tricky, tricky, tricky, (prefix, s, t) => {
        expect(Math.sign(compareStringsBytewise(prefix + s, prefix + t))).toBe(
          reference(prefix + s, prefix + t),
        );
      }),
    );
  });

  it('is a total order: antisymmetric, and 0 only for equal strings', () => {
    fc.assert(
      fc.property(tricky, tricky, (a, b) => {
        expect(Math.sign(compareStringsBytewise(a, b)) + Math.sign(compareStringsBytewise(b, a))).toBe(0);
        expect(compareStringsBytewise(a, b) === 0).toBe(a === b);
      }),
    );
  });
});

describe('compareStringsBytewise worked examples', () => {
  it("U+FFFF sorts before U+1F600 (UTF-16 '<' says the opposite: 0xFFFF > 0xD83D)", () => {
    expect(compareStringsBytewise('\uffff', '😀')).toBe(-1);
    expect('\uffff' < '😀').toBe(false);
  });
  it('a prefix sorts first: a < ab < b', () => {
    expect(['b', 'ab', 'a'].sort(compareStringsBytewise)).toEqual(['a', 'ab', 'b']);
  });
  it('a shared high surrogate: the pair U+1F600 (D83D DE00) sorts after the lone D83D followed by U+E000', () => {
    expect(compareStringsBytewise('\uD83D\uDE00', '\uD83D\uE000')).toBe(1);
    expect(compareStringsBytewise('\uD83D\uE000', '\uD83D\uDE00')).toBe(-1);
  });
  it('two lone high surrogates in common, then plain units compare as units', () => {
    expect(compareStringsBytewise('\uD800a', '\uD800b')).toBe(-1);
  });
});
