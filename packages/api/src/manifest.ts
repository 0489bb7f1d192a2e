// The manifest reader: multi-document YAML (or JSON) text → Kubernetes objects, with
// an error per bad document naming its index, line and field. Never throws.
import { isMap, LineCounter, parseAllDocuments } from 'yaml';
import { builtinKinds, findKruiseKind, isBuiltinKind, isKruiseKind } from './kinds';
import type { KubeObject } from './meta';

/** A problem with one document of a manifest. */
export interface ManifestError {
  /** 0-based index of the document in the stream (empty documents count). */
  document: number;
  /** 1-based line where the problem is (the document start when no better position is known). */
  line?: number;
  /** The offending field, e.g. `kind`, `metadata.name`, `items[2].apiVersion`. */
  field?: string;
  message: string;
}

/** The result of `readManifests`: the good objects in order, and one error per bad document/item. */
export interface ManifestReadResult {
  objects: KubeObject[];
  errors: ManifestError[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Options of `readManifests`. */
export interface ReadManifestsOptions {
  /**
   * Accepts further kinds besides the Kruise kinds and the Kubernetes built-ins, e.g. the
   * simulator's `sim.kruise-ts.io/v1alpha1` `Scenario`.
   */
  acceptKind?: (apiVersion: string, kind: string) => boolean;
}

/** Checks one object; returns the error (without document/line) or undefined when it is fine. */
function checkObject(
  value: unknown,
  prefix: string,
  opts: ReadManifestsOptions | undefined,
): { field?: string; message: string } | undefined {
  const at = (f: string) => (prefix ? `${prefix}.${f}` : f);
  if (!isRecord(value))
    return { field: prefix || undefined, message: 'document is not a mapping (an object)' };
  const { apiVersion, kind, metadata } = value;
  if (typeof apiVersion !== 'string' || apiVersion === '') {
    return { field: at('apiVersion'), message: 'missing or empty apiVersion' };
  }
  if (typeof kind !== 'string' || kind === '') return { field: at('kind'), message: 'missing or empty kind' };
  if (!isRecord(metadata)) return { field: at('metadata'), message: 'missing metadata' };
  const name = metadata.name;
  const generateName = metadata.generateName;
  const hasName = typeof name === 'string' && name !== '';
  const hasGenerateName = typeof generateName === 'string' && generateName !== '';
  if (!hasName && !hasGenerateName) return { field: at('metadata.name'), message: 'missing metadata.name' };
  if (name !== undefined && typeof name !== 'string') {
    return { field: at('metadata.name'), message: 'metadata.name must be a string' };
  }
  if (isKruiseKind(apiVersion, kind) || isBuiltinKind(apiVersion, kind)) return undefined;
  if (opts?.acceptKind?.(apiVersion, kind)) return undefined;
  const kruise = findKruiseKind(kind);
  if (kruise) {
    const served = kruise.versions.map((x) => `${kruise.group}/${x.name}`).join(', ');
    return {
      field: at('apiVersion'),
      message: `${kind} is not served at ${apiVersion} (expected ${served})`,
    };
  }
  if (Object.hasOwn(builtinKinds, kind)) {
    const allowed = builtinKinds[kind].join(', ');
    return {
      field: at('apiVersion'),
      message: `${kind} is not served at ${apiVersion} (expected ${allowed})`,
    };
  }
  return { field: at('kind'), message: `unknown kind ${JSON.stringify(kind)} (apiVersion ${apiVersion})` };
}

/**
 * Reads a multi-document YAML manifest (JSON is YAML too). Empty documents are skipped. A
 * `kind: List` document (apiVersion `v1`) is expanded into its `items`. Each document (or list item)
 * that is malformed YAML, not a mapping, lacks `apiVersion`, `kind` or `metadata.name` (a
 * `metadata.generateName` is accepted instead), or has a kind that is neither a Kruise kind at a
 * served version nor a known Kubernetes built-in (nor accepted by `opts.acceptKind`), gives one
 * `ManifestError`; the other documents are still returned.
 *
 * Example: `readManifests('kind: Foo\n---\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}')`
 * returns the Namespace and `[{document: 0, line: 1, field: 'apiVersion', message: 'missing or empty apiVersion'}]`
 * (document 1 is empty and skipped).
 */
export function readManifests(text: string, opts?: ReadManifestsOptions): ManifestReadResult {
  const objects: KubeObject[] = [];
  const errors: ManifestError[] = [];
  if (typeof text !== 'string') {
    return { objects, errors: [{ document: 0, message: 'manifest text is not a string' }] };
  }
  const lineCounter = new LineCounter();
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    return { objects, errors: [{ document: 0, line: 1, message: `cannot parse YAML: ${String(e)}` }] };
  }
  const list = Array.isArray(docs) ? docs : [];
  const lineOf = (offset: number | undefined) =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;
  list.forEach((doc, index) => {
    const contents = doc.contents;
    const startLine = lineOf(contents?.range?.[0] ?? doc.range?.[0]);
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      errors.push({
        document: index,
        line: lineOf(err.pos?.[0]) ?? startLine,
        message: `malformed YAML: ${err.message.split('\n')[0]}`,
      });
      return;
    }
    if (contents === null || contents === undefined) return; // empty document
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      errors.push({ document: index, line: startLine, message: `cannot read YAML: ${String(e)}` });
      return;
    }
    if (value === null || value === undefined) return; // a document holding only `null` / `~`
    if (!isMap(contents) || !isRecord(value)) {
      errors.push({ document: index, line: startLine, message: 'document is not a mapping (an object)' });
      return;
    }
    if (value.kind === 'List' && value.apiVersion === 'v1' && Array.isArray(value.items)) {
      value.items.forEach((item: unknown, i: number) => {
        const bad = checkObject(item, `items[${i}]`, opts);
        if (bad) errors.push({ document: index, line: startLine, ...bad });
        else objects.push(item as KubeObject);
      });
      return;
    }
    const bad = checkObject(value, '', opts);
    if (bad)
      errors.push({ document: index, line: lineOfField(contents, bad.field, lineOf) ?? startLine, ...bad });
    else objects.push(value as KubeObject);
  });
  return { objects, errors };
}

/** The line of a top-level key (or of `metadata.name`'s parent) inside a document, when present. */
function lineOfField(
  contents: unknown,
  field: string | undefined,
  lineOf: (offset: number | undefined) => number | undefined,
): number | undefined {
  if (!field || !isMap(contents)) return undefined;
  const top = field.split('.')[0];
  for (const pair of contents.items) {
    const key = pair.key as { value?: unknown; range?: [number, number, number] } | null;
    if (key && key.value === top) return lineOf(key.range?.[0]);
  }
  return undefined;
}
