// Scenario parsing: YAML text → a checked Scenario, or errors naming the file,
// the document and line, and the field. Nothing runs when there is an error:
// an unknown field, a wrong type, a bad manifest, or a step naming an object no
// manifest defines all stop here.
import { type KubeObject, readManifests } from '@kruise-ts/api';
import { type Document, isMap, LineCounter, parseAllDocuments } from 'yaml';
import type { Timings } from '../context';
import type { ScheduledFailure } from '../failures';
import type { InvariantConfig, InvariantName } from '../invariants';
import type { NodeConfig } from '../nodes';
import { defaultNodes } from '../options';
import { parseDuration } from '../time';
import { formatPath, validateSchema } from './schema';
import { buildStep, checkPodPick, nodeName, targetKey } from './steps';
import { SCENARIO_API_VERSION, type Scenario, type Step, scenarioSchema } from './types';

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

type Obj = Record<string, any>;
const _DEFAULT_WAIT_TIMEOUT_MS = 600_000;

/** Parses a scenario file. */
export function parseScenario(
  text: string,
  opts: ParseOptions = {},
): { scenario?: Scenario; errors: ScenarioError[] } {
  const file = opts.fileName ?? 'scenario.yaml';
  const errors: ScenarioError[] = [];
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs as unknown as Document];
  let scenarioDoc: { doc: Document; index: number; value: Obj } | undefined;
  const manifests: Scenario['manifests'] = [];
  list.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      for (const e of doc.errors)
        errors.push({
          file,
          document: index,
          line: lc.linePos(e.pos[0]).line,
          message: `malformed YAML: ${e.message.split('\n')[0]}`,
        });
      return;
    }
    if (doc.contents === null) return;
    const range = doc.range ?? [0, 0, 0];
    const value = doc.toJS() as unknown;
    if (isMap(doc.contents) && (value as Obj).kind === 'Scenario') {
      if (scenarioDoc)
        errors.push({
          file,
          document: index,
          line: lc.linePos(range[0]).line,
          field: 'kind',
          message: 'only one Scenario document is allowed per file',
        });
      else scenarioDoc = { doc, index, value: value as Obj };
      return;
    }
    const startLine = lc.linePos(range[0]).line;
    const r = readManifests(text.slice(range[0], range[2]));
    for (const e of r.errors)
      errors.push({
        file,
        document: index,
        line: e.line !== undefined ? startLine + e.line - 1 : startLine,
        field: e.field,
        message: e.message,
      });
    const contentsStart =
      (doc.contents as { range?: [number, number, number] } | null)?.range?.[0] ?? range[0];
    for (const o of r.objects)
      manifests.push({ object: o, document: index, line: lc.linePos(contentsStart).line, file });
  });
  if (!scenarioDoc) {
    if (errors.length === 0)
      errors.push({
        file,
        message: `no Scenario document (apiVersion: ${SCENARIO_API_VERSION}, kind: Scenario) in the file`,
      });
    return { errors };
  }
  const sd = scenarioDoc;
  const lineOf = (path: (string | number)[]): number | undefined => {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node =
        p.length === 0
          ? sd.doc.contents
          : (sd.doc.getIn(p, true) as { range?: [number, number, number] } | undefined);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range) return lc.linePos(range[0]).line;
      if (p.length === 0) return undefined;
    }
  };
  const at = (path: (string | number)[], message: string): void => {
    errors.push({ file, document: sd.index, line: lineOf(path), field: formatPath(path), message });
  };
  for (const e of validateSchema(sd.value, scenarioSchema)) at(e.path, e.message);
  if (errors.length > 0) return { errors };
  const scenario = build(sd.value, manifests, { file, at, opts, errors });
  return errors.length > 0 ? { errors } : { scenario, errors };
}

/** Parses a scenario given as a plain object (the Scenario document; manifests inline in `spec.manifests`). */
export function parseScenarioObject(
  value: unknown,
  opts: ParseOptions = {},
): { scenario?: Scenario; errors: ScenarioError[] } {
  const file = opts.fileName ?? '<object>';
  const errors: ScenarioError[] = [];
  const at = (path: (string | number)[], message: string): void => {
    errors.push({ file, field: formatPath(path), message });
  };
  for (const e of validateSchema(value, scenarioSchema)) at(e.path, e.message);
  if (errors.length > 0) return { errors };
  const scenario = build(value as Obj, [], { file, at, opts, errors });
  return errors.length > 0 ? { errors } : { scenario, errors };
}

export interface BuildCtx {
  file: string;
  at: (path: (string | number)[], message: string) => void;
  opts: ParseOptions;
  errors: ScenarioError[];
}

export function ms(v: unknown): number | undefined {
  return v === undefined ? undefined : parseDuration(v);
}

function build(doc: Obj, fileManifests: Scenario['manifests'], c: BuildCtx): Scenario {
  const spec: Obj = doc.spec ?? {};
  const cluster: Obj = spec.cluster ?? {};
  const manifests: Scenario['manifests'] = [];
  // spec.manifestFiles, then the file's own documents, then inline manifests.
  (spec.manifestFiles ?? []).forEach((f: string, i: number) => {
    manifests.push(...readFileManifests(f, ['spec', 'manifestFiles', i], c));
  });
  manifests.push(...fileManifests);
  (spec.manifests ?? []).forEach((m: unknown, i: number) => {
    manifests.push(...inlineManifests(m, ['spec', 'manifests', i], c));
  });

  const nodes: NodeConfig[] = [];
  (cluster.nodes ?? []).forEach((n: Obj, i: number) => {
    const base: NodeConfig = {
      name: n.name ?? '',
      capacity: n.capacity,
      labels: n.labels,
      taints: n.taints,
      unschedulable: n.unschedulable,
      images: n.images,
    };
    if (n.count !== undefined || n.namePrefix !== undefined) {
      const prefix = n.namePrefix ?? n.name ?? 'node';
      for (let k = 1; k <= (n.count ?? 1); k++) nodes.push({ ...base, name: `${prefix}-${k}` });
    } else if (!n.name) c.at(['spec', 'cluster', 'nodes', i], 'a node needs a name, or namePrefix and count');
    else nodes.push(base);
  });
  const nodeNames = new Set((nodes.length > 0 ? nodes : defaultNodes()).map((n) => n.name));
  if (nodes.length > 0 && nodeNames.size !== nodes.length)
    c.at(['spec', 'cluster', 'nodes'], 'node names must be unique');

  const t: Obj = cluster.timings ?? {};
  const timings: Partial<Timings> = {};
  if (t.imagePull !== undefined) {
    if (typeof t.imagePull === 'object') {
      const images: Record<string, number> = {};
      for (const [k, v] of Object.entries(t.imagePull.images ?? {})) images[k] = ms(v) ?? 0;
      timings.imagePull = { defaultMs: ms(t.imagePull.default) ?? 5000, images };
    } else timings.imagePull = { defaultMs: ms(t.imagePull) ?? 5000, images: {} };
  }
  const setMs = (key: keyof Timings, field: string) => {
    if (t[field] !== undefined) (timings as Record<string, number>)[key] = ms(t[field]) ?? 0;
  };
  setMs('containerStartMs', 'containerStart');
  setMs('readinessDelayMs', 'readinessDelay');
  setMs('terminationMs', 'termination');
  setMs('crashWithinMs', 'crashWithin');
  setMs('crashBackoffMs', 'crashBackoff');
  setMs('readinessFailureMs', 'readinessFailure');
  setMs('nodeMonitorGracePeriodMs', 'nodeMonitorGracePeriod');
  setMs('podEvictionTimeoutMs', 'podEvictionTimeout');
  for (const p of ['jitter', 'crashProbability', 'readinessFailureProbability'] as const) {
    if (t[p] === undefined) continue;
    if (t[p] < 0 || t[p] > 1) c.at(['spec', 'cluster', 'timings', p], `must be between 0 and 1, not ${t[p]}`);
    timings[p] = t[p];
  }

  const failures: ScheduledFailure[] = [];
  (cluster.failures ?? []).forEach((f: Obj, i: number) => {
    const path = ['spec', 'cluster', 'failures', i];
    const atMs = ms(f.at) ?? 0;
    if (f.failNode !== undefined || f.recoverNode !== undefined) {
      const type = f.failNode !== undefined ? 'failNode' : 'recoverNode';
      const node = nodeName(f[type]);
      if (!nodeNames.has(node))
        c.at(
          [...path, type],
          `node ${JSON.stringify(node)} is not in the cluster (nodes: ${[...nodeNames].join(', ')})`,
        );
      failures.push({ atMs, type, node });
      return;
    }
    const type = f.crash !== undefined ? 'crash' : f.deletePod !== undefined ? 'deletePod' : 'unready';
    const p: Obj = f[type];
    checkPodPick(p, [...path, type], c);
    failures.push({
      atMs,
      type,
      pod: p.name,
      selector: p.selector,
      count: p.count,
      namespace: p.namespace,
      container: p.container,
      durationMs: ms(p.duration),
    });
  });

  const invariants: InvariantConfig[] = (spec.invariants ?? []).map((i: string | Obj) =>
    typeof i === 'string'
      ? { name: i as InvariantName }
      : { name: i.name as InvariantName, objectName: i.objectName, namespace: i.namespace },
  );

  // Objects the scenario defines, to check step targets against (kind/namespace/name → apiVersion).
  const defined = new Map<string, string>();
  const define = (o: KubeObject) =>
    defined.set(targetKey(o.kind, o.metadata.namespace, o.metadata.name ?? ''), o.apiVersion);
  for (const m of manifests) define(m.object);
  const steps: Step[] = [];
  (spec.steps ?? []).forEach((s: Obj, index: number) => {
    const step = buildStep(s, index, c, defined, nodeNames);
    if (step) {
      steps.push(step);
      if (step.action === 'apply') for (const o of step.objects) define(o);
    }
  });
  return {
    name: doc.metadata?.name ?? 'scenario',
    description: doc.description,
    seed: spec.seed ?? 1,
    startTime: spec.startTime,
    nodes: nodes.length > 0 ? nodes : defaultNodes(),
    timings,
    featureGates: cluster.featureGates ?? {},
    resolutionMs: ms(cluster.resolution),
    failures,
    invariants,
    manifests,
    steps,
    maxDurationMs: ms(spec.maxDuration) ?? 7_200_000,
  };
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
  const r = readManifests(text);
  for (const e of r.errors)
    c.errors.push({ file: f, document: e.document, line: e.line, field: e.field, message: e.message });
  return r.objects.map((object) => ({ object, file: f }));
}

export function inlineManifests(m: unknown, path: (string | number)[], c: BuildCtx): Scenario['manifests'] {
  const r = readManifests(JSON.stringify(m));
  for (const e of r.errors) c.at(e.field ? [...path, ...e.field.split('.')] : path, e.message);
  return r.objects.map((object) => ({ object }));
}
