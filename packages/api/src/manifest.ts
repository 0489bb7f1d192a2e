// The manifest reader: multi-document YAML (or JSON) text → Kubernetes objects, with
// an error per bad document naming its index, line and field. Never throws.
import { isMap } from 'yaml';
import { builtinKinds, findKruiseKind, isBuiltinKind, isKruiseKind } from './kinds';
import type { KubeObject } from './meta';
import { readYamlDocuments } from './yamlDocuments';

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
  /**
   * Further checks of each object the reader accepts, e.g. the API server's limit on the size of
   * annotations. Each problem becomes a `ManifestError` of the object's document (its field under
   * `items[i].` for a List item, its line where the field is written) and the object is left out.
   */
  check?: (object: KubeObject) => readonly { field?: string; message: string }[];
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
 * `ManifestError`; the other documents are still returned. Malformed YAML includes what
 * `readYamlDocuments` refuses: an alias naming no anchor before it or inside its own anchor,
 * aliases expanding past `MAX_YAML_ALIAS_COUNT` (a "billion laughs"), and nesting deeper than
 * `MAX_YAML_DEPTH`, which refuses the whole text (one error naming the deep document) because
 * it is found before any document is built.
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
  const stream = readYamlDocuments(text);
  if (stream.problem) {
    const { document, line, message } = stream.problem;
    return { objects, errors: [{ document: document ?? 0, line, message }] };
  }
  const lineOf = (offset: number | undefined) =>
    offset === undefined ? undefined : stream.lineCounter.linePos(offset).line;
  for (const { index, doc, line: startLine, value, problems } of stream.documents) {
    if (problems.length > 0) {
      errors.push({ document: index, line: problems[0].line, message: problems[0].message });
      continue;
    }
    if (value === null || value === undefined) continue; // empty, or only `null` / `~`
    const contents = doc.contents;
    if (!isMap(contents) || !isRecord(value)) {
      errors.push({ document: index, line: startLine, message: 'document is not a mapping (an object)' });
      continue;
    }
    if (value.kind === 'List' && value.apiVersion === 'v1' && Array.isArray(value.items)) {
      value.items.forEach((item: unknown, i: number) => {
        const bad = checkObject(item, `items[${i}]`, opts);
        if (bad) errors.push({ document: index, line: startLine, ...bad });
        else {
          const more = furtherChecks(item as KubeObject, `items[${i}].`, opts);
          for (const e of more) errors.push({ document: index, line: startLine, ...e });
          if (more.length === 0) objects.push(item as KubeObject);
        }
      });
      continue;
    }
    const bad = checkObject(value, '', opts) ?? furtherChecks(value as KubeObject, '', opts)[0];
    if (bad)
      errors.push({ document: index, line: lineOfField(contents, bad.field, lineOf) ?? startLine, ...bad });
    else objects.push(value as KubeObject);
  }
  return { objects, errors };
}

/**
 * The problems `opts.check` finds in an accepted object, fields prefixed with `prefix`. A check
 * that throws is reported as a problem of the object rather than thrown out of the reader.
 */
function furtherChecks(
  object: KubeObject,
  prefix: string,
  opts: ReadManifestsOptions | undefined,
): { field?: string; message: string }[] {
  if (!opts?.check) return [];
  try {
    return opts.check(object).map((e) => ({
      field: e.field === undefined ? prefix.replace(/\.$/, '') || undefined : `${prefix}${e.field}`,
      message: e.message,
    }));
  } catch (e) {
    return [{ field: prefix.replace(/\.$/, '') || undefined, message: `check failed: ${String(e)}` }];
  }
}

/**
 * The line of a field inside a document: of the deepest key of the dotted path that is written
 * there (`metadata.annotations` → the `annotations:` key; `metadata.name` when name is missing →
 * the `metadata:` key), or undefined when not even the first key is.
 */
function lineOfField(
  contents: unknown,
  field: string | undefined,
  lineOf: (offset: number | undefined) => number | undefined,
): number | undefined {
  if (!field) return undefined;
  let node = contents;
  let line: number | undefined;
  for (const part of field.split('.')) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === part);
    if (!pair) break;
    line = lineOf((pair.key as { range?: [number, number, number] } | null)?.range?.[0]) ?? line;
    node = pair.value;
  }
  return line;
}
