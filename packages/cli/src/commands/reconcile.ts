// `kruise-ts reconcile -f <manifests>`: a dry run. The objects of the files are
// loaded as the observed state (every object is held to the API server's limit on
// annotations, and a controller object is defaulted and validated by the admission
// chain, like `kubectl apply`), then each object that has a controller is reconciled
// once and the actions are printed.
import { type KubeObject, LABEL_CONTROLLER_REVISION_HASH, readManifests } from '@kruise-ts/api';
import { type Action, epochMsToRFC3339, formatFieldError, validateAnnotationsSize } from '@kruise-ts/core';
import { displayName, invalidMessage, keyOf, Simulation } from '@kruise-ts/sim';
import { stringify } from 'yaml';
import { CliError, type CliIO, maxInputBytesOf, readInput } from '../io';

/** Options of the reconcile command. */
export interface ReconcileCommandOptions {
  file: string[];
  now?: string;
  seed?: string;
  output?: string;
  /** The input limit per manifest file (`--max-input-bytes`). */
  maxInputBytes?: string;
}

/** What one reconcile proposed. */
export interface ReconcileReport {
  object: string;
  actions: Action[];
  status: unknown;
  requeueAfterSeconds?: number;
  errors: string[];
}

const TIME_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** The latest timestamp mentioned in the objects (a deterministic default for `now`). */
function latestTimestamp(objects: KubeObject[]): string | undefined {
  let best: number | undefined;
  const visit = (v: unknown): void => {
    if (typeof v === 'string' && TIME_RE.test(v)) {
      const t = Date.parse(v);
      if (Number.isFinite(t) && (best === undefined || t > best)) best = t;
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  objects.forEach(visit);
  return best === undefined ? undefined : epochMsToRFC3339(best);
}

/** Runs the dry run; returns the exit code. */
export function reconcileCommand(opts: ReconcileCommandOptions, io: CliIO): number {
  const files = opts.file ?? [];
  if (files.length === 0) throw new CliError('give at least one manifest file with -f <file>');
  const maxBytes = maxInputBytesOf(opts);
  const objects: KubeObject[] = [];
  let bad = false;
  for (const f of files) {
    const r = readManifests(readInput(io, f, f, maxBytes));
    for (const e of r.errors) {
      bad = true;
      io.stderr(
        `error: ${f}${e.line !== undefined ? `:${e.line}` : ''} (document ${e.document}): ${e.field ? `${e.field}: ` : ''}${e.message}\n`,
      );
    }
    for (const o of r.objects) objects.push(o); // not push(...): 100,000 arguments overflow the stack
  }
  if (bad) return 2;
  const output = opts.output ?? 'text';
  if (!['text', 'json', 'yaml'].includes(output))
    throw new CliError(`--output must be text, json or yaml, not ${JSON.stringify(output)}`);
  const now = opts.now ?? latestTimestamp(objects) ?? '2024-01-01T00:00:00Z';
  if (!Number.isFinite(Date.parse(now)))
    throw new CliError(`--now must be an RFC 3339 time, not ${JSON.stringify(now)}`);
  const seed = opts.seed === undefined ? 1 : Number(opts.seed);
  if (!Number.isInteger(seed))
    throw new CliError(`--seed must be an integer, not ${JSON.stringify(opts.seed)}`);

  // The API server refuses any object, whatever its kind, whose annotations pass 256 KiB.
  let oversized = false;
  for (const o of objects) {
    const errs = validateAnnotationsSize(o.metadata.annotations);
    if (errs.length === 0) continue;
    io.stderr(`error: ${invalidMessage(o, errs)}\n`);
    oversized = true;
  }
  if (oversized) return 1;

  const sim = new Simulation({ seed, startTime: now, nodes: [] });
  // Admission lists objects by kind (a pod's lists the SidecarSets); grouping them once keeps a
  // manifest of 100,000 pods from costing 100,000 scans of 100,000 objects.
  const byKind = new Map<string, KubeObject[]>();
  for (const o of objects) {
    const list = byKind.get(o.kind);
    if (list) list.push(o);
    else byKind.set(o.kind, [o]);
  }
  // Controller objects are admitted (defaulted and validated) like `kubectl apply`.
  const admitted: KubeObject[] = [];
  for (const o of objects) {
    if (!sim.admission.handles(o.apiVersion, o.kind)) {
      admitted.push(o);
      continue;
    }
    const r = sim.admission.admit(o, {
      operation: 'CREATE',
      now: sim.clock.now(),
      featureGates: {},
      list: (a, k, ns) =>
        (byKind.get(k) ?? []).filter(
          (x) =>
            (ns === undefined || (x.metadata.namespace ?? 'default') === ns) &&
            x.apiVersion.split('/')[0] === a.split('/')[0],
        ),
      get: () => undefined,
    });
    if (!r.allowed) {
      io.stderr(`error: ${r.message}\n`);
      return 1;
    }
    admitted.push({ ...r.object, status: o.status });
  }
  // Owners first, so references written without a uid can be resolved by name.
  const owned = (o: KubeObject) => (o.metadata.ownerReferences ?? []).length > 0;
  for (const o of admitted.filter((x) => !owned(x))) sim.store.load(o);
  for (const o of admitted.filter(owned)) {
    const refs = (o.metadata.ownerReferences ?? []).map((r) => {
      if (r.uid) return r;
      const owner = sim.store.getByKey(keyOf(r.apiVersion, r.kind, o.metadata.namespace, r.name));
      return { ...r, uid: owner?.metadata.uid ?? '' };
    });
    sim.store.load({ ...o, metadata: { ...o.metadata, ownerReferences: refs } });
  }
  const reports: ReconcileReport[] = [];
  for (const obj of sim.store.all()) {
    const reg = sim.registry.forKind(obj.apiVersion, obj.kind);
    if (!reg) continue;
    const res = reg.reconcile(sim.store, obj, sim.clock.now(), undefined, { featureGates: {}, seed });
    reports.push({
      object: displayName(obj),
      actions: res.actions,
      status: res.status,
      requeueAfterSeconds: res.requeueAfterSeconds,
      errors: (res.errors ?? []).map(formatFieldError),
    });
  }
  if (reports.length === 0) {
    io.stderr(
      'error: no object in the manifests has a controller (kinds with one: ' +
        sim.registry
          .all()
          .map((r) => r.kind)
          .join(', ') +
        ')\n',
    );
    return 1;
  }
  if (output === 'json') io.stdout(`${JSON.stringify(reports, null, 2)}\n`);
  else if (output === 'yaml') io.stdout(stringify(reports));
  else io.stdout(renderText(reports, now));
  return reports.some((r) => r.errors.length > 0) ? 1 : 0;
}

/** Human-readable actions. */
export function renderText(reports: ReconcileReport[], now: string): string {
  const lines: string[] = [`# dry run at ${now}`];
  for (const r of reports) {
    lines.push(`${r.object}: ${r.actions.length} action${r.actions.length === 1 ? '' : 's'}`);
    for (const a of r.actions) lines.push(`  ${describeAction(a)}`);
    if (r.requeueAfterSeconds !== undefined) lines.push(`  requeue after ${r.requeueAfterSeconds}s`);
    for (const e of r.errors) lines.push(`  error: ${e}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeAction(a: Action): string {
  const pad = (v: string) => v.padEnd(13);
  switch (a.verb) {
    case 'create': {
      const name = a.object.metadata.name ?? `${a.object.metadata.generateName ?? ''}*`;
      const rev = a.object.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
      return `${pad('create')}${a.object.kind} ${name}${rev && a.object.kind === 'Pod' ? ` (revision ${rev})` : ''}  [${a.reason}]`;
    }
    case 'delete':
      return `${pad('delete')}${a.target.kind} ${a.target.name}  [${a.reason}]`;
    case 'patch':
      return `${pad('patch')}${a.target.kind} ${a.target.name} ${a.patchType} ${JSON.stringify(a.patch)}  [${a.reason}]`;
    case 'update':
      return `${pad('update')}${a.object.kind} ${a.object.metadata.name}  [${a.reason}]`;
    case 'updateStatus':
      return `${pad('updateStatus')}${a.target.kind} ${a.target.name} ${JSON.stringify(a.status)}`;
    case 'event':
      return `${pad('event')}${a.type} ${a.reason}: ${a.message}`;
  }
}
