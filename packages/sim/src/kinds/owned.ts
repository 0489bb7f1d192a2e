// The objects a workload owns, read from the store's owner index: what the kinds' registrations
// list to build a reconcile's input (a Job's or ReplicaSet's pods, a Deployment's ReplicaSets).
import type { KubeObject } from '@kruise-ts/api';
import type { Store } from '@kruise-ts/cluster';
import { isKind, type KindRef } from '@kruise-ts/core';

/** What an owner needs to be looked up by: its uid (a KubeObject or a `kubernetes-types` object). */
type Owner = { metadata?: { uid?: string } };

/**
 * Objects in the store that name `owner` in an ownerReference, of `ref`'s kind (API group and
 * kind, core's `isKind`), typed by it; none when the owner has no uid yet.
 * Example: `ownedOfKind(store, replicaSet, POD)` → its pods, as `Pod[]`.
 */
export function ownedOfKind<T>(store: Store, owner: Owner, ref: KindRef<T>): T[];
/**
 * @deprecated Pass a KindRef (`POD`, `kindRef<T>(apiVersion, kind)`): a kind name alone matches
 * by name only and types nothing, so the objects come back as KubeObjects.
 */
export function ownedOfKind(store: Store, owner: Owner, kind: string): KubeObject[];
export function ownedOfKind<T>(store: Store, owner: Owner, kind: KindRef<T> | string): T[] | KubeObject[] {
  const uid = owner.metadata?.uid;
  if (!uid) return [];
  const owned = store.listOwnedBy(uid);
  return typeof kind === 'string'
    ? owned.filter((o) => o.kind === kind)
    : owned.filter((o) => isKind(o, kind));
}

/**
 * Like {@link ownedOfKind}, but only the objects whose ownerReference to `owner` is the
 * controller one (`controller: true`): what a Job, ReplicaSet or Deployment controls.
 */
export function controlledOfKind<T>(store: Store, owner: Owner, ref: KindRef<T>): T[] {
  const uid = owner.metadata?.uid;
  if (!uid) return [];
  return store
    .listOwnedBy(uid)
    .filter(
      (o): o is KubeObject & T =>
        isKind(o, ref) &&
        o.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller === true) === true,
    );
}
