// Ownership and bookkeeping (docs/reference/cloneset.md §1 steps 4–7, §3, §7.4): which pods, PVCs
// and revisions belong to the CloneSet, active vs inactive pods, release of pods whose
// labels left the selector, and the `disablePVCReuse` PVC cleanup.
import { type CloneSet, LABEL_CLONESET_INSTANCE_ID } from '@kruise-ts/api';
import { type Action, labelSelectorAsRequirements, requirementMatches } from '@kruise-ts/core';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { type ListingCache, recallListing, rememberListing } from './listingCache';
import { PodBits, type PodContentFacts, readPodContentFacts } from './podContent';
import { coreRef } from './podPatch';
import { Reasons } from './reasons';

interface Owned {
  metadata?: { ownerReferences?: OwnerReference[]; namespace?: string };
}

/**
 * Does the object carry an ownerReference to this CloneSet (§1 step 4)? By UID; a CloneSet
 * without a UID (not yet stored, e.g. read from a YAML file) matches references of kind
 * CloneSet with its name. The namespace must be the CloneSet's.
 */
export function isOwnedBy(obj: Owned, cs: CloneSet): boolean {
  if ((obj.metadata?.namespace ?? '') !== (cs.metadata?.namespace ?? '')) return false;
  const refs = obj.metadata?.ownerReferences;
  if (!refs) return false;
  const uid = cs.metadata?.uid;
  for (const r of refs) {
    if (uid ? r.uid === uid : r.kind === 'CloneSet' && r.name === cs.metadata?.name) return true;
  }
  return false;
}

/** §1 step 4: inactive = phase Succeeded or Failed, or a deletionTimestamp. */
export function isPodActiveForCloneSet(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** The controller ownerReference a CloneSet puts on its pods and PVCs (§7.2). */
export function controllerRefOf(cs: CloneSet): OwnerReference {
  return {
    apiVersion: cs.apiVersion ?? 'apps.kruise.io/v1alpha1',
    kind: cs.kind ?? 'CloneSet',
    name: cs.metadata?.name ?? '',
    uid: cs.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The owned pods split as §1 steps 4 and 7 do. */
export interface ListedPods {
  /** Active owned pods still matching the selector: "the pods". */
  active: Pod[];
  /** The content facts of each active pod (same order), for the fact table. */
  activeContents: PodContentFacts[];
  /** Owned pods that are terminating or finished. */
  inactive: Pod[];
  /** Active owned pods whose labels left the selector: released and ignored (§3.2). */
  released: Pod[];
  /** Release patches for the released pods. */
  releaseActions: Action[];
}

/** How {@link listPods} classes a pod (kept with the listing in the CloneSet cache). */
const NOT_OWNED = 0;
const INACTIVE = 1;
const RELEASED = 2;
const ACTIVE = 3;

/**
 * §1 steps 4 and 7: owned pods (never orphans: they are not adopted), split into active and
 * inactive; an active owned pod whose labels no longer match the selector is released (its
 * ownerReference to the CloneSet is removed with a merge patch) and ignored.
 *
 * The class of each pod depends only on the pod and on the CloneSet's namespace, identity
 * (uid, or name without one) and selector: with a `cache` it is kept with the pod's content
 * facts in the listing of that key (listingCache.ts), so an unchanged pod of the same CloneSet is
 * not read again. Without one every pod is read.
 *
 * Example: a pod owned by the CloneSet but labelled `app: other` (the selector is `app: sample`)
 * is released; a terminating one is inactive; a pod of another owner is not listed at all.
 */
export function listPods(cs: CloneSet, pods: readonly Pod[], cache?: ListingCache): ListedPods {
  const classify = podClassifier(cs);
  const key = listingKey(cs);
  const listing = recallListing(cache?.listings.get(key), pods, (pod) => {
    const facts = readPodContentFacts(pod);
    return { facts, cls: classify(pod, (facts.bits & PodBits.ACTIVE) !== 0) };
  });
  const active: Pod[] = [];
  const activeContents: PodContentFacts[] = [];
  const inactive: Pod[] = [];
  const released: Pod[] = [];
  const releaseActions: Action[] = [];
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const c = listing.classes[i];
    if (c === ACTIVE) {
      active.push(pod);
      activeContents.push(listing.facts[i]);
    } else if (c === INACTIVE) inactive.push(pod);
    else if (c === RELEASED) {
      releaseActions.push(releaseAction(cs, pod));
      released.push(pod);
    }
  }
  if (cache !== undefined) rememberListing(cache, key, listing);
  return { active, activeContents, inactive, released, releaseActions };
}

/** What the class of a pod depends on besides the pod: namespace, owner identity, selector. */
function listingKey(cs: CloneSet): string {
  const m = cs.metadata;
  const owner = m?.uid ? `uid:${m.uid}` : `name:${m?.name ?? ''}`;
  return `${m?.namespace ?? ''}\u0000${owner}\u0000${JSON.stringify(cs.spec.selector ?? null)}`;
}

/** The §1 step 4/7 class of a pod for this CloneSet (`active`: isPodActiveForCloneSet). */
function podClassifier(cs: CloneSet): (pod: Pod, active: boolean) => number {
  // the selector is compiled on first use (validation already accepted it); an invalid one matches nothing
  let requirements: ReturnType<typeof labelSelectorAsRequirements> | undefined | false = false;
  const matches = (labels: Record<string, string>) => {
    if (requirements === false) {
      try {
        requirements = labelSelectorAsRequirements(cs.spec.selector);
      } catch {
        requirements = undefined;
      }
    }
    if (requirements === undefined || requirements === null) return false;
    for (let i = 0; i < requirements.length; i++)
      if (!requirementMatches(requirements[i], labels)) return false;
    return true;
  };
  return (pod, active) => {
    if (!isOwnedBy(pod, cs)) return NOT_OWNED;
    if (!active) return INACTIVE;
    return matches(pod.metadata?.labels ?? {}) ? ACTIVE : RELEASED;
  };
}

/** The merge patch removing this CloneSet's ownerReference from a released pod (§3.2). */
function releaseAction(cs: CloneSet, pod: Pod): Action {
  const uid = cs.metadata?.uid;
  const rest = (pod.metadata?.ownerReferences ?? []).filter((r) =>
    uid ? r.uid !== uid : !(r.kind === 'CloneSet' && r.name === cs.metadata?.name),
  );
  return {
    verb: 'patch',
    target: coreRef(pod, 'Pod'),
    patchType: 'merge',
    patch: { metadata: { ownerReferences: rest.length > 0 ? rest : null } },
    reason: Reasons.ReleasePod,
  };
}

/** The instance id a pod or PVC carries (`apps.kruise.io/cloneset-instance-id`). */
export function instanceIdOf(obj: Pod | PersistentVolumeClaim): string | undefined {
  return obj.metadata?.labels?.[LABEL_CLONESET_INSTANCE_ID];
}

/**
 * §7.4 `disablePVCReuse` cleanup, run before sync: for each owned PVC, by instance id —
 * an active pod has it: keep it; an inactive pod has it: move the PVC's ownerRef from the
 * CloneSet to that pod (it is collected with the pod) and drop it from the list; no pod has
 * it: delete the PVC. Returns the PVCs that stay usable and the actions.
 *
 * Example (upstream TestCleanupPVCs): active foo-2..4, terminating foo-0, foo-1, PVCs for
 * instance-0..4 → pvc-0 and pvc-1 are re-owned by foo-0 and foo-1; pvc-2..4 remain.
 */
export function cleanupPVCs(
  cs: CloneSet,
  pvcs: readonly PersistentVolumeClaim[],
  active: readonly Pod[],
  inactive: readonly Pod[],
): { pvcs: PersistentVolumeClaim[]; actions: Action[] } {
  const activeIds = new Set<string>();
  for (const p of active) {
    const id = instanceIdOf(p);
    if (id !== undefined) activeIds.add(id);
  }
  const inactiveById = new Map<string, Pod>();
  for (const p of inactive) {
    const id = instanceIdOf(p);
    if (id !== undefined && !inactiveById.has(id)) inactiveById.set(id, p);
  }
  const kept: PersistentVolumeClaim[] = [];
  const actions: Action[] = [];
  for (const pvc of pvcs) {
    const id = instanceIdOf(pvc) ?? '';
    if (activeIds.has(id)) {
      kept.push(pvc);
      continue;
    }
    const pod = inactiveById.get(id);
    if (pod) {
      const others = (pvc.metadata?.ownerReferences ?? []).filter((r) => !isOwnerRefTo(r, cs));
      const podRef: OwnerReference = {
        apiVersion: 'v1',
        kind: 'Pod',
        name: pod.metadata?.name ?? '',
        uid: pod.metadata?.uid ?? '',
        controller: true,
        blockOwnerDeletion: true,
      };
      actions.push({
        verb: 'patch',
        target: coreRef(pvc, 'PersistentVolumeClaim'),
        patchType: 'merge',
        patch: { metadata: { ownerReferences: [...others, podRef] } },
        reason: Reasons.CleanupPVC,
      });
      continue;
    }
    actions.push({
      verb: 'delete',
      target: coreRef(pvc, 'PersistentVolumeClaim'),
      reason: Reasons.CleanupPVC,
      ...(pvc.metadata?.uid ? { preconditions: { uid: pvc.metadata.uid } } : {}),
    });
  }
  return { pvcs: kept, actions };
}

function isOwnerRefTo(r: OwnerReference, cs: CloneSet): boolean {
  const uid = cs.metadata?.uid;
  return uid ? r.uid === uid : r.kind === 'CloneSet' && r.name === cs.metadata?.name;
}
