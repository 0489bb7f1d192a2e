// ControllerRevisions and revision membership (docs/reference/core.md §1.1, §2.9, R3.9;
// docs/reference/cloneset.md §4.3, §12; docs/reference/statefulset.md R4.2–R4.6): building a revision for
// a workload's pod template, reading its data, history order and truncation, choosing the
// update revision and a free name (also docs/reference/daemonset.md §12.3, docs/reference/sidecarset.md SS-5.3.2,
// docs/reference/uniteddeployment.md §9.6), and deciding which revision a pod belongs to.
import type { KubeObject } from '@kruise-ts/api';
import { LABEL_CONTROLLER_REVISION_HASH, LABEL_LIFECYCLE_STATE, LifecycleStates } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { type FeatureGates, resolveFeatureGates } from '../contract/featureGates';
import { canonicalJSON } from '../json/canonicalJson';
import { computeHash } from '../kube/hash';

/** Label Kubernetes' controller history puts on revisions: the hash part of the name. */
export const LABEL_CONTROLLER_REVISION_HASH_KEY = 'controller.kubernetes.io/hash';

/** Kubernetes' limit on the name prefix of a revision (`ControllerRevisionName`). */
const MAX_REVISION_NAME_PREFIX = 223;

/** The JSON stored in a revision's `data`: `{"spec":{"template":{...,"$patch":"replace"}}}`. */
export interface RevisionData {
  spec: { template: Record<string, unknown> };
}

/**
 * The revision payload of a pod template (docs/reference/core.md §1.1): the template with an extra
 * `"$patch": "replace"` key, under `spec.template`.
 * Example: `{metadata:{labels:{app:'web'}}}` → `{spec:{template:{metadata:{labels:{app:'web'}},$patch:'replace'}}}`.
 */
export function makeRevisionData(template: PodTemplateSpec | Record<string, unknown>): RevisionData {
  return { spec: { template: { ...(template as Record<string, unknown>), $patch: 'replace' } } };
}

/** `<prefix>-<hash>` with the prefix cut to 223 characters (`ControllerRevisionName`). */
export function controllerRevisionName(prefix: string, hash: string): string {
  const p = prefix.length > MAX_REVISION_NAME_PREFIX ? prefix.slice(0, MAX_REVISION_NAME_PREFIX) : prefix;
  return `${p}-${hash}`;
}

/** Options of {@link newControllerRevision}. */
export interface NewControllerRevisionOptions {
  /** The workload owning the revision (its name, namespace, apiVersion, kind and uid are used). */
  parent: KubeObject;
  /** The pod template to version. */
  template: PodTemplateSpec;
  /** The revision number (see {@link nextRevisionNumber}). */
  revision: number;
  /** `status.collisionCount`; mixed into the hash when given. */
  collisionCount?: number | null;
  /** Labels of the revision; default: the template's labels. */
  labels?: Readonly<Record<string, string>>;
  /** Annotations of the revision (CloneSet/ASTS/ADS copy the workload's). */
  annotations?: Readonly<Record<string, string>>;
  /** Name prefix; default: the parent's name. */
  namePrefix?: string;
  /**
   * Label that receives the hash: `controller.kubernetes.io/hash` by default (Kubernetes'
   * history, CloneSet, ASTS, UnitedDeployment); `controller-revision-hash` for the DaemonSet
   * (docs/reference/daemonset.md §12); `null` for none.
   */
  hashLabelKey?: string | null;
}

/**
 * Builds the ControllerRevision for a workload's pod template (docs/reference/core.md §1.1,
 * docs/reference/cloneset.md §12): data = {@link makeRevisionData}, name `<parent>-<hash>` where hash =
 * `computeHash(data, collisionCount)`, labels = the template labels plus the hash label,
 * annotations as given, and an owner reference to the parent with `controller: true` and
 * `blockOwnerDeletion: true`.
 *
 * Example: parent CloneSet `sample`, template labels `{app: 'sample'}`, revision 1 → name
 * `sample-<10 chars>`, labels `{app: 'sample', 'controller.kubernetes.io/hash': '<10 chars>'}`.
 * The same template always gives the same name; another collisionCount gives another name.
 */
export function newControllerRevision(opts: NewControllerRevisionOptions): ControllerRevision {
  const data = makeRevisionData(opts.template);
  const hash = computeHash(data, opts.collisionCount);
  const labels: Record<string, string> = { ...(opts.labels ?? opts.template.metadata?.labels ?? {}) };
  const hashKey = opts.hashLabelKey === undefined ? LABEL_CONTROLLER_REVISION_HASH_KEY : opts.hashLabelKey;
  if (hashKey !== null) labels[hashKey] = hash;
  const pm = opts.parent.metadata;
  const metadata: ControllerRevision['metadata'] = {
    name: controllerRevisionName(opts.namePrefix ?? pm.name ?? '', hash),
    labels,
    ownerReferences: [
      {
        apiVersion: opts.parent.apiVersion,
        kind: opts.parent.kind,
        name: pm.name ?? '',
        uid: pm.uid ?? '',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
  if (pm.namespace !== undefined) metadata.namespace = pm.namespace;
  if (opts.annotations !== undefined) metadata.annotations = { ...opts.annotations };
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data, revision: opts.revision };
}

/**
 * `rev` as the object an action writes: a ControllerRevision as the API stores it, with its
 * apiVersion, kind and metadata present (those `newControllerRevision` builds always have them;
 * an observed revision missing one gets `apps/v1`, `ControllerRevision` or `{}`). The members
 * keep their order, so the JSON of a complete revision is unchanged.
 *
 * Example: `{ verb: 'create', object: revisionObject(candidate), reason: 'CreateRevision' }`.
 */
export function revisionObject(rev: ControllerRevision): KubeObject {
  return {
    ...rev,
    apiVersion: rev.apiVersion ?? 'apps/v1',
    kind: rev.kind ?? 'ControllerRevision',
    metadata: rev.metadata ?? {},
  };
}

/**
 * A revision's data as a JSON object, whether stored as the object the API returns or as
 * raw JSON text; `undefined` when absent, unparsable or not an object.
 */
export function getRevisionData(
  rev: ControllerRevision | null | undefined,
): Record<string, unknown> | undefined {
  const data = rev?.data as unknown;
  if (data === undefined || data === null) return undefined;
  if (typeof data === 'string') {
    try {
      const parsed: unknown = JSON.parse(data);
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }
  return typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

/** The pod template stored in a revision (`data.spec.template` without `$patch`), if any. */
export function revisionTemplate(rev: ControllerRevision | null | undefined): PodTemplateSpec | undefined {
  const spec = getRevisionData(rev)?.spec as Record<string, unknown> | undefined;
  const tpl = spec?.template;
  if (tpl === null || typeof tpl !== 'object' || Array.isArray(tpl)) return undefined;
  const { $patch: _patch, ...rest } = tpl as Record<string, unknown>;
  return rest as PodTemplateSpec;
}

/** The highest revision number + 1, or 1 when there are none (docs/reference/cloneset.md §12). */
export function nextRevisionNumber(revisions: readonly ControllerRevision[]): number {
  let max = 0;
  for (const r of revisions) max = Math.max(max, r.revision ?? 0);
  return max + 1;
}

function creationMs(r: ControllerRevision): number {
  const t = r.metadata?.creationTimestamp;
  const ms = t ? Date.parse(t) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * Kubernetes' `history.SortControllerRevisions` as a new array: by revision number, then
 * older `creationTimestamp` first, then name (docs/reference/cloneset.md §12, docs/reference/statefulset.md R4.3).
 */
export function sortControllerRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort((a, b) => {
    if (a.revision !== b.revision) return a.revision - b.revision;
    const ca = creationMs(a);
    const cb = creationMs(b);
    if (ca !== cb) return ca < cb ? -1 : 1;
    const na = a.metadata?.name ?? '';
    const nb = b.metadata?.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/**
 * Kubernetes' `history.EqualRevision`: false when both carry an integer
 * `controller.kubernetes.io/hash` label and the values differ; otherwise the data must be
 * equal. kruise-ts compares the parsed data (canonical JSON), so data given as text and as
 * an object compare equal when they encode the same JSON; Go compares the raw bytes.
 */
export function equalRevision(
  a: ControllerRevision | null | undefined,
  b: ControllerRevision | null | undefined,
): boolean {
  if (!a || !b) return !a && !b;
  const ha = a.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH_KEY];
  const hb = b.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH_KEY];
  const int = (s: string | undefined) => (s !== undefined && /^[+-]?\d+$/.test(s) ? Number(s) : undefined);
  const ia = int(ha);
  const ib = int(hb);
  if (ia !== undefined && ib !== undefined && ia !== ib) return false;
  const da = getRevisionData(a);
  const db = getRevisionData(b);
  if (da === undefined || db === undefined) return da === db && (a.data as unknown) === (b.data as unknown);
  return canonicalJSON(da) === canonicalJSON(db);
}

/**
 * The revisions equal to `needle` ({@link equalRevision}), in history order (oldest first).
 * The last one is the candidate to reuse (docs/reference/statefulset.md R4.4).
 */
export function findEqualRevisions(
  revisions: readonly ControllerRevision[],
  needle: ControllerRevision,
): ControllerRevision[] {
  return sortControllerRevisions(revisions).filter((r) => equalRevision(r, needle));
}

/** How a controller gets its update revision: see {@link chooseUpdateRevision}. */
export type UpdateRevisionChoice =
  /** The newest revision already equals the template: use it as is. */
  | { kind: 'latest'; revision: ControllerRevision; collisionCount: number }
  /** An older revision equals the template (a rollback): reuse it with the next revision number. */
  | { kind: 'reuse'; old: ControllerRevision; collisionCount: number }
  | NewRevisionChoice;

/** How a new revision gets its name: see {@link resolveRevisionNameCollision}. */
export type NewRevisionChoice =
  /** No revision equals the template: create `revision`, whose name is free. */
  | { kind: 'create'; revision: ControllerRevision; collisionCount: number }
  /**
   * The candidate's name is taken by a revision with equal data that is not among the
   * controller's own (Kubernetes' create answers AlreadyExists and the existing one is used):
   * use `revision`, the existing object, as is. Only when `taken` lists more than the
   * controller's revisions (see {@link ChooseUpdateRevisionOptions.taken}).
   */
  | { kind: 'existing'; revision: ControllerRevision; collisionCount: number };

/** Revision equality used by {@link chooseUpdateRevision}; {@link equalRevision} by default. */
export type RevisionEquality = (a: ControllerRevision, b: ControllerRevision) => boolean;

/** Options of {@link chooseUpdateRevision} and {@link resolveRevisionNameCollision}. */
export interface ChooseUpdateRevisionOptions {
  /**
   * When two revisions count as equal. Default {@link equalRevision} (data, plus the integer
   * `controller.kubernetes.io/hash` check). UnitedDeployment and the DaemonSet compare the data
   * only; SidecarSet parses the hash labels as 32-bit integers, as Go does.
   */
  equal?: RevisionEquality;
  /**
   * The revisions whose names a new revision must not take. Default: the `revisions` given
   * (the controller's own). Controllers that list their revisions by selector pass every
   * revision of the namespace here, so that a revision they do not list still blocks the name
   * (and is used as is when its data is equal: kind `existing`). Without `taken`, the kind is
   * never `existing`.
   */
  taken?: readonly ControllerRevision[];
}

/**
 * The update-revision rule CloneSet (docs/reference/cloneset.md §12), Advanced StatefulSet (R4.4),
 * SidecarSet (SS-5.3.2) and UnitedDeployment (§9.5–9.6) share, as Kubernetes' StatefulSet does:
 * build the candidate for the current template; if the newest equal revision is the newest
 * revision overall, use it; if an older revision is equal, reuse it (the caller bumps its
 * revision number); otherwise create the candidate, raising the collision count while its name
 * is taken by a revision with other data ({@link resolveRevisionNameCollision}).
 *
 * Example: revisions #1 (template A) and #2 (template B), template back to A → `reuse` #1, which
 * the caller renumbers #3. Template C whose hash collides with #2's name → collisionCount 0 → 1 and
 * a new name.
 *
 * `revisions` must be in history order (oldest first; they are not re-sorted);
 * `candidateFor(collisionCount)` builds the candidate revision for the current template.
 */
export function chooseUpdateRevision(
  revisions: readonly ControllerRevision[],
  candidateFor: (collisionCount: number) => ControllerRevision,
  collisionCount: number,
  options: ChooseUpdateRevisionOptions = {},
): UpdateRevisionChoice {
  const equal = options.equal ?? equalRevision;
  const candidate = candidateFor(collisionCount);
  let newestEqual: ControllerRevision | undefined;
  for (const r of revisions) if (equal(r, candidate)) newestEqual = r;
  if (newestEqual !== undefined) {
    if (newestEqual === revisions[revisions.length - 1])
      return { kind: 'latest', revision: newestEqual, collisionCount };
    return { kind: 'reuse', old: newestEqual, collisionCount };
  }
  // Without `taken` every clash is one of `revisions`, already found unequal above: it only
  // raises the count (never `existing`), as before `taken` existed.
  if (options.taken === undefined)
    return resolveRevisionNameCollision(revisions, candidateFor, collisionCount, () => false);
  return resolveRevisionNameCollision(options.taken, candidateFor, collisionCount, equal);
}

/**
 * The name step of creating a revision (docs/reference/cloneset.md §12, docs/reference/statefulset.md R4.4,
 * docs/reference/daemonset.md §12.3, docs/reference/sidecarset.md SS-5.3.2, docs/reference/uniteddeployment.md §9.6): while the
 * candidate's name is taken by a revision in `taken` with other data, raise the collision count
 * and rebuild the candidate; a name taken by a revision with equal data means that revision is
 * used (`existing`); a free name means `create`. The first revision in `taken` with the name counts.
 *
 * Example: `taken` holds `web-abc` with template A; the candidate for template C at count 0 is
 * also named `web-abc` → count 1, candidate `web-xyz` (free) → `{kind: 'create', collisionCount: 1}`.
 */
export function resolveRevisionNameCollision(
  taken: readonly ControllerRevision[],
  candidateFor: (collisionCount: number) => ControllerRevision,
  collisionCount: number,
  equal: RevisionEquality = equalRevision,
): NewRevisionChoice {
  let candidate = candidateFor(collisionCount);
  // A hash collision is vanishingly rare; the bound only guards against a candidateFor that
  // ignores the count.
  for (let guard = 0; guard < 1000; guard++) {
    const name = candidate.metadata?.name ?? '';
    const clash = taken.find((r) => (r.metadata?.name ?? '') === name);
    if (clash === undefined) break;
    if (equal(clash, candidate)) return { kind: 'existing', revision: clash, collisionCount };
    collisionCount++;
    candidate = candidateFor(collisionCount);
  }
  return { kind: 'create', revision: candidate, collisionCount };
}

/**
 * History truncation (docs/reference/cloneset.md §12, docs/reference/statefulset.md R4.6): among revisions whose
 * name is not in `live`, in history order, the oldest ones beyond `historyLimit` — i.e. the
 * revisions to delete.
 *
 * Example: 5 non-live revisions #1..#5 plus live #6, limit 2 → delete #1, #2, #3.
 */
export function revisionsToTruncate(
  revisions: readonly ControllerRevision[],
  live: ReadonlySet<string>,
  historyLimit: number,
): ControllerRevision[] {
  const nonLive = sortControllerRevisions(revisions).filter((r) => !live.has(r.metadata?.name ?? ''));
  const excess = nonLive.length - Math.max(0, historyLimit);
  return excess > 0 ? nonLive.slice(0, excess) : [];
}

/** The short hash of a revision name: the text after its last `-` (the whole name without one). */
export function shortHash(revisionName: string): string {
  return revisionName.slice(revisionName.lastIndexOf('-') + 1);
}

/** The pod's `controller-revision-hash` label, or `""`. */
export function getPodRevision(pod: Pod | null | undefined): string {
  return pod?.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
}

/**
 * Is the pod at this revision? The label must equal the name, or — with `shortHashAware`
 * (CloneSet's `hashEquals`, docs/reference/cloneset.md §4.3) — have the same last `-` segment.
 * Example: label `app-name-new` is at `new` and at `other-new` short-hash-aware, not exactly.
 */
export function isPodAtRevision(
  pod: Pod | null | undefined,
  revisionName: string,
  opts: { shortHashAware?: boolean } = {},
): boolean {
  const label = getPodRevision(pod);
  if (label === revisionName) return true;
  return opts.shortHashAware === true && shortHash(label) === shortHash(revisionName);
}

/**
 * R3.9 `isPodUpdate`: with gate `PreparingUpdateAsUpdate` on, a pod in lifecycle state
 * `PreparingUpdate` counts as updated; otherwise its `controller-revision-hash` label must
 * equal `updateRevision` or share its last `-` segment.
 * Example: label `app-name-new`, update revision `new` → true; `app-name-old` → false.
 */
export function isPodUpdate(
  pod: Pod | null | undefined,
  updateRevision: string,
  featureGates?: Partial<FeatureGates>,
): boolean {
  const gates = resolveFeatureGates(featureGates);
  if (
    gates.PreparingUpdateAsUpdate &&
    pod?.metadata?.labels?.[LABEL_LIFECYCLE_STATE] === LifecycleStates.PreparingUpdate
  ) {
    return true;
  }
  return isPodAtRevision(pod, updateRevision, { shortHashAware: true });
}
