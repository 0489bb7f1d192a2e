// Ownership and bookkeeping (docs/reference/cloneset.md §1 steps 4–7, §3, §7.4): which pods, PVCs
// and revisions belong to the CloneSet, active vs inactive pods, release of pods whose
// labels left the selector, and the `disablePVCReuse` PVC cleanup.
import { type CloneSet, LABEL_CLONESET_INSTANCE_ID } from '@kruise-ts/api';
import { type Action, labelSelectorAsRequirements, requirementMatches } from '@kruise-ts/core';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
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

/** How {@link listPods} classes a pod (kept per position with the previous listing of a listing key). */
const NOT_OWNED = 0;
const INACTIVE = 1;
const RELEASED = 2;
const ACTIVE = 3;
const POD_ACTIVE = PodBits.ACTIVE;

/**
 * §1 steps 4 and 7: owned pods (never orphans: they are not adopted), split into active and
 * inactive; an active owned pod whose labels no longer match the selector is released (its
 * ownerReference to the CloneSet is removed with a merge patch) and ignored.
 *
 * The class of each pod depends only on the pod and on the CloneSet's namespace, identity
 * (uid, or name without one) and selector: with a `cache` it is kept with the pod's content
 * facts in the previous listing of that key, so an unchanged pod of the same CloneSet is not
 * read again. Without one every pod is read.
 */
export function listPods(cs: CloneSet, pods: readonly Pod[], cache?: ListingCache): ListedPods {
  const active: Pod[] = [];
  const activeContents: PodContentFacts[] = [];
  const inactive: Pod[] = [];
  const released: Pod[] = [];
  const releaseActions: Action[] = [];
  const classify = podClassifier(cs);
  const key = listingKey(cs);
  // The previous listing of this CloneSet: a pod object found there keeps its facts. The store
  // and informer caches list pods in a stable order and most pods are unchanged between
  // reconciles, so the previous list is walked alongside (cursor `j`): the same object at the
  // cursor or a few places further on (a pod went away in between). A pod not found is read
  // afresh, and the cursor then moves past that pod's previous version, found by name: the
  // pod changed in place. Without that step a run of changed pods longer than the look-ahead
  // (an update wave takes the first 2,000 of 10k pods in order) would leave the cursor behind,
  // and every pod after the run would be read again although it had not changed. A reused pod keeps its
  // class too, read from the previous listing's byte array: the facts object is not touched.
  const prev = cache?.listings.get(key);
  const facts: PodContentFacts[] = new Array(pods.length);
  const classes = new Uint8Array(pods.length);
  let j = 0;
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    let f: PodContentFacts | undefined;
    let c = NOT_OWNED;
    if (prev !== undefined) {
      const end = Math.min(j + LOOKAHEAD, prev.pods.length);
      for (let k = j; k < end; k++)
        if (prev.pods[k] === pod) {
          f = prev.facts[k];
          c = prev.classes[k];
          j = k + 1;
          break;
        }
    }
    if (f === undefined) {
      f = readPodContentFacts(pod);
      c = classify(pod, (f.bits & POD_ACTIVE) !== 0);
      if (prev !== undefined) j = pastPreviousVersion(prev.facts, j, f.name);
    }
    facts[i] = f;
    classes[i] = c;
    if (c === ACTIVE) {
      active.push(pod);
      activeContents.push(f);
    } else if (c === INACTIVE) inactive.push(pod);
    else if (c === RELEASED) {
      releaseActions.push(releaseAction(cs, pod));
      released.push(pod);
    }
  }
  if (cache !== undefined) rememberListing(cache, key, { pods: pods.slice(), facts, classes });
  return { active, activeContents, inactive, released, releaseActions };
}

/**
 * What {@link listPods} keeps between calls (part of the CloneSet cache, cache.ts; results never
 * depend on it).
 */
export interface ListingCache {
  /**
   * The last pod list and its facts per listing key. Bounded: the oldest entry goes when more
   * than `MAX_LISTINGS` CloneSets are listed.
   */
  readonly listings: Map<string, Listing>;
}

/** A new, empty `ListingCache`. */
export function createListingCache(): ListingCache {
  return { listings: new Map() };
}

/** One listing as kept for the next call: the pods (a copy), their facts and their classes. */
export interface Listing {
  pods: readonly Pod[];
  facts: PodContentFacts[];
  classes: Uint8Array;
}
const MAX_LISTINGS = 64;
/** How far ahead in the previous listing a pod object (or a changed pod's name) is looked for. */
const LOOKAHEAD = 8;

/**
 * The cursor just past the previous version of a changed pod named `name` (found within
 * {@link LOOKAHEAD} places of the cursor `j`), or `j` when there is none (a new pod). Names
 * are unique among one CloneSet's pods (one namespace).
 */
function pastPreviousVersion(prevFacts: readonly PodContentFacts[], j: number, name: string): number {
  const end = Math.min(j + LOOKAHEAD, prevFacts.length);
  for (let k = j; k < end; k++) if (prevFacts[k].name === name) return k + 1;
  return j;
}

/** Keeps `listing` for `key`; `listing.pods` must be a copy (the caller may reuse its array). */
function rememberListing(cache: ListingCache, key: string, listing: Listing): void {
  const listings = cache.listings;
  listings.delete(key);
  if (listings.size >= MAX_LISTINGS) {
    const oldest = listings.keys().next().value;
    if (oldest !== undefined) listings.delete(oldest);
  }
  listings.set(key, listing);
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
