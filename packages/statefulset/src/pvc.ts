// PersistentVolumeClaims (docs/reference/statefulset.md §12): the retention policy's ownerReferences
// (R12.2), stale claims (R12.3), and the owner-reference helpers they use.
import {
  APPS_V1BETA1,
  type PersistentVolumeClaimRetentionPolicyType,
  type StatefulSet,
} from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';

/** An object that can own a claim: its name and uid. */
export interface OwnerLike {
  name?: string;
  uid?: string;
}

/** The effective retention policy: nil → Retain/Retain, unknown values → Retain (R12.2). */
export function retentionPolicy(set: StatefulSet): {
  whenDeleted: PersistentVolumeClaimRetentionPolicyType;
  whenScaled: PersistentVolumeClaimRetentionPolicyType;
} {
  const p = set.spec.persistentVolumeClaimRetentionPolicy;
  const norm = (v: unknown): PersistentVolumeClaimRetentionPolicyType =>
    v === 'Delete' ? 'Delete' : 'Retain';
  const whenDeleted = norm(p?.whenDeleted);
  const whenScaled = norm(p?.whenScaled);
  // R12.2: an unknown value anywhere makes the whole policy Retain/Retain.
  const known = (v: unknown) => v === undefined || v === null || v === '' || v === 'Retain' || v === 'Delete';
  if (!known(p?.whenDeleted) || !known(p?.whenScaled)) return { whenDeleted: 'Retain', whenScaled: 'Retain' };
  return { whenDeleted, whenScaled };
}

/** `hasOwnerRef`: some ownerReference has the owner's uid. */
export function hasOwnerRef(refs: readonly OwnerReference[] | undefined, owner: OwnerLike): boolean {
  return (refs ?? []).some((r) => r.uid === (owner.uid ?? ''));
}

/** `hasStaleOwnerRef`: some ownerReference has the owner's name but another uid. */
export function hasStaleOwnerRef(refs: readonly OwnerReference[] | undefined, owner: OwnerLike): boolean {
  return (refs ?? []).some((r) => r.name === (owner.name ?? '') && r.uid !== (owner.uid ?? ''));
}

/**
 * R12.2: which ownerReferences the claims of pod `p` should carry, given whether `p` is in range
 * (R3.6; "condemned" = not in range).
 *
 * | whenScaled | whenDeleted | in range | → set | → pod |
 * |---|---|---|---|---|
 * | Retain | Retain | any | no | no |
 * | Retain | Delete | any | yes | no |
 * | Delete | Retain | yes / no | no / no | no / yes |
 * | Delete | Delete | yes / no | yes / no | no / yes |
 */
export function desiredClaimRefs(
  set: StatefulSet,
  podInRange: boolean,
): { setRef: boolean; podRef: boolean } {
  const { whenDeleted, whenScaled } = retentionPolicy(set);
  if (whenScaled === 'Retain') return { setRef: whenDeleted === 'Delete', podRef: false };
  if (podInRange) return { setRef: whenDeleted === 'Delete', podRef: false };
  return { setRef: false, podRef: true };
}

/** R12.2 with the wanted presences known: does the set ref (by uid) and the pod ref (by uid) presence match? */
export function claimRefsMatch(
  refs: readonly OwnerReference[] | undefined,
  setUid: string,
  podUid: string,
  want: { setRef: boolean; podRef: boolean },
): boolean {
  let hasSet = false;
  let hasPod = false;
  for (const r of refs ?? []) {
    if (r.uid === setUid) hasSet = true;
    if (r.uid === podUid) hasPod = true;
  }
  return hasSet === want.setRef && hasPod === want.podRef;
}

/** R12.2 `claimOwnerMatchesSetAndPod`: both ref presences (matched by uid) equal the table. */
export function claimOwnerMatchesSetAndPod(
  claim: PersistentVolumeClaim,
  set: StatefulSet,
  pod: OwnerLike,
  podInRange: boolean,
): boolean {
  const want = desiredClaimRefs(set, podInRange);
  const refs = claim.metadata?.ownerReferences;
  return (
    hasOwnerRef(refs, { uid: set.metadata.uid }) === want.setRef && hasOwnerRef(refs, pod) === want.podRef
  );
}

/** The ownerReference the controller adds for the set (R12.2). */
export function setClaimOwnerRef(set: StatefulSet): OwnerReference {
  return {
    apiVersion: APPS_V1BETA1,
    kind: 'StatefulSet',
    name: set.metadata.name ?? '',
    uid: set.metadata.uid ?? '',
  };
}

/** The ownerReference the controller adds for a pod (R12.2). */
export function podClaimOwnerRef(pod: OwnerLike): OwnerReference {
  return { apiVersion: 'v1', kind: 'Pod', name: pod.name ?? '', uid: pod.uid ?? '' };
}

/**
 * R12.2 `updateClaimOwnerRefForSetAndPod`: the claim's ownerReferences rewritten to the table
 * (other refs kept), and whether anything had to change.
 *
 * Example: whenScaled Delete, whenDeleted Retain, condemned pod `pod-8`, claim refs `[set]` →
 * `needsUpdate: true`, refs `[pod-8]`.
 */
export function updateClaimOwnerRefForSetAndPod(
  claim: PersistentVolumeClaim,
  set: StatefulSet,
  pod: OwnerLike,
  podInRange: boolean,
): { needsUpdate: boolean; ownerReferences: OwnerReference[] } {
  const want = desiredClaimRefs(set, podInRange);
  let refs = [...(claim.metadata?.ownerReferences ?? [])];
  let changed = false;
  const setOwner = { uid: set.metadata.uid };
  const fix = (owner: OwnerLike, wanted: boolean, make: () => OwnerReference) => {
    const has = hasOwnerRef(refs, owner);
    if (wanted && !has) {
      refs = [...refs, make()];
      changed = true;
    } else if (!wanted && has) {
      refs = refs.filter((r) => r.uid !== (owner.uid ?? ''));
      changed = true;
    }
  };
  fix(setOwner, want.setRef, () => setClaimOwnerRef(set));
  fix(pod, want.podRef, () => podClaimOwnerRef(pod));
  return { needsUpdate: changed, ownerReferences: refs };
}

/**
 * R12.3 `PodClaimIsStale` for one claim: it exists and has an ownerReference with the pod's name
 * but another uid (a pod without uid makes every same-named ref stale). The caller only asks
 * when `whenScaled != Retain`.
 */
export function claimIsStale(claim: PersistentVolumeClaim | undefined, pod: OwnerLike): boolean {
  if (!claim) return false;
  return hasStaleOwnerRef(claim.metadata?.ownerReferences, pod);
}

/** R12.3 over a pod's claims (looked up by name). */
export function podClaimIsStale(
  claimNames: Iterable<string>,
  lookup: (name: string) => PersistentVolumeClaim | undefined,
  pod: Pod,
): boolean {
  const owner = { name: pod.metadata?.name, uid: pod.metadata?.uid };
  for (const n of claimNames) if (claimIsStale(lookup(n), owner)) return true;
  return false;
}
