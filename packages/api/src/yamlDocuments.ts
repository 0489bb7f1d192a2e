// Reading user YAML: multi-document text → one entry per document holding its value, or its
// problems as messages with a 1-based line. The manifest reader and the simulator's scenario
// parser both start here, so the two answer a bad file the same way. Never throws.
//
// Three shapes of YAML make the `yaml` package throw or worse rather than report, and each is
// caught here before it can:
// - an alias naming no anchor (`*NKG` alone) is a ReferenceError out of `toJS`, and an alias
//   inside the node its anchor marks (`&a [*a]`) builds a value that holds itself;
// - a "billion laughs" (nine aliases of nine aliases of ... a short list: a few hundred bytes
//   that stand for hundreds of millions of nodes) is stopped by `maxAliasCount`;
// - nesting: composing recurses once per level, so `- - - ... x` 1,000 levels deep overflows the
//   stack, and parsing it a second time in the same process has been seen to abort Node with a
//   fatal out-of-memory error. The depth is therefore measured on the parser's tokens (which need
//   no recursion) before anything is composed.
import { type Alias, Composer, type CST, type Document, isAlias, LineCounter, Parser, visit } from 'yaml';

/**
 * The `maxAliasCount` given to the `yaml` package: how far aliases may expand in one document
 * (the package counts an anchor's definition and each use of it, every one weighted by the
 * aliases the anchored node itself holds, so a nested "billion laughs" exceeds it within a few
 * levels). An anchor without aliases inside may be used 99 times.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

/**
 * The deepest nesting of collections a document may have, counted on the text and again on the
 * value with its aliases expanded. Kruise's own CRD manifests, the deepest objects in the
 * repository, nest 31 levels; the `yaml` package's composer overflows the stack near 1,000.
 */
export const MAX_YAML_DEPTH = 128;

/** A problem with YAML text: a message and its 1-based line. */
export interface YamlProblem {
  line: number;
  message: string;
}

/** One document of a YAML stream. */
export interface YamlDocument {
  /** 0-based index in the stream (empty documents count). */
  index: number;
  /** The parsed document, for positions of fields (`doc.getIn(path, true).range`). */
  doc: Document.Parsed;
  /** 1-based line where the document's content starts (where the document starts, if it has none). */
  line: number;
  /**
   * The document's value as plain JavaScript: `null` for a document with no content (`---`
   * followed by nothing, or only comments); undefined when the document has problems.
   */
  value?: unknown;
  /** Malformed YAML (every error the parser reports) or a value that cannot be built (one). */
  problems: YamlProblem[];
}

/** The documents of a YAML stream, and the line counter that maps offsets to lines. */
export interface YamlStream {
  documents: YamlDocument[];
  lineCounter: LineCounter;
  /**
   * Set when the text as a whole was refused (then `documents` is empty): not a string, or a
   * document nested too deep, named by its 0-based index.
   */
  problem?: YamlProblem & { document?: number };
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Parses multi-document YAML (JSON is YAML too) with unique keys, the alias limit and the depth
 * limit. Each document's problems are messages starting `malformed YAML:` (syntax, a duplicate
 * key, an alias naming no anchor before it or inside its own anchor, aliases expanding past
 * `MAX_YAML_ALIAS_COUNT`, a value nested deeper than `MAX_YAML_DEPTH`) or `cannot read YAML:`.
 *
 * Example: `readYamlDocuments('a: 1\n---\nb: *x\n')` gives document 0 with value `{a: 1}` and
 * document 1 with the problem `{line: 3, message: 'malformed YAML: alias *x names no anchor &x
 * defined before it'}`.
 */
export function readYamlDocuments(text: string): YamlStream {
  const lineCounter = new LineCounter();
  if (typeof text !== 'string')
    return { documents: [], lineCounter, problem: { line: 1, message: 'the YAML text is not a string' } };
  const lineOf = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;
  let parsed: Document.Parsed[];
  try {
    const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
    const deep = tooDeep(tokens);
    if (deep)
      return {
        documents: [],
        lineCounter,
        problem: {
          document: deep.document,
          line: lineOf(deep.offset) ?? 1,
          message: `malformed YAML: nested deeper than ${MAX_YAML_DEPTH} levels`,
        },
      };
    parsed = [...new Composer({ uniqueKeys: true }).compose(tokens)];
  } catch (e) {
    return {
      documents: [],
      lineCounter,
      problem: { line: 1, message: `cannot parse YAML: ${errorText(e)}` },
    };
  }
  const documents = parsed.map((doc, index): YamlDocument => {
    const contents = doc.contents as { range?: [number, number, number] } | null;
    const line = lineOf(contents?.range?.[0] ?? doc.range?.[0]) ?? 1;
    const entry = { index, doc, line };
    if (doc.errors.length > 0) {
      const problems: YamlProblem[] = [];
      for (const err of doc.errors) {
        const p = {
          line: lineOf(err.pos?.[0]) ?? line,
          message: `malformed YAML: ${err.message.split('\n')[0]}`,
        };
        // An unclosed `[[[[` reports the same error once per bracket; once per line is enough.
        const last = problems[problems.length - 1];
        if (!last || last.line !== p.line || last.message !== p.message) problems.push(p);
      }
      return { ...entry, problems };
    }
    if (doc.contents === null || doc.contents === undefined) return { ...entry, value: null, problems: [] };
    const bad = unresolvableAlias(doc);
    if (bad) {
      const { alias, circular } = bad;
      const message = circular
        ? `malformed YAML: alias *${alias.source} is inside the node its anchor &${alias.source} marks (a value that holds itself)`
        : `malformed YAML: alias *${alias.source} names no anchor &${alias.source} defined before it`;
      return { ...entry, problems: [{ line: lineOf(alias.range?.[0]) ?? line, message }] };
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
    } catch (e) {
      const message = /Excessive alias count/.test(errorText(e))
        ? `malformed YAML: aliases expand past the limit of ${MAX_YAML_ALIAS_COUNT} (write the repeated values out instead)`
        : `cannot read YAML: ${errorText(e)}`;
      return { ...entry, problems: [{ line, message }] };
    }
    // Aliases of aliases stack their anchors' depths: each level can be within the limit on the
    // text while the value is not.
    if (valueDepthExceeds(value, MAX_YAML_DEPTH))
      return {
        ...entry,
        problems: [
          {
            line,
            message: `malformed YAML: nested deeper than ${MAX_YAML_DEPTH} levels once aliases are expanded`,
          },
        ],
      };
    return { ...entry, value, problems: [] };
  });
  return { documents, lineCounter };
}

/**
 * The first collection nested deeper than `MAX_YAML_DEPTH` in the parser's tokens, with the index
 * of its document; a walk with an explicit stack, so the depth of the text costs no call stack.
 */
function tooDeep(tokens: readonly CST.Token[]): { document: number; offset: number } | undefined {
  let document = -1;
  for (const top of tokens) {
    if (top.type !== 'document') continue;
    document++;
    const stack: [CST.Token, number][] = top.value ? [[top.value, 0]] : [];
    while (stack.length > 0) {
      const [token, depth] = stack.pop() as [CST.Token, number];
      if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection')
        continue;
      if (depth + 1 > MAX_YAML_DEPTH) return { document, offset: token.offset };
      for (const item of token.items) {
        if (item.key) stack.push([item.key, depth + 1]);
        if (item.value) stack.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * True when a value's objects and arrays nest deeper than `max`. Aliases make the value a graph
 * that shares nodes, so each node's height is computed once (memoised by identity) in a
 * post-order walk with an explicit stack.
 */
function valueDepthExceeds(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const height = new Map<object, number>();
  const stack: [object, boolean][] = [[value, false]];
  while (stack.length > 0) {
    const [node, childrenDone] = stack.pop() as [object, boolean];
    if (height.has(node)) continue;
    const children = Object.values(node).filter((c): c is object => c !== null && typeof c === 'object');
    if (!childrenDone) {
      stack.push([node, true]);
      for (const c of children) if (!height.has(c)) stack.push([c, false]);
      continue;
    }
    let h = 1;
    for (const c of children) h = Math.max(h, 1 + (height.get(c) ?? 0));
    if (h > max) return true;
    height.set(node, h);
  }
  return false;
}

/**
 * The first alias that cannot be resolved into a tree: one whose anchor is not set earlier in the
 * document, or one inside the very node its anchor marks (`&a [*a]` would build a list that holds
 * itself, which no JSON can carry and every later walk of the value would loop on). Aliases
 * resolve in the order the `yaml` package uses (the last earlier node with that anchor); this is
 * one walk, where the package's own `Alias.resolve` walks the document once per alias.
 */
function unresolvableAlias(doc: Document.Parsed): { alias: Alias; circular: boolean } | undefined {
  const anchors = new Map<string, unknown>();
  let found: { alias: Alias; circular: boolean } | undefined;
  visit(doc, {
    Node: (_key, node, path) => {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target === undefined || path.includes(target as never)) {
          found = { alias: node, circular: target !== undefined };
          return visit.BREAK;
        }
      } else if (node.anchor) anchors.set(node.anchor, node);
      return undefined;
    },
  });
  return found;
}
