// The read side of a cluster as a controller sees it: get, list and "owned by" lookups of one
// kind, typed by the KindRef. Each shell implements it once (the simulator over its store, the
// operator over its informer cache; tests over an array), and every descriptor builds its
// reconcile's input through it, so no controller code knows where objects come from.
import type { KubeObject } from '@kruise-ts/api';
import type { ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1.js';
import { apiGroupOf, isKind, type KindRef } from './kindRef';

/**
 * Read access to the objects of a cluster. The answers are snapshots the caller must not mutate;
 * a reader never returns the same array to two callers that might keep it.
 */
export interface ObjectReader {
  /** The object of `ref`'s kind called `name` in `namespace` (`undefined` for cluster-scoped kinds). */
  get<T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined;
  /** The objects of `ref`'s kind, in `namespace` when given, else in every namespace. */
  list<T>(ref: KindRef<T>, namespace?: string): readonly T[];
  /** The objects of `ref`'s kind that name `uid` in one of their ownerReferences. */
  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[];
}

/**
 * The least a shell needs of an object a reconcile read: its kind and metadata (the operator's
 * expectations gate compares their resourceVersions, E4.10). Every Kubernetes object fits.
 */
export interface ObservedObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
}

/**
 * The controller ownerReference of `obj` that names an object of `owner`'s kind (any version of
 * its group), if there is one: the default way a changed secondary object finds the primary
 * object to enqueue. Example: a pod whose controller reference is `CloneSet/web` (uid u1) →
 * that reference, for `owner` = the CloneSet kind; `undefined` for the DaemonSet kind.
 */
export function controllerRefOfKind(obj: ObservedObject, owner: KindRef): OwnerReference | undefined {
  const group = apiGroupOf(owner.apiVersion);
  return obj.metadata?.ownerReferences?.find(
    (r) => r.controller === true && r.kind === owner.kind && apiGroupOf(r.apiVersion) === group,
  );
}

/**
 * The object `obj`'s controller ownerReference names, read from `reader` in `obj`'s namespace,
 * whatever its kind. Example: a pod controlled by ReplicaSet `web-5d9` → that ReplicaSet.
 */
export function controllerOf(reader: ObjectReader, obj: KubeObject | undefined): KubeObject | undefined {
  const ref = obj?.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!ref || !obj) return undefined;
  return reader.get<KubeObject>(
    { apiVersion: ref.apiVersion, kind: ref.kind },
    obj.metadata.namespace,
    ref.name,
  );
}

/**
 * An ObjectReader over a list of objects, for running a descriptor without a shell (a library
 * user's own loop, a test): `get` and `list` match by API group and kind, `ownedBy` by an
 * ownerReference's uid; answers keep the list's order. The objects are read, never changed.
 * Example: `objectReaderOf([cloneSet, ...pods]).ownedBy(POD, cloneSet.metadata.uid)` → its pods.
 */
export function objectReaderOf(objects: readonly KubeObject[]): ObjectReader {
  // `isKind` checks each object's kind and types it as the KindRef's object (core.md §10.1 checks shapes).
  const ofKind = <T>(ref: KindRef<T>) => objects.filter((o) => isKind(o, ref));
  return {
    get: <T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined =>
      ofKind(ref).find((o) => o.metadata?.namespace === namespace && o.metadata?.name === name),
    list: <T>(ref: KindRef<T>, namespace?: string): readonly T[] =>
      ofKind(ref).filter((o) => namespace === undefined || o.metadata?.namespace === namespace),
    ownedBy: <T>(ref: KindRef<T>, uid: string): readonly T[] =>
      ofKind(ref).filter((o) => o.metadata?.ownerReferences?.some((r) => r.uid === uid) === true),
  };
}
