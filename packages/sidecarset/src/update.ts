// In-place changes the controller makes to one pod (docs/reference/sidecarset.md SS-5.7, SS-5.8):
// sidecar images (cold and hot), the hash entry, the in-place update state, patchPodMetadata,
// the `SidecarSetUpgradable` condition, and the hot-upgrade flip.
import {
  ANNOTATION_PREFIX_SIDECARSET_VERSION,
  ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT,
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE,
  ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER,
  type SidecarSet,
} from '@kruise-ts/api';
import { goJsonStringify, isPodReady } from '@kruise-ts/core';
import type { Container, Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1.js';
import { SidecarSetAnnotationCache } from './annotationCache';
import {
  encodeSidecarSetUpdateStates,
  encodeUpgradeSpecMap,
  findWorkingHotUpgradeContainer,
  getWorkingHotUpgradeContainers,
  hotUpgradeContainerNames,
  parseUpgradeSpecMap,
  readSidecarSetUpdateStates,
  type SidecarSetUpgradeSpec,
  sortedSet,
} from './annotations';
import { sidecarContainerNames } from './matching';
import { patchPodMetadata } from './patchMetadata';
import { isPodStateConsistent } from './predicates';

/** The pod condition type the controller writes (SS-5.7.5). */
export const SIDECARSET_UPGRADABLE = 'SidecarSetUpgradable';

type Annotations = Record<string, string>;

/** A mutable working copy of a pod: spec containers and annotations are copied on write. */
export function clonePodForUpdate(pod: Pod): Pod {
  return {
    ...pod,
    metadata: { ...pod.metadata, annotations: Object.assign({}, pod.metadata?.annotations) },
    spec: {
      ...pod.spec,
      containers: (pod.spec?.containers ?? []).map((c) => ({ ...c })),
      ...(pod.spec?.initContainers ? { initContainers: pod.spec.initContainers.map((c) => ({ ...c })) } : {}),
    },
  };
}

function annotationsOf(pod: Pod): Annotations {
  return pod.metadata!.annotations as Annotations;
}

function findContainer(pod: Pod, name: string, initFirst: boolean): Container | undefined {
  const init = pod.spec?.initContainers ?? [];
  const main = pod.spec?.containers ?? [];
  return initFirst
    ? (init.find((c) => c.name === name) ?? main.find((c) => c.name === name))
    : main.find((c) => c.name === name);
}

/**
 * SS-5.7.4: records the current status imageID of each changed container under S's entry of
 * `kruise.io/sidecarset-inplace-update-state` (entry created with `revision` = S's hash and
 * `updateTimestamp` = now when absent; an existing entry keeps both).
 */
function recordUpdateState(pod: Pod, sidecarSet: SidecarSet, changed: readonly string[], now: string): void {
  const ann = annotationsOf(pod);
  const read = readSidecarSetUpdateStates(ann);
  const states = read === undefined || read === 'invalid' ? {} : read;
  const name = sidecarSet.metadata?.name ?? '';
  const entry = states[name] ?? {
    revision: sidecarSet.metadata?.annotations?.[ANNOTATION_SIDECARSET_HASH] ?? '',
    updateTimestamp: now,
    lastContainerStatuses: {},
  };
  const lcs = Object.assign({}, entry.lastContainerStatuses);
  for (const c of changed) {
    const id = pod.status?.containerStatuses?.find((s) => s.name === c)?.imageID ?? '';
    lcs[c] = id ? { imageID: id } : {};
  }
  states[name] = { ...entry, lastContainerStatuses: lcs };
  ann[ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE] = encodeSidecarSetUpdateStates(states);
}

/**
 * SS-5.7.3: rewrites S's entry of the pod hash annotation: `{updateTimestamp: now, hash: S's
 * hash, sidecarSetName, sidecarList: sorted names of S's containers plus native-sidecar init
 * containers, controllerRevision: latestRevision}`; other entries are kept. A legacy-format
 * annotation is converted, and then the without-image annotation is rewritten into the object
 * format too; otherwise the without-image annotation is left untouched. `cache` parses each
 * distinct annotation text once (a controller round passes its own to every pod it updates);
 * without one the text is parsed here, with the same result.
 *
 * Example (upstream `TestUpdatePodSidecarSetHash`): `{"test-sidecarset": "aaa"}` with S hash `bbb`
 * → `{"test-sidecarset":{"updateTimestamp":…,"hash":"bbb","sidecarSetName":"test-sidecarset",
 * "sidecarList":["cold-sidecar","hot-sidecar"]}}`.
 */
export function updatePodSidecarSetHash(
  annotations: Readonly<Annotations> | null | undefined,
  sidecarSet: SidecarSet,
  now: string,
  latestRevision?: string,
  cache: SidecarSetAnnotationCache = new SidecarSetAnnotationCache(),
): Annotations {
  const ann: Annotations = Object.assign({}, annotations);
  const name = sidecarSet.metadata?.name ?? '';
  const parsed = ann[ANNOTATION_SIDECARSET_HASH]
    ? cache.upgradeSpecMap(ann[ANNOTATION_SIDECARSET_HASH])
    : undefined;
  const entries: Record<string, SidecarSetUpgradeSpec> = Object.assign({}, parsed?.entries);
  const list = sortedSet([
    ...(sidecarSet.spec?.containers ?? []).map((c) => c.name),
    ...(sidecarSet.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  ]);
  const entry: SidecarSetUpgradeSpec = {
    updateTimestamp: now,
    hash: sidecarSet.metadata?.annotations?.[ANNOTATION_SIDECARSET_HASH] ?? '',
    sidecarSetName: name,
    sidecarList: list.length > 0 ? list : null,
  };
  if (latestRevision) entry.controllerRevision = latestRevision;
  entries[name] = entry;
  ann[ANNOTATION_SIDECARSET_HASH] = encodeUpgradeSpecMap(entries);
  if (parsed?.legacy) {
    const noImage = ann[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE];
    const p = noImage ? parseUpgradeSpecMap(noImage) : undefined;
    if (p) ann[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] = encodeUpgradeSpecMap(p.entries);
  }
  return ann;
}

/**
 * SS-5.8.2: the container of hot-upgrade sidecar `X` to receive the new image: the one running
 * the empty image (`X-1` first); else, with "ready" = container status ready and
 * state-consistent, `X-2` when only `X-1` is ready and `X-1` when only `X-2` is; else the
 * non-working container (SS-5.8.1).
 */
export function hotUpgradeTarget(pod: Pod, sidecarSet: SidecarSet, base: string, emptyImage: string): string {
  const [c1, c2] = hotUpgradeContainerNames(base);
  if (findContainer(pod, c1, false)?.image === emptyImage) return c1;
  if (findContainer(pod, c2, false)?.image === emptyImage) return c2;
  const ready = (n: string) =>
    !!pod.status?.containerStatuses?.find((s) => s.name === n)?.ready &&
    isPodStateConsistent(pod, sidecarSet, [n]);
  const r1 = ready(c1);
  const r2 = ready(c2);
  if (r1 && !r2) return c2;
  if (r2 && !r1) return c1;
  return findWorkingHotUpgradeContainer(pod.metadata?.annotations, base).other;
}

/**
 * SS-5.7.1 – SS-5.7.4 on a working copy (see `clonePodForUpdate`): sets new sidecar
 * images (never any other field), the hot-upgrade annotations, the hash entry and the update
 * state. Returns the names of the containers whose image changed.
 *
 * Cold sidecar: the pod container of the same name (init containers searched first) gets the
 * sidecar's image when it differs. Hot sidecar `X`: the target (SS-5.8.2) gets the image unless
 * the other container of the pair already runs it; the target becomes the working container,
 * `version.…/<target>` = S's resourceVersion, `versionalt.…/<target>` = the old
 * `version.…/<other>`, `versionalt.…/<other>` = S's resourceVersion. `cache` is passed on to
 * {@link updatePodSidecarSetHash}.
 */
export function upgradePodSidecars(
  pod: Pod,
  sidecarSet: SidecarSet,
  now: string,
  latestRevision?: string,
  cache?: SidecarSetAnnotationCache,
): string[] {
  const ann = annotationsOf(pod);
  const changed: string[] = [];
  const rv = sidecarSet.metadata?.resourceVersion ?? '';
  for (const sc of sidecarSet.spec?.containers ?? []) {
    if (sc.upgradeStrategy?.upgradeType !== 'HotUpgrade') {
      const target = findContainer(pod, sc.name, true);
      if (!target || target.image === sc.image) continue;
      target.image = sc.image;
      changed.push(sc.name);
      continue;
    }
    const empty = sc.upgradeStrategy.hotUpgradeEmptyImage ?? '';
    const target = hotUpgradeTarget(pod, sidecarSet, sc.name, empty);
    const [c1, c2] = hotUpgradeContainerNames(sc.name);
    const other = target === c1 ? c2 : c1;
    const targetC = findContainer(pod, target, false);
    if (!targetC || findContainer(pod, other, false)?.image === sc.image) continue;
    targetC.image = sc.image;
    const working = getWorkingHotUpgradeContainers(ann);
    working[sc.name] = target;
    ann[ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER] = goJsonStringify(working);
    const oldOtherVersion = ann[`${ANNOTATION_PREFIX_SIDECARSET_VERSION}${other}`] ?? '';
    ann[`${ANNOTATION_PREFIX_SIDECARSET_VERSION}${target}`] = rv;
    ann[`${ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT}${target}`] = oldOtherVersion;
    ann[`${ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT}${other}`] = rv;
    changed.push(target);
  }
  Object.assign(ann, updatePodSidecarSetHash(ann, sidecarSet, now, latestRevision, cache));
  recordUpdateState(pod, sidecarSet, changed, now);
  return changed;
}

/** SS-5.7.5: applies S's patchPodMetadata to the working copy; returns the error, if any. */
export function applyPatchPodMetadata(pod: Pod, sidecarSet: SidecarSet): string | undefined {
  const patches = sidecarSet.spec?.patchPodMetadata;
  if (!patches?.length) return undefined;
  const r = patchPodMetadata(annotationsOf(pod), patches);
  if (r.error !== undefined) return r.error;
  if (r.changed) pod.metadata!.annotations = r.annotations;
  return undefined;
}

/**
 * SS-5.7.5: the `SidecarSetUpgradable` condition with S's verdict merged into its message (a
 * JSON map SidecarSet name → bool): `True`/`AllSidecarsetUpgradable` when every value is true,
 * else `False`/`UpdateImmutableField`; written only when it changes.
 */
export function setUpgradableCondition(
  pod: Pod,
  sidecarSet: SidecarSet,
  upgradable: boolean,
  now: string,
): void {
  const conditions = [...(pod.status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === SIDECARSET_UPGRADABLE);
  let message: Record<string, boolean> = {};
  if (i >= 0 && conditions[i].message) {
    try {
      const m = JSON.parse(conditions[i].message as string) as unknown;
      if (m && typeof m === 'object' && !Array.isArray(m))
        message = Object.assign({}, m as Record<string, boolean>);
    } catch {
      // an unreadable message is replaced
    }
  }
  message[sidecarSet.metadata?.name ?? ''] = upgradable;
  const all = Object.values(message).every((v) => v === true);
  const cond: PodCondition = {
    type: SIDECARSET_UPGRADABLE,
    status: all ? 'True' : 'False',
    reason: all ? 'AllSidecarsetUpgradable' : 'UpdateImmutableField',
    message: goJsonStringify(message),
    lastTransitionTime: now,
  };
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === cond.status && old.reason === cond.reason && old.message === cond.message) return;
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  (pod as { status?: PodStatus }).status = { ...(pod.status ?? {}), conditions };
}

/**
 * SS-5.8.3 the hot-upgrade flip, on a working copy. The pod is flipped when (a) some HotUpgrade
 * sidecar's non-working container does not run the empty image, (b) the pod is state-consistent
 * over S's sidecar names except the non-working containers, and (c) it is Running, Ready and not
 * deleting, or every container status except the non-working ones is ready. Flipping sets those
 * containers to the empty image, `version.…/<non-working> = "0"`, `versionalt.…/<working> = "0"`,
 * and records their imageIDs (SS-5.7.4). The hash annotation is not touched. Returns whether the
 * pod was flipped.
 */
export function flipHotUpgradePod(pod: Pod, sidecarSet: SidecarSet, now: string): boolean {
  const hot = (sidecarSet.spec?.containers ?? []).filter(
    (c) => c.upgradeStrategy?.upgradeType === 'HotUpgrade',
  );
  if (hot.length === 0) return false;
  const ann = annotationsOf(pod);
  const pending: { working: string; other: string; empty: string }[] = [];
  const nonWorking = new Set<string>();
  for (const c of hot) {
    const w = findWorkingHotUpgradeContainer(ann, c.name);
    nonWorking.add(w.other);
    const empty = c.upgradeStrategy?.hotUpgradeEmptyImage ?? '';
    const container = findContainer(pod, w.other, false);
    if (container && container.image !== empty) pending.push({ ...w, empty });
  }
  if (pending.length === 0) return false;
  const names = sidecarContainerNames(sidecarSet).filter((n) => !nonWorking.has(n));
  if (!isPodStateConsistent(pod, sidecarSet, names)) return false;
  const podOk = pod.status?.phase === 'Running' && isPodReady(pod) && !pod.metadata?.deletionTimestamp;
  const othersReady = (pod.status?.containerStatuses ?? []).every((s) => nonWorking.has(s.name) || s.ready);
  if (!podOk && !othersReady) return false;
  for (const p of pending) {
    findContainer(pod, p.other, false)!.image = p.empty;
    ann[`${ANNOTATION_PREFIX_SIDECARSET_VERSION}${p.other}`] = '0';
    ann[`${ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT}${p.working}`] = '0';
  }
  recordUpdateState(
    pod,
    sidecarSet,
    pending.map((p) => p.other),
    now,
  );
  return true;
}
