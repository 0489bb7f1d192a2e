// The pod-mutating admission step (docs/reference/sidecarset.md §3 and §4): which SidecarSets match a
// pod, which revision of each is injected, patchPodMetadata, the containers, volumes and
// secrets merged into the pod, and the annotations the webhook writes.
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  ANNOTATION_SIDECARSET_INJECTED_LIST,
  ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER,
  checkStructure,
  DEFAULT_KRUISE_NAMESPACE,
  type SidecarSet,
} from '@kruise-ts/api';
import {
  type FieldError,
  fnv32a,
  type InputShape,
  invalid,
  labelSelectorAsRequirements,
  parsePercentageAsFloat64,
  requirementMatches,
  screenObservedInput,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { LocalObjectReference, Namespace, Pod, Volume } from 'kubernetes-types/core/v1.js';
import {
  encodeUpgradeSpecMap,
  getWorkingHotUpgradeContainers,
  mergeInjectedList,
  readUpgradeSpecMap,
  type SidecarSetUpgradeSpec,
} from './annotations';
import {
  buildSidecarSetInjection,
  type InjectedContainer,
  type SidecarSetInjection,
} from './buildContainers';
import { getHistorySidecarSet } from './history';
import { canonicalTime, jsonStringMap } from './json';
import { candidateSidecarSets, isActivePod, podMatchedSidecarSet, podNamespace } from './matching';
import {
  mergeImagePullSecrets,
  mergeSidecarContainers,
  mergeVolumes,
  sortByNameThenMergeSidecarContainers,
} from './merge';
import { patchPodMetadata } from './patchMetadata';
import type { InjectSidecarsContext, InjectSidecarsResult } from './types';

/** Field path prefix naming a SidecarSet in the webhook's rejection errors. */
function ssField(ss: SidecarSet, path: string): string {
  return `sidecarSet[${ss.metadata?.name ?? ''}].${path}`;
}

/** The default draw for the Partial policy: FNV-1a of `<namespace>/<name>` over 2^32. */
export function podDraw(pod: Pod): number {
  const m = pod.metadata ?? {};
  return fnv32a(`${m.namespace ?? ''}/${m.name ?? m.generateName ?? ''}/${m.uid ?? ''}`) / 4294967296;
}

/**
 * SS-4.2: the SidecarSet to inject for `pod`: the current object, or the *history SidecarSet*
 * recorded in a ControllerRevision.
 * 1. no `injectionStrategy.revision`, or neither `revisionName` nor `customVersion` → current;
 * 2. the history SidecarSet is looked up (not found → error, the pod is rejected);
 * 3. `updateStrategy.paused` → history;
 * 4. `policy: Partial` → history when `updateStrategy.selector` is set and does not match the
 *    pod; otherwise draw `r` in [0, 1): a nil or int partition → current; `"P%"` → history iff
 *    `r <= P/100`; any other string → error;
 * 5. any other policy (`Always`, empty) → history.
 *
 * Example (upstream `TestCanarySidecarSetInjection`): Partial, selector `canary=true` matching the
 * pod, partition `"0%"`, r = 0.5 → 0.5 <= 0 is false → the current (canary) image.
 */
export function resolveInjectedSidecarSet(
  sidecarSet: SidecarSet,
  pod: Pod,
  revisions: readonly ControllerRevision[],
  kruiseNamespace: string,
  random?: () => number,
): { sidecarSet: SidecarSet } | { error: FieldError } {
  const rev = sidecarSet.spec?.injectionStrategy?.revision;
  if (!rev || (!rev.revisionName && !rev.customVersion)) return { sidecarSet };
  const field = ssField(sidecarSet, 'spec.injectionStrategy.revision');
  const history = getHistorySidecarSet(sidecarSet, revisions, kruiseNamespace);
  if (history.error !== undefined) return { error: invalid(field, rev, history.error) };
  const us = sidecarSet.spec?.updateStrategy ?? {};
  if (us.paused) return { sidecarSet: history.sidecarSet };
  if (rev.policy !== 'Partial') return { sidecarSet: history.sidecarSet };
  if (us.selector) {
    let reqs: ReturnType<typeof labelSelectorAsRequirements>;
    try {
      reqs = labelSelectorAsRequirements(us.selector) ?? [];
    } catch (e) {
      return {
        error: invalid(
          ssField(sidecarSet, 'spec.updateStrategy.selector'),
          us.selector,
          (e as Error).message,
        ),
      };
    }
    const labels = pod.metadata?.labels ?? {};
    if (!reqs.every((q) => requirementMatches(q, labels))) return { sidecarSet: history.sidecarSet };
  }
  const r = random ? random() : podDraw(pod);
  const partition = us.partition;
  if (partition === undefined || partition === null || typeof partition === 'number') return { sidecarSet };
  let p: number;
  try {
    p = parsePercentageAsFloat64(partition);
  } catch (e) {
    return {
      error: invalid(ssField(sidecarSet, 'spec.updateStrategy.partition'), partition, (e as Error).message),
    };
  }
  return { sidecarSet: r <= p ? history.sidecarSet : sidecarSet };
}

function unchanged(pod: Pod, errors: FieldError[] = []): InjectSidecarsResult {
  return { pod, injected: [], errors };
}

/**
 * The pod-mutating webhook on pod CREATE (docs/reference/sidecarset.md §3, §4), as a pure function.
 *
 * 1. Inactive pods, and UPDATE requests (SS-4.1.2), are returned unchanged.
 * 2. Candidates (SS-3.4): SidecarSets indexed under the pod's namespace, then cluster-scoped
 *    ones, each group by name; paused injection skipped; matched by SS-3.3; each resolved to
 *    the revision to inject (SS-4.2).
 * 3. `patchPodMetadata` of every matched SidecarSet, in order (SS-4.3) — kept even if nothing
 *    is injected (SS-4.3.2).
 * 4. Containers built from the pod as it was (SS-4.4, SS-4.5); init containers sorted by name
 *    and merged, containers merged in injection order (SS-4.6.2/3); volumes and secrets
 *    (SS-4.6.4/5); then the annotations (SS-4.7), written last.
 *
 * Errors (an invalid selector, a missing history revision, a failing MergePatchJson, an
 * unparsable hash annotation) reject the pod: `errors` is non-empty and `pod` is the input.
 * Two SidecarSets declaring the same container are **not** de-duplicated (SS-3.6).
 *
 * Example (spec §4.8 A): pod `[app-a, app-b]`, `a-logging` (filebeat After) and `b-mesh`
 * (envoy Before, init mesh-init) → containers `[envoy, app-a, app-b, filebeat]`, init
 * `[init-db, mesh-init]`, `kruise.io/sidecarset-injected-list = a-logging,b-mesh`.
 */
export function injectSidecars(
  pod: Pod,
  sidecarSets: readonly SidecarSet[],
  ctx: InjectSidecarsContext,
): InjectSidecarsResult {
  // The boundary (docs/reference/core.md §10.1): the API server decodes a pod against its schema
  // before any webhook sees it, so a pod of the wrong shape is refused with its field errors; a
  // SidecarSet, namespace or revision of the wrong shape is skipped, as a reconcile skips it.
  const cache = ctx?.structureCache;
  const podErrors = checkStructure('Pod', pod, { admission: true, cache });
  if (podErrors.length > 0) return unchanged(pod, podErrors);
  const screened = screenObservedInput({ ...ctx, sidecarSets }, INJECT_SHAPE, cache);
  if (screened.errors.length > 0) return unchanged(pod, screened.errors);
  const { sidecarSets: sets, ...checkedCtx } = screened.input;
  return injectChecked(pod, sets, checkedCtx);
}

const INJECT_SHAPE: InputShape = {
  lists: { sidecarSets: 'SidecarSet', namespaces: 'Namespace', revisions: 'ControllerRevision' },
  singles: { namespace: 'Namespace' },
  required: ['sidecarSets'],
};

/** {@link injectSidecars} of a pod and observed objects that fit their schemas. */
function injectChecked(
  pod: Pod,
  sidecarSets: readonly SidecarSet[],
  ctx: InjectSidecarsContext,
): InjectSidecarsResult {
  if ((ctx.operation ?? 'CREATE') !== 'CREATE' || !isActivePod(pod)) return unchanged(pod);
  const ns = podNamespace(pod, ctx.requestNamespace);
  const namespaces: Namespace[] = ctx.namespace
    ? [ctx.namespace, ...(ctx.namespaces ?? [])]
    : (ctx.namespaces ?? []);
  const kruiseNs = ctx.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;

  // §3: matched SidecarSets and their resolved revisions
  const matched: SidecarSet[] = [];
  for (const ss of candidateSidecarSets(sidecarSets, ns)) {
    if (ss.spec?.injectionStrategy?.paused) continue;
    const m = podMatchedSidecarSet(pod, ss, namespaces, ctx.requestNamespace);
    if (m.error !== undefined)
      return unchanged(pod, [invalid(ssField(ss, 'spec.selector'), ss.spec?.selector, m.error)]);
    if (!m.matched) continue;
    const r = resolveInjectedSidecarSet(ss, pod, ctx.revisions ?? [], kruiseNs, ctx.random);
    if ('error' in r) return unchanged(pod, [r.error]);
    matched.push(r.sidecarSet);
  }
  if (matched.length === 0) return unchanged(pod);

  // SS-4.3 patchPodMetadata
  let annotations: Record<string, string> | undefined = pod.metadata?.annotations;
  let metaChanged = false;
  for (const ss of matched) {
    if (!ss.spec?.patchPodMetadata?.length) continue;
    const r = patchPodMetadata(annotations, ss.spec.patchPodMetadata);
    if (r.error !== undefined) {
      return unchanged(pod, [invalid('metadata.annotations', ss.metadata?.name ?? '', r.error)]);
    }
    if (r.changed) {
      annotations = r.annotations;
      metaChanged = true;
    }
  }

  // SS-4.4 containers of each SidecarSet, built from the original pod
  const injections: SidecarSetInjection[] = matched.map((ss) => buildSidecarSetInjection(ss, pod));
  const initContainers: InjectedContainer[] = [];
  const containers: InjectedContainer[] = [];
  for (const inj of injections) {
    initContainers.push(...inj.initContainers);
    containers.push(...inj.containers);
  }
  if (initContainers.length === 0 && containers.length === 0) {
    const only = metaChanged ? { ...pod, metadata: { ...pod.metadata, annotations } } : pod;
    return { pod: only, injected: [], errors: [] };
  }

  // SS-4.7 annotations
  const ann: Record<string, string> = Object.assign({}, annotations);
  const hashMap = readUpgradeSpecMap(ann, ANNOTATION_SIDECARSET_HASH);
  const noImageMap = readUpgradeSpecMap(ann, ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE);
  if (!hashMap || !noImageMap) {
    const key = hashMap ? ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE : ANNOTATION_SIDECARSET_HASH;
    return unchanged(pod, [
      invalid(`metadata.annotations[${key}]`, ann[key], 'failed to parse the SidecarSet hash annotation'),
    ]);
  }
  const now = canonicalTime(ctx.now);
  if (now === undefined) return unchanged(pod, [invalid('now', ctx.now, 'must be an RFC 3339 time')]);
  const hashes: Record<string, SidecarSetUpgradeSpec> = Object.assign({}, hashMap.entries);
  const noImage: Record<string, SidecarSetUpgradeSpec> = Object.assign({}, noImageMap.entries);
  const working = getWorkingHotUpgradeContainers(ann);
  let hot = false;
  for (let i = 0; i < matched.length; i++) {
    const ss = matched[i];
    const inj = injections[i];
    for (const [k, v] of inj.hotWorking) {
      working[k] = v;
      hot = true;
    }
    if (!inj.injecting) continue;
    const name = ss.metadata?.name ?? '';
    const sa = ss.metadata?.annotations ?? {};
    const sidecarList = inj.sidecarList.length > 0 ? inj.sidecarList : null;
    const entry: SidecarSetUpgradeSpec = {
      updateTimestamp: now,
      hash: sa[ANNOTATION_SIDECARSET_HASH] ?? '',
      sidecarSetName: name,
      sidecarList,
    };
    const rev = ss.status?.latestRevision;
    hashes[name] = rev ? { ...entry, controllerRevision: rev } : entry;
    noImage[name] = { ...entry, hash: sa[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] ?? '' };
  }
  const names = matched.map((ss) => ss.metadata?.name ?? '');
  ann[ANNOTATION_SIDECARSET_HASH] = encodeUpgradeSpecMap(hashes);
  ann[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] = encodeUpgradeSpecMap(noImage);
  ann[ANNOTATION_SIDECARSET_INJECTED_LIST] = mergeInjectedList(annotations, names);
  for (const inj of injections) for (const [k, v] of inj.hotAnnotations) ann[k] = v;
  if (hot) ann[ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER] = jsonStringMap(working);

  // SS-4.6 merge
  const spec: NonNullable<Pod['spec']> = Object.assign({}, pod.spec, {
    containers: pod.spec?.containers ?? [],
  });
  if (initContainers.length > 0)
    spec.initContainers = sortByNameThenMergeSidecarContainers(pod.spec?.initContainers, initContainers);
  if (containers.length > 0) spec.containers = mergeSidecarContainers(pod.spec?.containers, containers);
  const volumePool: Volume[] = [];
  const secretPool: LocalObjectReference[] = [];
  for (const inj of injections) {
    for (const v of inj.volumes) volumePool.push(v);
    for (const s of inj.imagePullSecrets) secretPool.push(s);
  }
  if (volumePool.length > 0) spec.volumes = mergeVolumes(pod.spec?.volumes, volumePool);
  const secrets = mergeImagePullSecrets(pod.spec?.imagePullSecrets, secretPool);
  if (secrets.length > 0) spec.imagePullSecrets = secrets;

  const metadata = Object.assign({}, pod.metadata);
  metadata.annotations = ann;
  const out = Object.assign({}, pod) as Pod;
  (out as { metadata: Pod['metadata'] }).metadata = metadata;
  (out as { spec: Pod['spec'] }).spec = spec;
  return { pod: out, injected: names, errors: [] };
}
