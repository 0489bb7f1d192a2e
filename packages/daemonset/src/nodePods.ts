// Mapping pods to nodes (docs/reference/daemonset.md §4): controller-ref claiming (§4.1), the
// target node of a pod (§4.2), the node → pods map (§4.3) and "oldest first" (§4.4).
import { type Action, labelSelectorMatcher, type ObjectRef } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { Reasons } from './constants';
import type { DaemonSet } from './types';

/** The controller owner reference the DaemonSet puts on its pods and revisions (§6 step 5). */
export function daemonSetControllerRef(ds: DaemonSet): OwnerReference {
  return {
    apiVersion: ds.apiVersion || 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    name: ds.metadata.name ?? '',
    uid: ds.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The ObjectRef of a pod. */
export function podRef(pod: Pod): ObjectRef {
  const ref: ObjectRef = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '' };
  if (pod.metadata?.namespace !== undefined) ref.namespace = pod.metadata.namespace;
  if (pod.metadata?.uid !== undefined) ref.uid = pod.metadata.uid;
  return ref;
}

/** The controller owner reference of an object, if any. */
export function controllerRefOf(
  meta: { ownerReferences?: OwnerReference[] } | undefined,
): OwnerReference | undefined {
  return meta?.ownerReferences?.find((r) => r.controller === true);
}

/**
 * Whether `ref` points at this DaemonSet: equal uids when both are known, otherwise
 * kind `DaemonSet` of group `apps.kruise.io` with the same name.
 */
export function refersToDaemonSet(ref: OwnerReference, ds: DaemonSet): boolean {
  if (ref.uid && ds.metadata.uid) return ref.uid === ds.metadata.uid;
  return (
    ref.kind === 'DaemonSet' && ref.apiVersion.startsWith('apps.kruise.io/') && ref.name === ds.metadata.name
  );
}

/** Result of claiming (§4.1). */
export interface ClaimedPods {
  /** Pods the DaemonSet manages after adoption/release (adopted ones carry the new owner reference). */
  pods: Pod[];
  /** Adoption and release patches. */
  actions: Action[];
}

/**
 * §4.1 controller-ref claiming over all pods of the namespace: owned and matching → kept;
 * owned and no longer matching → released; orphan, matching and not deleting → adopted;
 * owned by another controller → ignored.
 */
export function claimDaemonPods(ds: DaemonSet, pods: readonly Pod[]): ClaimedPods {
  const out: Pod[] = [];
  const actions: Action[] = [];
  const ns = ds.metadata.namespace;
  const selects = labelSelectorMatcher(ds.spec.selector);
  for (const pod of pods) {
    if (ns !== undefined && pod.metadata?.namespace !== undefined && pod.metadata.namespace !== ns) continue;
    const labels = pod.metadata?.labels ?? {};
    const matches = selects(labels);
    const ref = controllerRefOf(pod.metadata);
    if (ref) {
      if (!refersToDaemonSet(ref, ds)) continue;
      if (matches) {
        out.push(pod);
      } else if (!pod.metadata?.deletionTimestamp) {
        const owners = (pod.metadata?.ownerReferences ?? []).filter((r) => r !== ref);
        actions.push({
          verb: 'patch',
          target: podRef(pod),
          patchType: 'merge',
          patch: { metadata: { ownerReferences: owners.length > 0 ? owners : null } },
          reason: Reasons.ReleasePod,
        });
      }
      continue;
    }
    if (!matches || pod.metadata?.deletionTimestamp) continue;
    const owners = [...(pod.metadata?.ownerReferences ?? []), daemonSetControllerRef(ds)];
    actions.push({
      verb: 'patch',
      target: podRef(pod),
      patchType: 'merge',
      patch: { metadata: { ownerReferences: owners } },
      reason: Reasons.AdoptPod,
    });
    out.push({ ...pod, metadata: { ...pod.metadata, ownerReferences: owners } });
  }
  return { pods: out, actions };
}

/**
 * §4.2: `spec.nodeName` if set, otherwise the single value of a required node-affinity
 * `matchFields` requirement `metadata.name In [x]`; `undefined` for pods with neither.
 */
export function getTargetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** Creation time in ms; an unset or unparsable timestamp counts as the oldest. */
function creationTime(pod: Pod): number {
  const t = pod.metadata?.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : Number.NaN;
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * §4.4 "oldest first": pods with `spec.nodeName` before those without; then by
 * `creationTimestamp` ascending (unset counts as the oldest); then by name.
 */
export function compareOldestFirst(a: Pod, b: Pod): number {
  const an = a.spec?.nodeName ? 0 : 1;
  const bn = b.spec?.nodeName ? 0 : 1;
  if (an !== bn) return an - bn;
  const at = creationTime(a);
  const bt = creationTime(b);
  if (at !== bt) return at < bt ? -1 : 1;
  const aName = a.metadata?.name ?? '';
  const bName = b.metadata?.name ?? '';
  return aName < bName ? -1 : aName > bName ? 1 : 0;
}

/** The node → pods map of §4.3. Deleting pods are included; each list is sorted oldest first. */
export type NodeToPods = Map<string, Pod[]>;

/**
 * Builds `nodeToPods` (§4.3): pods without a target node are ignored. Insertion order is
 * the order in which nodes first appear among the pods.
 */
export function getNodesToDaemonPods(pods: readonly Pod[]): NodeToPods {
  const map: NodeToPods = new Map();
  for (const pod of pods) {
    const node = getTargetNodeName(pod);
    if (node === undefined) continue;
    const list = map.get(node);
    if (list) list.push(pod);
    else map.set(node, [pod]);
  }
  for (const list of map.values()) if (list.length > 1) list.sort(compareOldestFirst);
  return map;
}
