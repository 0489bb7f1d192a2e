// The objects a workload owns, read from the store's owner index: what the kinds' registrations
// list to build a reconcile's input (a Job's or ReplicaSet's pods, a Deployment's ReplicaSets).
import type { KubeObject } from '@kruise-ts/api';
import type { Store } from '../store';

/**
 * Objects in the store that name `owner` in an ownerReference, of one kind (none when the owner
 * has no uid yet). `owner` is a KubeObject or a typed object of `kubernetes-types`, e.g.
 * `ownedOfKind<Pod>(store, replicaSet, 'Pod')`.
 */
export function ownedOfKind<T = KubeObject>(
  store: Store,
  owner: { metadata?: { uid?: string } },
  kind: string,
): T[] {
  const uid = owner.metadata?.uid;
  if (!uid) return [];
  return store.listOwnedBy(uid).filter((o) => o.kind === kind) as unknown as T[];
}

/**
 * Like {@link ownedOfKind}, but only the objects whose ownerReference to `owner` is the
 * controller one (`controller: true`): what a Job, ReplicaSet or Deployment controls.
 */
export function controlledOfKind<T = KubeObject>(
  store: Store,
  owner: { metadata?: { uid?: string } },
  kind: string,
): T[] {
  const uid = owner.metadata?.uid;
  return ownedOfKind(store, owner, kind).filter((o) =>
    o.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller),
  ) as unknown as T[];
}
