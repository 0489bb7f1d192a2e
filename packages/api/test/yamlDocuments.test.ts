// Reading user YAML (yamlDocuments.ts): aliases and nesting that the `yaml` package would throw
// on, or worse, come back as problems with a line; well-formed documents come back as values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_YAML_ALIAS_COUNT, MAX_YAML_DEPTH, readManifests, readYamlDocuments } from '../src/index';

/** A "billion laughs": each level is a list of nine aliases of the level before. */
function aliasBomb(levels: number): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const problemsOf = (text: string) => readYamlDocuments(text).documents.map((d) => d.problems);

describe('readYamlDocuments', () => {
  it('gives each document its index, first line and value; one with no content has the value null', () => {
    const r = readYamlDocuments('a: 1\n---\n# only a comment\n---\n\nb: [x, y]\n');
    expect(r.problem).toBeUndefined();
    expect(r.documents.map(({ index, line, value, problems }) => ({ index, line, value, problems }))).toEqual(
      [
        { index: 0, line: 1, value: { a: 1 }, problems: [] },
        { index: 1, line: 2, value: null, problems: [] },
        { index: 2, line: 6, value: { b: ['x', 'y'] }, problems: [] },
      ],
    );
    expect(readYamlDocuments('').documents).toEqual([]);
  });

  it('an alias naming no anchor is a problem at its line, not a ReferenceError', () => {
    expect(problemsOf('*NKG')).toEqual([
      [{ line: 1, message: 'malformed YAML: alias *NKG names no anchor &NKG defined before it' }],
    ]);
    expect(problemsOf('a: 1\n---\nb: 2\nc: *x\n')).toEqual([
      [],
      [{ line: 4, message: 'malformed YAML: alias *x names no anchor &x defined before it' }],
    ]);
  });

  it('an anchor in another document or after the alias does not count', () => {
    expect(problemsOf('a: &x 1\n---\nb: *x\n')[1]).toHaveLength(1);
    expect(problemsOf('b: *x\na: &x 1\n')[0]).toEqual([
      { line: 1, message: 'malformed YAML: alias *x names no anchor &x defined before it' },
    ]);
  });

  it('an alias inside the node its anchor marks (a value holding itself) is a problem', () => {
    for (const text of ['&a [*a]', 'x: &a {b: [1, *a]}']) {
      const [d] = readYamlDocuments(text).documents;
      expect(d.value).toBeUndefined();
      expect(d.problems).toEqual([
        {
          line: 1,
          message:
            'malformed YAML: alias *a is inside the node its anchor &a marks (a value that holds itself)',
        },
      ]);
    }
  });

  it('ordinary aliases resolve, to the latest anchor of that name', () => {
    const [d] = readYamlDocuments('a: &x {k: 1}\nb: *x\nc: &x 2\nd: *x\n').documents;
    expect(d.problems).toEqual([]);
    expect(d.value).toEqual({ a: { k: 1 }, b: { k: 1 }, c: 2, d: 2 });
    // The definition counts as one use of the anchor: 99 aliases of a plain value pass, 100 do not.
    const uses = (n: number) => `v: &v 1\nl: [${Array(n).fill('*v').join(', ')}]\n`;
    expect(readYamlDocuments(uses(MAX_YAML_ALIAS_COUNT - 1)).documents[0].problems).toEqual([]);
    expect(readYamlDocuments(uses(MAX_YAML_ALIAS_COUNT)).documents[0].problems).toHaveLength(1);
  });

  it('a billion-laughs document stops at the alias limit', () => {
    const [d] = readYamlDocuments(aliasBomb(9)).documents;
    expect(d.value).toBeUndefined();
    expect(d.problems).toEqual([
      {
        line: 1,
        message: `malformed YAML: aliases expand past the limit of ${MAX_YAML_ALIAS_COUNT} (write the repeated values out instead)`,
      },
    ]);
  });

  it('refuses text nested deeper than the limit before composing it, naming the document', () => {
    const ok = `${'- '.repeat(MAX_YAML_DEPTH - 1)}x\n`;
    expect(readYamlDocuments(ok).documents[0].problems).toEqual([]);
    const deep = `a: 1\n---\nb: 2\n---\n${'['.repeat(MAX_YAML_DEPTH + 1)}${']'.repeat(MAX_YAML_DEPTH + 1)}\n`;
    const r = readYamlDocuments(deep);
    expect(r.documents).toEqual([]);
    expect(r.problem).toEqual({
      document: 2,
      line: 5,
      message: `malformed YAML: nested deeper than ${MAX_YAML_DEPTH} levels`,
    });
  });

  it('survives reading a 3,000-level document twice (composing it would overflow the stack)', () => {
    // The second parse of such a text has aborted the whole process with a fatal out-of-memory
    // error in V8's regular-expression compiler; the depth check keeps the composer out of it.
    const text = `${'- '.repeat(3000)}x\n`;
    for (let i = 0; i < 3; i++)
      expect(readYamlDocuments(text).problem?.message).toBe(
        `malformed YAML: nested deeper than ${MAX_YAML_DEPTH} levels`,
      );
  });

  it('refuses a value whose aliases stack their depths past the limit', () => {
    const half = Math.ceil(MAX_YAML_DEPTH / 2) + 1;
    const text = `a: &a ${'['.repeat(half)}1${']'.repeat(half)}\nb: ${'['.repeat(half)}*a${']'.repeat(half)}\n`;
    expect(problemsOf(text)).toEqual([
      [
        {
          line: 1,
          message: `malformed YAML: nested deeper than ${MAX_YAML_DEPTH} levels once aliases are expanded`,
        },
      ],
    ]);
  });

  it('reports a syntax error once per line, with the line', () => {
    expect(problemsOf('a: 1\nb: [[[[\n')).toEqual([
      [
        {
          line: 3,
          message:
            'malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
        },
      ],
    ]);
  });

  it('answers text that is not a string with a problem', () => {
    expect(readYamlDocuments(42 as unknown as string).problem).toEqual({
      line: 1,
      message: 'the YAML text is not a string',
    });
  });

  it('never throws, and every value it returns is a tree JSON can write', () => {
    const yamlish = fc.string({
      unit: fc.constantFrom(
        '*',
        '&',
        'a',
        'b',
        ' ',
        '\n',
        '-',
        ':',
        '[',
        ']',
        '{',
        '}',
        ',',
        '?',
        '!',
        '|',
        '"',
        '#',
        '---\n',
      ),
      maxLength: 80,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), yamlish), (text) => {
        const r = readYamlDocuments(text);
        for (const d of r.documents)
          if (d.value !== undefined) expect(() => JSON.stringify(d.value)).not.toThrow();
        expect(Array.isArray(readManifests(text).errors)).toBe(true);
      }),
    );
  });
});
