// Container launch priority (docs/reference/core.md 2.3) and patchSpecToPod (2.4): apply one container
// batch of an in-place update to a pod and record it in the state annotation.
import {
  ANNOTATION_INPLACE_UPDATE_STATE,
  ENV_CONTAINER_BARRIER,
  type InPlaceUpdateSpec,
  type InPlaceUpdateState,
} from '@kruise-ts/api';
import type { Container, Pod, ResourceRequirements } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { type FeatureGates, resolveFeatureGates } from '../../contract/featureGates';
import { extend } from '../../json/objects';
import { applyStrategicMergePatch } from '../../json/strategicMerge';
import { type Now, toRFC3339 } from '../../kube/time';
import { encodeInPlaceUpdateState } from './annotations';
import type { InPlaceCache } from './cache';
import { isEmptyMap, sortedNames } from './internal';

/**
 * R2.3.1: a container's launch priority, from its env `KRUISE_CONTAINER_BARRIER`:
 * `valueFrom.configMapKeyRef.key` without its first two characters (`p_`) parsed as an
 * integer (failure → 0); `undefined` when the env is absent (no priority).
 * Example: key `"p_20"` → 20; key `"p_x"` → 0.
 */
export function getContainerLaunchPriority(container: Container): number | undefined {
  const env = (container.env ?? []).find((e) => e.name === ENV_CONTAINER_BARRIER);
  if (!env) return undefined;
  const key = env.valueFrom?.configMapKeyRef?.key ?? '';
  const rest = key.slice(2);
  if (!/^[+-]?[0-9]+$/.test(rest)) return 0;
  const n = Number(rest);
  return Number.isSafeInteger(n) ? n : 0;
}

/** The UpdateSpec fields patchSpecToPod reads (a refresh builds one from the `next*` fields). */
export type PatchSpec = Pick<
  InPlaceUpdateSpec,
  'containerImages' | 'containerRefMetadata' | 'containerResources'
> &
  Partial<Pick<InPlaceUpdateSpec, 'metaDataPatch' | 'updateEnvFromMetadata' | 'revision'>>;

/** Result of {@link patchSpecToPod}: the new pod and state, or the unchanged pod with an error. */
export interface PatchSpecResult {
  pod: Pod;
  state: InPlaceUpdateState;
  error?: string;
}

const RESIZABLE: ReadonlySet<string> = new Set(['cpu', 'memory']);

/**
 * Applies one container batch of an in-place update (docs/reference/core.md 2.4) and returns the new pod
 * (with the state written to `apps.kruise.io/inplace-update-state`) and the new state.
 *
 * The batch: among the containers named in the spec, those without a launch priority plus
 * those with the highest priority (2.3); then every container sharing a label/annotation key
 * of `containerRefMetadata` with a batch member joins (repeated until stable). Batch members get
 * their image, cpu/memory (vertical gate only) and metadata values; the others are deferred to
 * `next*`; a `preCheckBeforeNext` names the batch when something was deferred; a batch record
 * `{timestamp: now, containers}` is appended. `lastContainerStatuses` keeps the *first* imageID
 * recorded for a container (Appendix D.2).
 *
 * Worked example (§2.4): c1 (priority 20), c2 (10), c3 (0), c4 (0); images of c1, c2, c4 and
 * label `label-k2` for c2 and c3 change → batch 1 = {c1}; next images {c2, c4}, next metadata
 * {c2, c3}; batch 2 = {c2} + c3 (shares `label-k2`); batch 3 = {c4}.
 */
export function patchSpecToPod(
  pod: Pod,
  spec: PatchSpec,
  state: InPlaceUpdateState,
  now: Now,
  featureGates?: Partial<FeatureGates>,
  cache?: InPlaceCache,
): PatchSpecResult {
  return applyContainerBatch(pod, spec, state, now, featureGates, false, cache);
}

/**
 * {@link patchSpecToPod}; with `ownsMetadata` the caller hands over `pod`, its `metadata` and
 * its `metadata.annotations` as fresh objects nobody else holds (inPlaceUpdate has just copied
 * them), so they are written in place instead of being copied once more. Not re-exported.
 */
export function applyContainerBatch(
  pod: Pod,
  spec: PatchSpec,
  state: InPlaceUpdateState,
  now: Now,
  featureGates: Partial<FeatureGates> | undefined,
  ownsMetadata: boolean,
  cache: InPlaceCache | undefined,
): PatchSpecResult {
  const gates = resolveFeatureGates(featureGates);
  // Copy-on-write (no deep clones): the state and pod are copied shallowly, and every nested
  // object written below (labels, annotations, changed containers, lastContainerStatuses) is a
  // fresh copy, so neither input is mutated and untouched subtrees are shared.
  // Copies by extend, not spreads, here and below: a spread copy gets a hidden class of its own (../../json/objects.ts).
  const st: InPlaceUpdateState = extend(state);
  const nextImages: Record<string, string> = {};
  const nextMeta: Record<string, ObjectMeta> = {};
  const nextResources: Record<string, ResourceRequirements> = {};

  let p: Pod = pod;
  if (spec.metaDataPatch) {
    ownsMetadata = false; // the merged pod is a new object, but its maps may be shared
    try {
      p = applyStrategicMergePatch(p, spec.metaDataPatch); // step 2
    } catch (e) {
      return { pod, state, error: `failed to apply metadata patch: ${(e as Error).message}` };
    }
  }
  const images = spec.containerImages ?? {};
  const refMeta = spec.containerRefMetadata ?? {};
  const resources = spec.containerResources ?? {};
  const containers: Container[] = p.spec?.containers ?? [];
  const batch = chooseBatch(containers, images, refMeta, resources);

  // step 3, copy-on-write: the labels are copied only when a batch member's metadata writes
  // labels (step 9), the annotations (the state is written, step 12) unless the caller owns them
  const meta0 = p.metadata ?? {};
  const labels: Record<string, string> = writesLabels(batch, refMeta)
    ? extend(meta0.labels)
    : (meta0.labels ?? {});
  let annotations: Record<string, string>;
  if (ownsMetadata && meta0.annotations) {
    annotations = meta0.annotations;
    meta0.labels = labels; // (a no-op unless copied above: same key, same place)
  } else {
    annotations = extend(meta0.annotations);
    p = extend(p, { metadata: extend(meta0, { labels, annotations }) });
  }
  const cow = new ContainersCopy(containers);

  const imageChanged = new Set<string>();
  containers.forEach((c, i) => {
    if (!Object.hasOwn(images, c.name)) return; // step 6
    if (batch.has(c.name)) {
      cow.writable(i).image = images[c.name];
      imageChanged.add(c.name);
    } else {
      nextImages[c.name] = images[c.name]!;
    }
  });
  for (const cs of p.status?.containerStatuses ?? []) {
    if (!imageChanged.has(cs.name)) continue; // step 7
    if (!Object.hasOwn(st.lastContainerStatuses ?? {}, cs.name)) {
      const last = extend(st.lastContainerStatuses); // a new key: extend, not a spread (../../json/objects.ts)
      last[cs.name] = cs.imageID ? { imageID: cs.imageID } : {};
      st.lastContainerStatuses = last;
    }
  }
  if (gates.InPlaceWorkloadVerticalScaling) {
    containers.forEach((c0, i) => {
      const r = resources[c0.name]; // step 8
      if (!r) return;
      if (!batch.has(c0.name)) {
        nextResources[c0.name] = r;
        return;
      }
      for (const kind of ['limits', 'requests'] as const) {
        for (const [res, q] of Object.entries(r[kind] ?? {})) {
          if (!RESIZABLE.has(res)) continue;
          const c = cow.writable(i);
          c.resources ??= {};
          c.resources[kind] = { ...(c.resources[kind] ?? {}), [res]: q };
        }
      }
    });
  }
  if (cow.list) p = extend(p, { spec: extend(p.spec!, { containers: cow.list }) });
  for (const [name, meta] of Object.entries(refMeta)) {
    if (!batch.has(name)) {
      nextMeta[name] = meta; // step 9
      continue;
    }
    Object.assign(labels, meta.labels ?? {});
    Object.assign(annotations, meta.annotations ?? {});
  }

  setOrDelete(st, 'nextContainerImages', nextImages);
  setOrDelete(st, 'nextContainerRefMetadata', nextMeta);
  setOrDelete(st, 'nextContainerResources', nextResources);
  const names = sortedNames(batch);
  if (!isEmptyMap(nextImages) || !isEmptyMap(nextMeta) || !isEmptyMap(nextResources)) {
    st.preCheckBeforeNext = { containersRequiredReady: names }; // step 10
  } else {
    delete st.preCheckBeforeNext;
  }
  st.containerBatchesRecord = [
    ...(st.containerBatchesRecord ?? []),
    { timestamp: toRFC3339(now), containers: names },
  ];
  annotations[ANNOTATION_INPLACE_UPDATE_STATE] = encodeInPlaceUpdateState(st, cache); // step 12
  return { pod: p, state: st };
}

/** Does step 9 write labels: does a batch member's `containerRefMetadata` carry any? */
function writesLabels(batch: ReadonlySet<string>, refMeta: Record<string, ObjectMeta>): boolean {
  for (const name in refMeta) {
    if (Object.hasOwn(refMeta, name) && batch.has(name) && !isEmptyMap(refMeta[name]?.labels)) return true;
  }
  return false;
}

/** Copy-on-write containers: the list and a container are copied on the first write to them. */
class ContainersCopy {
  /** The new list, once a container was written. */
  list: Container[] | undefined;
  constructor(private readonly base: Container[]) {}
  /** The copy of container `i` the caller may write to (made on first write). */
  writable(i: number): Container {
    this.list ??= [...this.base];
    if (this.list[i] === this.base[i]) {
      const c = { ...this.base[i]! };
      if (c.resources) c.resources = { ...c.resources };
      this.list[i] = c;
    }
    return this.list[i]!;
  }
}

function setOrDelete<K extends 'nextContainerImages' | 'nextContainerRefMetadata' | 'nextContainerResources'>(
  st: InPlaceUpdateState,
  key: K,
  value: NonNullable<InPlaceUpdateState[K]>,
): void {
  if (isEmptyMap(value)) delete st[key];
  else st[key] = value;
}

/** Steps 4 and 5: the containers of this batch. */
function chooseBatch(
  containers: Container[],
  images: Record<string, string>,
  refMeta: Record<string, ObjectMeta>,
  resources: Record<string, ResourceRequirements>,
): Set<string> {
  const batch = new Set<string>();
  const withPriority: Array<{ name: string; priority: number }> = [];
  for (const c of containers) {
    const considered =
      Object.hasOwn(images, c.name) || Object.hasOwn(refMeta, c.name) || Object.hasOwn(resources, c.name);
    if (!considered) continue;
    const priority = getContainerLaunchPriority(c);
    if (priority === undefined) batch.add(c.name);
    else withPriority.push({ name: c.name, priority });
  }
  if (withPriority.length > 0) {
    const max = Math.max(...withPriority.map((x) => x.priority));
    for (const x of withPriority) if (x.priority === max) batch.add(x.name);
  }
  // Step 5: a shared label/annotation can only have one value, so its readers go together.
  for (let changed = true; changed; ) {
    changed = false;
    const labelKeys = new Set<string>();
    const annotationKeys = new Set<string>();
    for (const name of batch) {
      for (const k of Object.keys(refMeta[name]?.labels ?? {})) labelKeys.add(k);
      for (const k of Object.keys(refMeta[name]?.annotations ?? {})) annotationKeys.add(k);
    }
    for (const [name, meta] of Object.entries(refMeta)) {
      if (batch.has(name)) continue;
      const shares =
        Object.keys(meta.labels ?? {}).some((k) => labelKeys.has(k)) ||
        Object.keys(meta.annotations ?? {}).some((k) => annotationKeys.has(k));
      if (shares) {
        batch.add(name);
        changed = true;
      }
    }
  }
  return batch;
}
