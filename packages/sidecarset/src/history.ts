// SidecarSet ControllerRevisions (docs/reference/sidecarset.md SS-5.3 and SS-4.2.2): the revision
// payload and name, registering the latest revision (create, reuse, renumber on rollback),
// history truncation, and the "history SidecarSet" the webhook injects from a revision.
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  DEFAULT_KRUISE_NAMESPACE,
  LABEL_CONTROLLER_HASH,
  LABEL_SIDECARSET_CUSTOM_VERSION,
  LABEL_SIDECARSET_NAME,
  type SidecarSet,
  type SidecarSetSpec,
} from '@kruise-ts/api';
import {
  chooseUpdateRevision,
  fnv32,
  getRevisionData,
  goJsonStringify,
  parseGoInt,
  safeEncodeString,
  sortControllerRevisions,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { getPodSidecarSetControllerRevision } from './annotations';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash';

/** The spec fields a revision records (SS-5.3.1), in their sorted key order. */
const RECORDED_FIELDS = [
  'containers',
  'imagePullSecrets',
  'initContainers',
  'patchPodMetadata',
  'volumes',
] as const;

/**
 * SS-5.3.1 revision `data`: `{"spec":{"$patch":"replace","containers":…,"imagePullSecrets":…,
 * "initContainers":…,"patchPodMetadata":…,"volumes":…}}` with `null` for absent fields.
 */
export function sidecarSetRevisionData(sidecarSet: SidecarSet): { spec: Record<string, unknown> } {
  const spec: Record<string, unknown> = { $patch: 'replace' };
  const src = (sidecarSet.spec ?? {}) as Record<string, unknown>;
  for (const f of RECORDED_FIELDS) spec[f] = src[f] ?? null;
  return { spec };
}

/** The stored data of a revision as the bytes Go compares (sorted-key JSON), or `""`. */
function dataText(rev: ControllerRevision): string {
  const d = getRevisionData(rev);
  return d === undefined ? '' : goJsonStringify(d);
}

/**
 * SS-5.3.2 revision name: `<S.name>-<SafeEncode(decimal FNV-1 32-bit hash of the data bytes
 * followed by the decimal collisionCount)>` (Kubernetes' `HashControllerRevision`).
 *
 * Example: data hashing to 1129974074 with collisionCount 0 → FNV-1 continues over `"0"`;
 * the decimal result is mapped character by character (`'1'` = 49, 49 mod 27 = 22 → `'5'`).
 */
export function sidecarSetRevisionHash(data: unknown, collisionCount: number): string {
  const h = fnv32(String(collisionCount), fnv32(goJsonStringify(data)));
  return safeEncodeString(String(h));
}

/** The revisions of S: labelled `kruise.io/sidecarset-name=<S.name>` in the kruise namespace. */
export function ownedRevisions(
  sidecarSet: SidecarSet,
  revisions: readonly ControllerRevision[],
  kruiseNamespace: string = DEFAULT_KRUISE_NAMESPACE,
): ControllerRevision[] {
  const name = sidecarSet.metadata?.name ?? '';
  return revisions.filter(
    (r) =>
      (r.metadata?.namespace ?? '') === kruiseNamespace &&
      r.metadata?.labels?.[LABEL_SIDECARSET_NAME] === name,
  );
}

/** SS-5.3.1: a new revision of S with the given number and collision count. */
export function newSidecarSetRevision(
  sidecarSet: SidecarSet,
  revision: number,
  collisionCount: number,
  kruiseNamespace: string = DEFAULT_KRUISE_NAMESPACE,
): ControllerRevision {
  const data = sidecarSetRevisionData(sidecarSet);
  const hash = sidecarSetRevisionHash(data, collisionCount);
  const name = sidecarSet.metadata?.name ?? '';
  const ownerRef: Record<string, unknown> = {
    apiVersion: sidecarSet.apiVersion || 'apps.kruise.io/v1alpha1',
    kind: sidecarSet.kind || 'SidecarSet',
    name,
    uid: sidecarSet.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${name}-${hash}`,
      namespace: kruiseNamespace,
      labels: {
        ...(sidecarSet.metadata?.labels ?? {}),
        [LABEL_SIDECARSET_NAME]: name,
        [LABEL_CONTROLLER_HASH]: hash,
      },
      annotations: { ...(sidecarSet.metadata?.annotations ?? {}) },
      ownerReferences: [ownerRef as never],
    },
    data: data as never,
    revision,
  };
}

/** Kubernetes' `EqualRevision` on the stored bytes (hash labels only count when both are integers). */
function equalRevision(a: ControllerRevision, b: ControllerRevision): boolean {
  const ha = parseGoInt(a.metadata?.labels?.[LABEL_CONTROLLER_HASH] ?? '', 32);
  const hb = parseGoInt(b.metadata?.labels?.[LABEL_CONTROLLER_HASH] ?? '', 32);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return dataText(a) === dataText(b);
}

/** What registering the latest revision decided (SS-5.3.2). */
export interface RegisterRevisionResult {
  /** The latest revision after this round. */
  latest: ControllerRevision;
  /** S's revisions after this round, in history order. */
  revisions: ControllerRevision[];
  /** `status.collisionCount` after this round. */
  collisionCount: number;
  /** Revisions to create. */
  create: ControllerRevision[];
  /** Revisions to update (renumbered, or given the custom-version label). */
  update: ControllerRevision[];
}

/**
 * SS-5.3.2: registers S's current spec as the latest revision.
 * - the newest stored revision with equal data is already the newest → nothing changes;
 * - an older equal one → renumbered to the next number (roll-back);
 * - none → a new revision; a name taken by different data bumps `collisionCount` and retries.
 * S's `apps.kruise.io/sidecarset-custom-version` label is copied onto the latest revision.
 *
 * Example (upstream `TestGetActiveRevisions`): v0 → revision 1; v1 → revision 2 (five times in
 * a row, still 2); v0 again → the revision 1 object renumbered to 3.
 */
export function registerLatestRevision(
  sidecarSet: SidecarSet,
  allRevisions: readonly ControllerRevision[],
  kruiseNamespace: string = DEFAULT_KRUISE_NAMESPACE,
): RegisterRevisionResult {
  const owned = sortControllerRevisions(ownedRevisions(sidecarSet, allRevisions, kruiseNamespace));
  const next = owned.length === 0 ? 1 : owned[owned.length - 1].revision + 1;
  const candidateFor = (collisions: number) =>
    newSidecarSetRevision(sidecarSet, next, collisions, kruiseNamespace);
  // Any revision of the kruise namespace blocks a name, not only S's own.
  const taken = allRevisions.filter((r) => (r.metadata?.namespace ?? '') === kruiseNamespace);
  const choice = chooseUpdateRevision(owned, candidateFor, sidecarSet.status?.collisionCount ?? 0, {
    equal: equalRevision,
    taken,
  });
  const { collisionCount } = choice;
  const create: ControllerRevision[] = [];
  const update: ControllerRevision[] = [];
  let revisions = owned;
  let latest: ControllerRevision;
  if (choice.kind === 'latest') {
    latest = choice.revision;
  } else if (choice.kind === 'reuse') {
    const old = choice.old;
    latest = { ...old, revision: next };
    update.push(latest);
    revisions = [...owned.filter((r) => r !== old), latest];
  } else {
    // `existing` (a revision of another owner with S's name and data): S's candidate is still
    // what gets created and recorded.
    latest = choice.kind === 'create' ? choice.revision : candidateFor(collisionCount);
    create.push(latest);
    revisions = [...owned, latest];
  }
  const custom = sidecarSet.metadata?.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION];
  if (custom !== undefined && latest.metadata?.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION] !== custom) {
    const labelled = {
      ...latest,
      metadata: {
        ...latest.metadata,
        labels: { ...(latest.metadata?.labels ?? {}), [LABEL_SIDECARSET_CUSTOM_VERSION]: custom },
      },
    };
    if (create.includes(latest)) create[create.indexOf(latest)] = labelled;
    else if (update.includes(latest)) update[update.indexOf(latest)] = labelled;
    else update.push(labelled);
    revisions = revisions.map((r) => (r === latest ? labelled : r));
    latest = labelled;
  }
  return { latest, revisions, collisionCount, create, update };
}

/** SS-5.3.4 truncation outcome: the revisions to delete and the error when not enough could go. */
export interface TruncateResult {
  delete: ControllerRevision[];
  error?: string;
}

/** The newest revision labelled with a custom version (SS-4.2.2 ordering), if any. */
export function newestCustomVersionRevision(
  sidecarSet: SidecarSet,
  revisions: readonly ControllerRevision[],
  customVersion: string,
): ControllerRevision | undefined {
  const name = sidecarSet.metadata?.name ?? '';
  const matching = revisions.filter(
    (r) =>
      r.metadata?.labels?.[LABEL_SIDECARSET_NAME] === name &&
      r.metadata?.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION] === customVersion,
  );
  return sortControllerRevisions(matching).at(-1);
}

/**
 * SS-5.3.4 history truncation. `limit = max(1, revisionHistoryLimit)` (10 when nil). When more
 * revisions are stored, walk them in ascending revision order, **excluding the newest**, and
 * delete inactive ones until `count - limit` are gone. Active = the `controllerRevision` names
 * in the pods' hash entries for S, `injectionStrategy.revision.revisionName`, and the newest
 * revision labelled with `injectionStrategy.revision.customVersion`. If fewer can go, the error
 * `failed to limit the number of stored revisions, limited: <limit>, actual: <limit+remaining>, name: <S>`.
 *
 * Example (upstream `TestTruncateHistory/exact-8`): 15 revisions, pods on 1…8, limit 10 → delete
 * 9…13, keep 1…8, 14, 15.
 */
export function truncateHistory(
  sidecarSet: SidecarSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
): TruncateResult {
  const rhl = sidecarSet.spec?.revisionHistoryLimit;
  const limit = rhl === undefined || rhl === null ? 10 : Math.max(1, rhl);
  const sorted = sortControllerRevisions(revisions);
  if (sorted.length <= limit) return { delete: [] };
  const name = sidecarSet.metadata?.name ?? '';
  const active = new Set<string>();
  for (const p of pods) {
    const rev = getPodSidecarSetControllerRevision(p.metadata?.annotations, name);
    if (rev) active.add(rev);
  }
  const inj = sidecarSet.spec?.injectionStrategy?.revision;
  if (inj?.revisionName) active.add(inj.revisionName);
  if (inj?.customVersion) {
    const r = newestCustomVersionRevision(sidecarSet, sorted, inj.customVersion);
    if (r?.metadata?.name) active.add(r.metadata.name);
  }
  const need = sorted.length - limit;
  const del: ControllerRevision[] = [];
  for (const r of sorted.slice(0, -1)) {
    if (del.length >= need) break;
    if (!active.has(r.metadata?.name ?? '')) del.push(r);
  }
  if (del.length < need) {
    return {
      delete: del,
      error: `failed to limit the number of stored revisions, limited: ${limit}, actual: ${limit + need - del.length}, name: ${name}`,
    };
  }
  return { delete: del };
}

/**
 * Removes the element at `index` and appends `replacement` (the renumbering step of SS-5.3.2).
 * Example (upstream `TestReplaceRevision/2`): `[1..10]`, index 2, new 11 → `[1, 2, 4, …, 10, 11]`.
 */
export function replaceRevision<T>(revisions: readonly T[], index: number, replacement: T): T[] {
  return [...revisions.slice(0, index), ...revisions.slice(index + 1), replacement];
}

/** Where the history SidecarSet comes from, or why it cannot be found (SS-4.2.2). */
export type HistoryResult = { sidecarSet: SidecarSet; error?: undefined } | { error: string };

/**
 * SS-4.2.2: the *history SidecarSet* named by `injectionStrategy.revision`: the revision is
 * looked up in the kruise namespace by `revisionName` (precedence), else as the newest revision
 * of S labelled with `customVersion`. The result is S with `spec` **replaced** by the recorded
 * fields (volumes, containers, initContainers, imagePullSecrets, patchPodMetadata), hash
 * annotations from the revision (recomputed when absent), and `status.latestRevision` = the
 * revision name. Not found → error (the pod is rejected).
 */
export function getHistorySidecarSet(
  sidecarSet: SidecarSet,
  revisions: readonly ControllerRevision[],
  kruiseNamespace: string = DEFAULT_KRUISE_NAMESPACE,
): HistoryResult {
  const inj = sidecarSet.spec?.injectionStrategy?.revision;
  const inNs = revisions.filter((r) => (r.metadata?.namespace ?? '') === kruiseNamespace);
  let rev: ControllerRevision | undefined;
  if (inj?.revisionName) {
    rev = inNs.find((r) => r.metadata?.name === inj.revisionName);
    if (!rev) return { error: `controllerrevisions "${inj.revisionName}" not found` };
  } else if (inj?.customVersion) {
    rev = newestCustomVersionRevision(sidecarSet, inNs, inj.customVersion);
    if (!rev) {
      return {
        error: `no ControllerRevision of SidecarSet ${sidecarSet.metadata?.name ?? ''} with custom version ${inj.customVersion} found`,
      };
    }
  } else {
    return { error: 'revisionName and customVersion cannot be empty simultaneously' };
  }
  const recorded = (getRevisionData(rev)?.spec ?? {}) as Record<string, unknown>;
  const spec: Record<string, unknown> = {};
  for (const f of RECORDED_FIELDS)
    if (recorded[f] !== undefined && recorded[f] !== null) spec[f] = recorded[f];
  const restored: SidecarSet = { ...sidecarSet, spec: spec as SidecarSetSpec };
  const ra = rev.metadata?.annotations ?? {};
  const annotations: Record<string, string> = Object.assign({}, sidecarSet.metadata?.annotations);
  annotations[ANNOTATION_SIDECARSET_HASH] = ra[ANNOTATION_SIDECARSET_HASH] ?? sidecarSetHash(restored);
  annotations[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] =
    ra[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] ?? sidecarSetHashWithoutImage(restored);
  return {
    sidecarSet: {
      ...restored,
      metadata: { ...sidecarSet.metadata, annotations },
      status: {
        ...(sidecarSet.status ?? { matchedPods: 0, updatedPods: 0, readyPods: 0 }),
        latestRevision: rev.metadata?.name ?? '',
      },
    },
  };
}
