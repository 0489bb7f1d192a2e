// The operator's one adapter for every controller descriptor of @kruise-ts/registry: the
// informer cache read through an ObjectReader, informer events mapped to work-queue keys (the
// controller owner of the primary kind, plus the descriptor's `enqueueFor`), the read set for the
// expectations gate, and the descriptor's reconcile called with the flags' environment and the
// runner's clock as RFC 3339 text. The reader types the cache's objects by the kind asked
// (core's `isKind`), and core's `driverOf` hands them to each descriptor typed: nothing casts.
import type { KubeObject } from '@kruise-ts/api';
import {
  type AnyControllerDescriptor,
  asKind,
  controllerRefOfKind,
  type DrivenReconcile,
  driverOf,
  type KindRef,
  type ObjectReader,
  onlyOfKind,
} from '@kruise-ts/core';
import { keyFor, resourceFor } from '../kube/resources';
import { type CacheReader, type OperatorController, objectKeyOf } from './common';

/**
 * The informer cache as an ObjectReader. The cache holds every object as a KubeObject; a KindRef
 * says which informer is asked, and `isKind` checks each answer is of that kind, which types it
 * as the KindRef's object type.
 */
export class CacheObjectReader implements ObjectReader {
  constructor(private readonly cache: CacheReader) {}

  get<T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined {
    const o = this.cache.get(ref, namespace, name);
    return o === undefined ? undefined : asKind(o, ref);
  }

  list<T>(ref: KindRef<T>, namespace?: string): readonly T[] {
    return onlyOfKind(this.cache.list(ref, namespace), ref);
  }

  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[] {
    return uid ? onlyOfKind(this.cache.ownedBy(ref, uid), ref) : [];
  }
}

/**
 * The work-queue key of the primary object `obj`'s controller ownerReference names, if it names
 * one of `primary`'s kind: `namespace/name`, or `name` for a cluster-scoped kind (SidecarSet).
 */
function ownerKeys(obj: KubeObject, primary: KindRef, namespaced: boolean): string[] {
  const ref = controllerRefOfKind(obj, primary);
  return ref ? [keyFor(namespaced ? obj.metadata.namespace : undefined, ref.name)] : [];
}

/**
 * The operator controller of a descriptor: the runner's primary and secondary informers, event →
 * keys, read set and reconcile (with one cache per runner when the descriptor has one). The runner
 * hands over objects, not changes: `enqueueFor` gets no `change` and answers the superset.
 */
export function controllerFor(d: AnyControllerDescriptor): OperatorController {
  const namespaced = resourceFor(d.primary.apiVersion, d.primary.kind).namespaced;
  const driver = driverOf(d);
  const { enabled, selectAs } = d;
  const { enqueueFor, makeReconcile } = driver;
  // AdvancedCronJob enqueues only what its `enqueueFor` answers (advancedcronjob.md AC6.1).
  const owners = d.enqueuesOwners !== false;
  const inCache =
    (reconcile: DrivenReconcile): OperatorController['reconcile'] =>
    (obj, cache, now, state, env) =>
      reconcile(obj, new CacheObjectReader(cache), now.toISOString(), state, env);
  return {
    name: d.name,
    ...(selectAs !== undefined ? { selectAs } : {}),
    ...(enabled ? { enabled: (gates) => enabled(gates) } : {}),
    primary: d.primary,
    secondary: [...d.secondary],
    keysFor: (obj, cache) => {
      const keys = owners ? ownerKeys(obj, d.primary, namespaced) : [];
      if (enqueueFor)
        for (const o of enqueueFor(obj, new CacheObjectReader(cache))) keys.push(objectKeyOf(o));
      return keys;
    },
    readSet: (obj, cache) => driver.readSet(obj, new CacheObjectReader(cache)),
    reconcile: inCache(driver.reconcile),
    ...(makeReconcile ? { makeReconcile: () => inCache(makeReconcile()) } : {}),
  };
}
