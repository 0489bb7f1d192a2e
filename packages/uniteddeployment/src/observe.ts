// Observing subset workloads (docs/reference/uniteddeployment.md §7.1, §8): claiming workloads by controller
// reference (keep / release / adopt), finding each workload's pods, and summarising a workload as a
// Subset (replicas, partition, updated and updated-ready pod counts).
import type { KubeObject } from '@kruise-ts/api';
import {
  type Action,
  isPodActive,
  isPodReady,
  labelSelectorAsRequirements,
  matchesLabelSelector,
  requirementMatches,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, OwnerReference } from 'kubernetes-types/meta/v1.js';
import { LABEL_SUBSET_NAME, LABEL_UD_REVISION, observedPartition, type SubsetKind } from './workloads';

/** A claimed workload summarised (§8). */
export interface ObservedSubset {
  kind: SubsetKind;
  workload: KubeObject;
  pods: Pod[];
  spec: { subsetName: string; replicas: number; partition: number };
  status: {
    observedGeneration: number;
    replicas: number;
    readyReplicas: number;
    updatedReplicas: number;
    updatedReadyReplicas: number;
  };
}

/**
 * A label-selector matcher parsed once (Kubernetes' `LabelSelectorAsSelector`), for matching many
 * objects: a missing or invalid selector matches nothing, an empty one everything.
 */
export function selectorMatcher(
  selector: LabelSelector | null | undefined,
): (labels: Record<string, string> | undefined) => boolean {
  if (!selector) return () => false;
  let reqs: ReturnType<typeof labelSelectorAsRequirements>;
  try {
    reqs = labelSelectorAsRequirements(selector) ?? [];
  } catch {
    return () => false;
  }
  const list = reqs ?? [];
  return (labels) => list.every((r) => requirementMatches(r, labels));
}

/** The controller owner reference of an object, if any. */
export function controllerRefOf(obj: {
  metadata?: { ownerReferences?: OwnerReference[] };
}): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** Whether `ref` points at `owner` (by uid when both have one, else by kind and name). */
export function refersTo(ref: OwnerReference, owner: KubeObject): boolean {
  if (ref.uid && owner.metadata.uid) return ref.uid === owner.metadata.uid;
  return ref.kind === owner.kind && ref.name === owner.metadata.name;
}

/** Result of claiming objects for an owner. */
export interface ClaimResult<T> {
  claimed: T[];
  /** Patch actions for adoptions and releases, in list order. */
  actions: Action[];
}

/**
 * Standard controller-ref claiming (§7.1 step 1): owned and matching → keep; owned and not matching
 * → release (owner reference removed); orphan and matching (not being deleted) → adopt; owned by
 * another controller → ignored. Adoption and release are merge patches of `ownerReferences`.
 */
export function claimObjects<T extends KubeObject>(
  owner: KubeObject,
  ownerRef: OwnerReference,
  selector: LabelSelector | null | undefined,
  objects: readonly T[],
  reasons: { adopt: string; release: string },
): ClaimResult<T> {
  const claimed: T[] = [];
  const actions: Action[] = [];
  for (const obj of objects) {
    const ref = controllerRefOf(obj);
    const matches = matchesLabelSelector(selector, obj.metadata.labels);
    const target = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: obj.metadata.name ?? '',
      ...(obj.metadata.namespace !== undefined ? { namespace: obj.metadata.namespace } : {}),
      ...(obj.metadata.uid !== undefined ? { uid: obj.metadata.uid } : {}),
    };
    if (ref) {
      if (!refersTo(ref, owner)) continue;
      if (matches) {
        claimed.push(obj);
      } else if (!obj.metadata.deletionTimestamp) {
        const rest = (obj.metadata.ownerReferences ?? []).filter((r) => r !== ref);
        actions.push({
          verb: 'patch',
          target,
          patchType: 'merge',
          patch: { metadata: { ownerReferences: rest.length ? rest : null } },
          reason: reasons.release,
        });
      }
    } else if (matches && !obj.metadata.deletionTimestamp) {
      claimed.push(obj);
      actions.push({
        verb: 'patch',
        target,
        patchType: 'merge',
        patch: { metadata: { ownerReferences: [...(obj.metadata.ownerReferences ?? []), ownerRef] } },
        reason: reasons.adopt,
      });
    }
  }
  return { claimed, actions };
}

/** Pods indexed by their controller owner, for the per-workload lookups of §8. */
export interface PodIndex {
  byOwnerUid: Map<string, Pod[]>;
  byOwnerName: Map<string, Pod[]>;
  orphans: Pod[];
}

/** Builds a {@link PodIndex} in one pass over the pods. */
export function indexPods(pods: readonly Pod[]): PodIndex {
  const index: PodIndex = { byOwnerUid: new Map(), byOwnerName: new Map(), orphans: [] };
  for (const pod of pods) {
    const ref = controllerRefOf(pod);
    if (!ref) {
      index.orphans.push(pod);
      continue;
    }
    if (ref.uid) push(index.byOwnerUid, ref.uid, pod);
    push(index.byOwnerName, `${ref.kind}/${ref.name}`, pod);
  }
  return index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function ownedBy(index: PodIndex, owner: KubeObject): Pod[] {
  const byName = index.byOwnerName.get(`${owner.kind}/${owner.metadata.name}`) ?? [];
  if (!owner.metadata.uid) return byName;
  const byUid = index.byOwnerUid.get(owner.metadata.uid) ?? [];
  const withoutUid = byName.filter((p) => !controllerRefOf(p)?.uid);
  return withoutUid.length ? [...byUid, ...withoutUid] : byUid;
}

/**
 * The pods of a workload (§8): for StatefulSet, Advanced StatefulSet and CloneSet the pods owned by
 * it (or orphans) that match its selector; for a Deployment the pods of its ReplicaSets (when no
 * ReplicaSet of it is given, pods matching its selector owned by some ReplicaSet or by nobody).
 */
export function podsOfWorkload(
  kind: SubsetKind,
  workload: KubeObject,
  index: PodIndex,
  replicaSets: readonly KubeObject[],
): Pod[] {
  const matches = selectorMatcher((workload.spec as { selector?: LabelSelector } | undefined)?.selector);
  const matching = (pods: Pod[]) => pods.filter((p) => matches(p.metadata?.labels));
  const orphans = () => matching(index.orphans).filter((p) => !p.metadata?.deletionTimestamp);
  if (kind !== 'Deployment') return [...matching(ownedBy(index, workload)), ...orphans()];
  const sets = replicaSets.filter((rs) => {
    const ref = controllerRefOf(rs);
    return ref !== undefined && refersTo(ref, workload);
  });
  if (sets.length > 0) return sets.flatMap((rs) => ownedBy(index, rs));
  const viaAnyReplicaSet: Pod[] = [];
  for (const [key, pods] of index.byOwnerName) {
    if (key.startsWith('ReplicaSet/')) viaAnyReplicaSet.push(...matching(pods));
  }
  return [...viaAnyReplicaSet, ...orphans()];
}

export { isPodActive, isPodReady };

/**
 * Summarises a claimed workload as a Subset (§8): name from the subset-name label, `spec.replicas`
 * (0 if nil), the observed partition, the workload status, and from the pods the number at
 * `expectedRevision` and active (`updatedReplicas`) and of those the ready ones.
 * Example (upstream `asts`): OnDelete, pods at v1 and v2, workload at v2 → partition 1, updated 1.
 */
export function convertToSubset(
  kind: SubsetKind,
  workload: KubeObject,
  pods: Pod[],
  expectedRevision: string,
): ObservedSubset {
  const spec = (workload.spec ?? {}) as { replicas?: number };
  const status = (workload.status ?? {}) as {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
  };
  let updated = 0;
  let updatedReady = 0;
  for (const pod of pods) {
    if (pod.metadata?.labels?.[LABEL_UD_REVISION] !== expectedRevision || !isPodActive(pod)) continue;
    updated++;
    if (isPodReady(pod)) updatedReady++;
  }
  return {
    kind,
    workload,
    pods,
    spec: {
      subsetName: workload.metadata.labels?.[LABEL_SUBSET_NAME] ?? '',
      replicas: spec.replicas ?? 0,
      partition: observedPartition(kind, workload, pods),
    },
    status: {
      observedGeneration: status.observedGeneration ?? 0,
      replicas: status.replicas ?? 0,
      readyReplicas: status.readyReplicas ?? 0,
      updatedReplicas: updated,
      updatedReadyReplicas: updatedReady,
    },
  };
}
