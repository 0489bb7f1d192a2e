// Can a pod be updated in place? Computes the UpdateSpec from two revisions
// (docs/reference/core.md §1: R1.1–R1.12, env from metadata 1.4, vertical scaling 1.5).
import { ANNOTATION_CLONESET_VCT_HASH, type InPlaceUpdateSpec } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Container, PodTemplateSpec, ResourceRequirements } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { type FeatureGates, resolveFeatureGates } from '../../contract/featureGates';
import { createJsonPatch, type JsonPatchOperation, unescapeJsonPointer } from '../../json/jsonDiff';
import { createMetadataStrategicPatch } from '../../json/strategicMerge';
import { isValidQuantity } from '../../kube/quantity';
import { getPodQOS } from '../../pods/qos';

/** Options of {@link calculateInPlaceUpdateSpec} (docs/reference/core.md 1.1). */
export interface CalculateInPlaceUpdateSpecOptions {
  featureGates?: Partial<FeatureGates>;
  /** Copied into `graceSeconds` (default 0). */
  gracePeriodSeconds?: number;
  /** CloneSet `InPlaceOnly` sets it: skip the VCT-hash check of R1.3. */
  ignoreVolumeClaimTemplatesHashDiff?: boolean;
  /** ADS: the revision string to record (its `controller-revision-hash` label) instead of the name. */
  getRevision?: (revision: ControllerRevision) => string;
}

/** The raw JSON text of a revision's `data` (docs/architecture.md: an object, or already raw text). */
export function revisionDataText(revision: ControllerRevision): string {
  const data = revision.data as unknown;
  if (typeof data === 'string') return data;
  return JSON.stringify(data ?? null);
}

/** R1.3 "exists": a non-empty annotation map containing the key (empty value counts). */
function vctHash(revision: ControllerRevision): string | undefined {
  const a = revision.metadata?.annotations;
  if (!a || Object.keys(a).length === 0 || !Object.hasOwn(a, ANNOTATION_CLONESET_VCT_HASH)) return undefined;
  return a[ANNOTATION_CLONESET_VCT_HASH];
}

function templateOf(text: string): PodTemplateSpec {
  const doc = JSON.parse(text) as { spec?: { template?: PodTemplateSpec } } | null;
  const t = doc?.spec?.template;
  return t !== null && typeof t === 'object' ? t : {};
}

/**
 * Computes the in-place UpdateSpec from the pod's old revision to the new one, or
 * `undefined` when the pod must be recreated (docs/reference/core.md §1).
 *
 * Every JSON-patch operation between the two raw revision texts (Appendix A) is classified
 * after removing the first `/spec/template` from its path (R1.6): `/metadata/...` ops become
 * the strategic-merge `metaDataPatch` (R1.8, minus env-referenced keys, 1.4);
 * `replace /spec/containers/<n>/image` records an image; with `InPlaceWorkloadVerticalScaling`
 * a cpu/memory change of an existing value records a resource (R1.11) as long as the QoS class
 * stays (R1.7); anything else — including any add/remove under `/spec/` — means recreate.
 *
 * Worked example (§1.6): old template labels `{app: web, tier: a}`, container `main` reads
 * `metadata.labels['tier']` through env; the new template sets `tier: b`. The only op is
 * `replace /spec/template/metadata/labels/tier "b"` → `/metadata/labels/tier`, referenced by
 * `main` → `containerRefMetadata = {main: {labels: {tier: "b"}}}`,
 * `updateEnvFromMetadata = true`, and with `tier` removed from both sides the patch is `"{}"`.
 */
export function calculateInPlaceUpdateSpec(
  oldRevision: ControllerRevision | undefined | null,
  newRevision: ControllerRevision | undefined | null,
  opts: CalculateInPlaceUpdateSpecOptions = {},
): InPlaceUpdateSpec | undefined {
  if (!oldRevision || !newRevision) return undefined; // R1.1
  const gates = resolveFeatureGates(opts.featureGates);
  const oldText = revisionDataText(oldRevision);
  const newText = revisionDataText(newRevision);
  let ops: JsonPatchOperation[];
  try {
    ops = createJsonPatch(oldText, newText); // R1.2
  } catch {
    return undefined;
  }
  if (gates.RecreatePodWhenChangeVCTInCloneSetGate && !opts.ignoreVolumeClaimTemplatesHashDiff) {
    const oldHash = vctHash(oldRevision); // R1.3
    const newHash = vctHash(newRevision);
    if (oldHash !== undefined && newHash !== undefined && oldHash !== newHash) return undefined;
  }
  const oldTemplate = templateOf(oldText); // R1.4
  const newTemplate = templateOf(newText);
  const oldContainers: Container[] = oldTemplate.spec?.containers ?? [];

  const spec: InPlaceUpdateSpec = {
    // R1.5
    revision: opts.getRevision ? opts.getRevision(newRevision) : (newRevision.metadata?.name ?? ''),
    containerImages: {},
    containerResources: {},
    containerRefMetadata: {},
    updateEnvFromMetadata: false,
    graceSeconds: opts.gracePeriodSeconds ?? 0,
  };
  const metadataOps: JsonPatchOperation[] = [];
  let resources: Record<string, ResourceRequirements> = {};
  for (const op of ops) {
    const path = op.path.replace('/spec/template', ''); // R1.6.1: first occurrence only
    if (!path.startsWith('/spec/')) {
      if (path.startsWith('/metadata/')) {
        metadataOps.push({ ...op, path }); // R1.6.2
        continue;
      }
      return undefined;
    }
    if (op.op !== 'replace') return undefined; // R1.6.3
    const image = /^\/spec\/containers\/([0-9]+)\/image$/.exec(path);
    if (image) {
      const n = Number(image[1]); // R1.6.4
      if (n >= oldContainers.length || typeof op.value !== 'string') return undefined;
      spec.containerImages[oldContainers[n]?.name ?? ''] = op.value;
      continue;
    }
    if (gates.InPlaceWorkloadVerticalScaling && /^\/spec\/containers\/[^/]+\/resources\//.test(path)) {
      const r = applyResourcePatchOp({ ...op, path }, oldTemplate, resources); // R1.6.5
      if (r.error !== undefined) return undefined;
      resources = r.containerResources;
      continue;
    }
    return undefined; // R1.6.6
  }
  spec.containerResources = resources;

  // R1.7 / R1.12: a resize must keep the QoS class.
  if (gates.InPlaceWorkloadVerticalScaling && Object.keys(resources).length > 0) {
    if (getPodQOS(oldTemplate.spec) !== getPodQOS(newTemplate.spec)) return undefined;
  }

  if (metadataOps.length > 0) {
    // R1.8
    const oldMeta = cloneMeta(oldTemplate.metadata);
    const newMeta = cloneMeta(newTemplate.metadata);
    if (gates.InPlaceUpdateEnvFromMetadata) {
      extractEnvFromMetadata(metadataOps, newTemplate.spec?.containers ?? [], oldMeta, newMeta, spec);
    }
    spec.metaDataPatch = createMetadataStrategicPatch(oldMeta, newMeta);
  }
  return spec; // R1.9
}

/**
 * A memo of UpdateSpecs for one reconcile: the caller creates it (`new Map()`), passes it to
 * every {@link inPlaceUpdate} / {@link cachedInPlaceUpdateSpec} call of that reconcile, and
 * drops it afterwards (no module state). Every call sharing it must use the same feature gates
 * and `getRevision`; the key holds the two revision names, the grace period and the VCT flag.
 * `null` records "recreate". The cached specs are shared: treat them as read-only.
 */
export type InPlaceUpdateSpecCache = Map<string, InPlaceUpdateSpec | null>;

/**
 * {@link calculateInPlaceUpdateSpec} memoised in `cache` per (old revision name, new revision
 * name, grace period, VCT flag): within one reconcile a revision name names one revision, so a
 * rollout of 10k pods from `web-a` to `web-b` diffs the two revision texts once, not 10k times.
 * Without a cache it is a plain call.
 */
export function cachedInPlaceUpdateSpec(
  cache: InPlaceUpdateSpecCache | undefined,
  oldRevision: ControllerRevision | undefined | null,
  newRevision: ControllerRevision | undefined | null,
  opts: CalculateInPlaceUpdateSpecOptions = {},
): InPlaceUpdateSpec | undefined {
  if (!cache || !oldRevision || !newRevision)
    return calculateInPlaceUpdateSpec(oldRevision, newRevision, opts);
  const key = `${oldRevision.metadata?.name ?? ''}\u0000${newRevision.metadata?.name ?? ''}\u0000${
    opts.gracePeriodSeconds ?? 0
  }\u0000${opts.ignoreVolumeClaimTemplatesHashDiff === true}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const spec = calculateInPlaceUpdateSpec(oldRevision, newRevision, opts);
  cache.set(key, spec ?? null);
  return spec;
}

function cloneMeta(meta: ObjectMeta | undefined): ObjectMeta | undefined {
  if (!meta) return meta;
  return {
    ...meta,
    ...(meta.labels ? { labels: { ...meta.labels } } : {}),
    ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
  };
}

/** Go's strings.SplitN(s, sep, n): at most n parts, the last holding the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const parts: string[] = [];
  let rest = s;
  while (parts.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    parts.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  parts.push(rest);
  return parts;
}

/** R1.10: move env-referenced label/annotation changes from the patch into containerRefMetadata. */
function extractEnvFromMetadata(
  metadataOps: JsonPatchOperation[],
  containers: Container[],
  oldMeta: ObjectMeta | undefined,
  newMeta: ObjectMeta | undefined,
  spec: InPlaceUpdateSpec,
): void {
  for (const op of metadataOps) {
    if (op.op !== 'add' && op.op !== 'replace') continue;
    const parts = splitN(op.path, '/', 4);
    if (parts.length !== 4) continue;
    const kind = parts[2];
    if (kind !== 'labels' && kind !== 'annotations') continue;
    const key = unescapeJsonPointer(parts[3]!);
    for (const c of containers) {
      if (!containerReferencesMetadata(c, `metadata.${kind}`, key)) continue;
      const entry: ObjectMeta = spec.containerRefMetadata[c.name] ?? {};
      entry[kind] = { ...(entry[kind] ?? {}), [key]: String(op.value) };
      spec.containerRefMetadata[c.name] = entry;
      if (oldMeta?.[kind]) delete oldMeta[kind][key];
      if (newMeta?.[kind]) delete newMeta[kind][key];
      spec.updateEnvFromMetadata = true;
    }
  }
}

/**
 * 1.4: does the container read `<path>['<key>']` through an env `fieldRef`? The env entry must
 * have an empty `value`, a `valueFrom.fieldRef`, a name other than `SIDECARSET_VERSION` /
 * `SIDECARSET_VERSION_ALT`, and a field path ending in `']` whose part before the first `['`
 * is non-empty and equals `path`, with the subscript equal to `key`.
 * Example: `metadata.labels['tier']` references label `tier`.
 */
export function containerReferencesMetadata(container: Container, path: string, key: string): boolean {
  for (const env of container.env ?? []) {
    if (env.value) continue;
    const fieldPath = env.valueFrom?.fieldRef?.fieldPath;
    if (fieldPath === undefined || !env.valueFrom?.fieldRef) continue;
    if (env.name === 'SIDECARSET_VERSION' || env.name === 'SIDECARSET_VERSION_ALT') continue;
    const parsed = parseFieldPathSubscript(fieldPath);
    if (parsed && parsed.path === path && parsed.subscript === key) return true;
  }
  return false;
}

/** Splits `metadata.labels['k']` into `{path: 'metadata.labels', subscript: 'k'}` (1.4). */
export function parseFieldPathSubscript(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const stripped = fieldPath.slice(0, -2);
  const i = stripped.indexOf("['");
  if (i <= 0) return undefined;
  return { path: stripped.slice(0, i), subscript: stripped.slice(i + 2) };
}

/**
 * R1.11: validates one resource operation (`/spec/containers/<n>/resources/<kind>/<resource>`)
 * and records it. Accepted only when the path has 7 segments, `<n>` is an old-template
 * container, the op is neither add nor remove, the value is a non-null quantity and the
 * resource is cpu or memory. Returns a new map (the input is not mutated) or an error.
 * Example: `replace /spec/containers/0/resources/limits/cpu "200m"` with container 0 named
 * `app` → `{app: {limits: {cpu: "200m"}}}`.
 */
export function applyResourcePatchOp(
  op: { op: string; path: string; value?: unknown },
  oldTemplate: PodTemplateSpec,
  containerResources: Record<string, ResourceRequirements>,
): { containerResources: Record<string, ResourceRequirements>; error?: string } {
  const fail = (error: string) => ({ containerResources, error });
  const seg = op.path.split('/');
  if (seg.length !== 7) return fail(`unexpected resource path ${op.path}`);
  const [, , , index, , kind, resource] = seg as [string, string, string, string, string, string, string];
  const containers = oldTemplate.spec?.containers ?? [];
  if (!/^[0-9]+$/.test(index) || Number(index) >= containers.length)
    return fail(`no container at index ${index}`);
  if (op.op === 'add' || op.op === 'remove') return fail(`resource ${op.op} is not supported in place`);
  if (op.value === null || op.value === undefined) return fail('resource value is null');
  if (!isValidQuantity(op.value)) return fail(`invalid quantity ${JSON.stringify(op.value)}`);
  if (resource !== 'cpu' && resource !== 'memory')
    return fail(`resource ${resource} cannot be updated in place`);
  const name = containers[Number(index)]?.name ?? '';
  const entry: ResourceRequirements = { ...(containerResources[name] ?? {}) };
  if (kind === 'limits' || kind === 'requests')
    entry[kind] = { ...(entry[kind] ?? {}), [resource]: String(op.value) };
  return { containerResources: { ...containerResources, [name]: entry } };
}
