// Scenario parsing: YAML text → a checked Scenario, or errors naming the file,
// the document and line, and the field. Nothing runs when there is an error:
// an unknown field, a wrong type, a bad manifest, or a step naming an object no
// manifest defines all stop here.
import { type KubeObject, readManifests, readYamlDocuments } from '@kruise-ts/api';
import type { NodeConfig, Timings } from '@kruise-ts/cluster';
import { type Document, isMap } from 'yaml';
import type { ScheduledFailure } from '../failures';
import type { InvariantConfig, InvariantName } from '../invariants';
import { defaultNodes } from '../options';
import {
  type BuildCtx,
  inlineManifests,
  MANIFEST_CHECKS,
  ms,
  type ParseOptions,
  readFileManifests,
  type ScenarioError,
} from './buildContext';
import { formatPath, validateSchema } from './schema';
import { buildStep, checkPodPick, nodeName, targetKey } from './steps';

import { SCENARIO_API_VERSION, type Scenario, type Step, scenarioSchema } from './types';

export { formatScenarioError, type ParseOptions, type ScenarioError } from './buildContext';

type Obj = Record<string, any>;

const _DEFAULT_WAIT_TIMEOUT_MS = 600_000;

/**
 * Parses a scenario file: one `kind: Scenario` document plus manifests, in YAML. Never throws:
 * malformed YAML (including the alias and nesting limits of `readYamlDocuments` from
 * @kruise-ts/api), a bad manifest or a bad field each give a `ScenarioError` naming the file,
 * document, line and field, and then there is no `scenario`.
 *
 * Example: `parseScenario('*NKG\n')` → `{errors: [{file: 'scenario.yaml', document: 0, line: 1,
 * message: 'malformed YAML: alias *NKG names no anchor &NKG defined before it'}]}`.
 */
export function parseScenario(
  text: string,
  opts: ParseOptions = {},
): { scenario?: Scenario; errors: ScenarioError[] } {
  const file = opts.fileName ?? 'scenario.yaml';
  try {
    return parseScenarioText(text, opts, file);
  } catch (e) {
    // The checks below walk what the YAML holds; a value no check foresaw must still come back
    // as an error, since the CLI prints these and `runScenario` promises not to throw.
    return {
      errors: [{ file, message: `cannot read the scenario: ${e instanceof Error ? e.message : String(e)}` }],
    };
  }
}

function parseScenarioText(
  text: string,
  opts: ParseOptions,
  file: string,
): { scenario?: Scenario; errors: ScenarioError[] } {
  const errors: ScenarioError[] = [];
  const stream = readYamlDocuments(text);
  if (stream.problem)
    return {
      errors: [
        {
          file,
          document: stream.problem.document,
          line: stream.problem.line,
          message: stream.problem.message,
        },
      ],
    };
  const lc = stream.lineCounter;
  let scenarioDoc: { doc: Document; index: number; value: Obj } | undefined;
  const manifests: Scenario['manifests'] = [];
  for (const { index, doc, value, problems } of stream.documents) {
    if (problems.length > 0) {
      for (const p of problems) errors.push({ file, document: index, line: p.line, message: p.message });
      continue;
    }
    if (value === null || value === undefined) continue; // no content, or only `null` / `~`
    const range = doc.range ?? [0, 0, 0];
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
      continue;
    }
    const startLine = lc.linePos(range[0]).line;
    const r = readManifests(text.slice(range[0], range[2]), MANIFEST_CHECKS);
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
  }
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

function build(doc: Obj, fileManifests: Scenario['manifests'], c: BuildCtx): Scenario {
  const spec: Obj = doc.spec ?? {};
  const cluster: Obj = spec.cluster ?? {};
  const manifests: Scenario['manifests'] = [];
  // spec.manifestFiles, then the file's own documents, then inline manifests.
  // Appended one by one: a file of 100,000 pods would overflow the stack as push(...) arguments.
  (spec.manifestFiles ?? []).forEach((f: string, i: number) => {
    for (const m of readFileManifests(f, ['spec', 'manifestFiles', i], c)) manifests.push(m);
  });
  for (const m of fileManifests) manifests.push(m);
  (spec.manifests ?? []).forEach((m: unknown, i: number) => {
    for (const x of inlineManifests(m, ['spec', 'manifests', i], c)) manifests.push(x);
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
      : { name: i.name as InvariantName, objectName: i.objectName, namespace: i.namespace, kind: i.kind },
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
