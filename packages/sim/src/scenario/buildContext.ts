// What the scenario reader and its step builder share: the error type and its format, the parse
// options, the build context that collects errors at their YAML paths, durations, and reading the
// manifests a scenario carries inline or names by file. parse.ts (the document) and steps.ts
// (each step) both build on it, so neither imports the other's internals.
import { type ReadManifestsOptions, readManifests } from '@kruise-ts/api';
import { parseDuration } from '@kruise-ts/cluster';
import { formatFieldError, validateAnnotationsSize } from '@kruise-ts/core';
import type { Scenario } from './types';

/** A problem in a scenario file. */
export interface ScenarioError {
  file: string;
  /** 0-based index of the YAML document. */
  document?: number;
  /** 1-based line. */
  line?: number;
  /** The field, e.g. `spec.steps[2].setImage.image`. */
  field?: string;
  message: string;
}

/** `file:line: (document N) field: message`. */
export function formatScenarioError(e: ScenarioError): string {
  const where = `${e.file}${e.line !== undefined ? `:${e.line}` : ''}`;
  const doc = e.document !== undefined ? ` (document ${e.document})` : '';
  return `${where}${doc}: ${e.field ? `${e.field}: ` : ''}${e.message}`;
}

/** How to read files a scenario refers to (`manifestFiles`, `apply: {file}`). */
export interface ParseOptions {
  /** The scenario's file name, used in messages. Default `scenario.yaml`. */
  fileName?: string;
  /** Reads a file given a path relative to the scenario file (the CLI passes one; without it, files are an error). */
  readFile?: (relativePath: string) => string;
}

/**
 * What every manifest of a scenario is checked for beyond the reader's own checks: the API
 * server's limit on annotations (256 KiB, keys and values), which applies to every kind. An object
 * over it is an error of the scenario, so nothing runs: `metadata.annotations: Too long: must have
 * at most 262144 bytes`, at the line of the `annotations:` key.
 */
export const MANIFEST_CHECKS: ReadManifestsOptions = {
  check: (o) =>
    validateAnnotationsSize(o.metadata?.annotations).map((e) => ({
      field: e.field,
      message: formatFieldError(e).slice(e.field.length + 2), // `Too long: ...`, the field apart
    })),
};

export interface BuildCtx {
  file: string;
  at: (path: (string | number)[], message: string) => void;
  opts: ParseOptions;
  errors: ScenarioError[];
}

export function ms(v: unknown): number | undefined {
  return v === undefined ? undefined : parseDuration(v);
}

export function readFileManifests(f: string, path: (string | number)[], c: BuildCtx): Scenario['manifests'] {
  if (!c.opts.readFile) {
    c.at(
      path,
      `cannot read ${JSON.stringify(f)}: no file access (scenario given as text without a file reader)`,
    );
    return [];
  }
  let text: string;
  try {
    text = c.opts.readFile(f);
  } catch (e) {
    c.at(path, `cannot read ${JSON.stringify(f)}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  const r = readManifests(text, MANIFEST_CHECKS);
  for (const e of r.errors)
    c.errors.push({ file: f, document: e.document, line: e.line, field: e.field, message: e.message });
  return r.objects.map((object) => ({ object, file: f }));
}

export function inlineManifests(m: unknown, path: (string | number)[], c: BuildCtx): Scenario['manifests'] {
  const r = readManifests(JSON.stringify(m), MANIFEST_CHECKS);
  for (const e of r.errors) c.at(e.field ? [...path, ...e.field.split('.')] : path, e.message);
  return r.objects.map((object) => ({ object }));
}
