// Reads and the Scale view (guide §E, §I): get and list with selectors and
// Table output, and the Scale subresource built from the CRD's scale paths.
// Objects are served at the requested version through conversion.ts.
import type { KubeObject } from '@kruise-ts/api';
import type { DeleteAdmissionContext } from '@kruise-ts/cluster';
import type { FeatureGates } from '@kruise-ts/core';
import type { Simulation } from '../simulation';
import type { ConversionRunner } from './conversion';
import { compileFilter, matchesFilter, type ObjectFilter } from './filters';
import { evalJsonPath } from './jsonpath';
import type { ListSnapshots } from './pagination';
import type { Registry, ResourceInfo } from './registry';
import type { SelectorIndex } from './selectorIndex';
import type { StatusObject } from './status';
import type { IncludeObject } from './tables';
import type { WatchHub } from './watch';

/** Everything a handler needs. */
export interface ApiContext {
  sim: Simulation;
  registry: Registry;
  hub: WatchHub;
  /** The simulated "now" in epoch ms (AGE columns). */
  nowMs(): number;
  /** Runs external admission webhooks (controllers: none); undefined = built-in admission only. */
  webhooks?: WebhookRunner;
  /** Converts objects of multi-version CRDs (conversion.ts); undefined = apiVersion rewrite only. */
  conversion?: ConversionRunner;
  /** Label and field postings (selectorIndex.ts); undefined = selectors filter the whole kind. */
  selectors?: SelectorIndex;
  /** Past states of kinds for paged lists (pagination.ts); undefined = a new one per list. */
  snapshots?: ListSnapshots;
}

/**
 * Calls the registered admission webhooks on a write: the mutating ones, then `afterMutation`
 * (the server's own validation of the mutated object, e.g. a CRD's schema), then the validating ones.
 */
export interface WebhookRunner {
  admit(
    res: ResourceInfo,
    operation: 'CREATE' | 'UPDATE' | 'DELETE',
    object: KubeObject | undefined,
    old: KubeObject | undefined,
    sub: string | undefined,
    dryRun: boolean,
    afterMutation?: (object: KubeObject) => StatusObject | undefined,
  ): Promise<{ ok: true; object?: KubeObject } | { ok: false; status: StatusObject }>;
}

/** A handler's answer. */
export interface Reply {
  code: number;
  body: unknown;
  contentType?: string;
  /** `Warning` headers (`299 - "<text>"`), e.g. an unknown field under fieldValidation=Warn. */
  warnings?: string[];
}

/**
 * The simulation's feature gates (scenario `cluster.featureGates`, or `startApiServer`'s
 * `featureGates`).
 */
export function simFeatureGates(sim: Simulation): Partial<FeatureGates> {
  return sim.featureGates ?? {};
}

/** What the simulation's DELETE admission (deletion protection) sees: its gates and the store. */
export function deleteAdmissionContext(sim: Simulation): DeleteAdmissionContext {
  const store = sim.store;
  return {
    now: sim.clock.now(),
    featureGates: simFeatureGates(sim),
    list: (apiVersion, kind, namespace) => store.list(apiVersion, kind, namespace),
    get: (apiVersion, kind, namespace, name) => store.get(apiVersion, kind, namespace, name),
  };
}

/** The stored object, or undefined. */
export function getObject(
  ctx: ApiContext,
  res: ResourceInfo,
  namespace: string | undefined,
  name: string,
): KubeObject | undefined {
  return ctx.sim.store.get(res.apiVersion, res.kind, res.namespaced ? namespace : undefined, name);
}

/** Objects of a resource (all namespaces when `namespace` is undefined), filtered. */
export function listObjects(
  ctx: ApiContext,
  res: ResourceInfo,
  namespace: string | undefined,
  labelSelector: string | null,
  fieldSelector: string | null,
): KubeObject[] {
  return listFiltered(ctx, res, namespace, compileFilter(labelSelector, fieldSelector));
}

/**
 * Objects of a resource that pass a compiled filter, in key order. An equality requirement is
 * answered from the selector index (the work is the candidates it names, not the kind).
 */
export function listFiltered(
  ctx: ApiContext,
  res: ResourceInfo,
  namespace: string | undefined,
  filter: ObjectFilter,
): KubeObject[] {
  const ns = res.namespaced ? namespace : undefined;
  if (filter.labels.length === 0 && filter.fields.length === 0)
    return ctx.sim.store.list(res.apiVersion, res.kind, ns);
  const indexed = ctx.selectors?.select(res.apiVersion, res.kind, ns, filter);
  if (indexed) return indexed;
  const all = ctx.sim.store.list(res.apiVersion, res.kind, ns);
  if (ctx.selectors) ctx.selectors.lastVisited = all.length;
  return all.filter((o) => matchesFilter(o, filter));
}

/** `includeObject` query parameter. */
export function includeObject(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  return v === 'Object' || v === 'None' ? v : 'Metadata';
}

/** Reads a dotted path (`.spec.replicas`). */
export function readPath(obj: unknown, path: string): unknown {
  return evalJsonPath(obj, path)[0];
}

/** Writes a dotted path (`.spec.replicas`), returning a new object. */
export function writePath<T>(obj: T, path: string, value: unknown): T {
  const keys = path.replace(/^\./, '').split('.');
  const set = (cur: unknown, i: number): unknown => {
    const base =
      cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>) : {};
    if (i === keys.length - 1) return { ...base, [keys[i]]: value };
    return { ...base, [keys[i]]: set(base[keys[i]], i + 1) };
  };
  return set(obj, 0) as T;
}

function selectorString(sel: unknown): string {
  if (!sel || typeof sel !== 'object') return '';
  const s = sel as {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const r of s.matchExpressions ?? []) {
    const op = r.operator;
    if (op === 'Exists') parts.push(r.key);
    else if (op === 'DoesNotExist') parts.push(`!${r.key}`);
    else parts.push(`${r.key} ${op.toLowerCase()} (${(r.values ?? []).join(',')})`);
  }
  return parts.join(',');
}

/** The `autoscaling/v1` Scale of an object (CRD scale paths; built-ins use spec.selector). */
export function toScale(obj: KubeObject, res: ResourceInfo): Record<string, unknown> {
  const sp = res.scale!;
  const m = obj.metadata;
  const status: Record<string, unknown> = { replicas: Number(readPath(obj, sp.statusReplicasPath) ?? 0) };
  const sel = sp.labelSelectorPath
    ? readPath(obj, sp.labelSelectorPath)
    : selectorString((obj.spec as { selector?: unknown } | undefined)?.selector);
  if (typeof sel === 'string' && sel !== '') status.selector = sel;
  const meta: Record<string, unknown> = {
    name: m.name,
    uid: m.uid,
    resourceVersion: m.resourceVersion,
    creationTimestamp: m.creationTimestamp,
  };
  if (m.namespace) meta.namespace = m.namespace;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: meta,
    spec: { replicas: Number(readPath(obj, sp.specReplicasPath) ?? 0) },
    status,
  };
}
