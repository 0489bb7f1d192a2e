// The operator's one adapter for every controller descriptor of @kruise-ts/registry: the
// informer cache read through an ObjectReader, informer events mapped to work-queue keys (the
// controller owner of the primary kind, plus the descriptor's `enqueueFor`), the read set for the
// expectations gate, and the descriptor's reconcile called with the flags' environment and the
// runner's clock as RFC 3339 text. This file is the only place where the cache's untyped
// objects meet the descriptors' typed ones.
import type { KubeObject } from '@kruise-ts/api';
import {
  type AnyControllerDescriptor,
  controllerRefOfKind,
  type KindRef,
  type ObjectReader,
} from '@kruise-ts/core';
import { keyFor, resourceFor } from '../kube/resources';
import { type CacheReader, type OperatorController, objectKeyOf } from './common';

/**
 * The informer cache as an ObjectReader. The cache holds every object as a KubeObject; a KindRef
 * says which informer is asked, and an informer holds objects of its kind only, so the answer is
 * typed as the KindRef's object type here, once for every descriptor.
 */
export class CacheObjectReader implements ObjectReader {
  constructor(private readonly cache: CacheReader) {}

  get<T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(ref, namespace, name) as T | undefined;
  }

  list<T>(ref: KindRef<T>, namespace?: string): readonly T[] {
    return this.cache.list(ref, namespace) as unknown as readonly T[];
  }

  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[] {
    return uid ? (this.cache.ownedBy(ref, uid) as unknown as readonly T[]) : [];
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
  const { enabled, enqueueFor, createCache, selectAs } = d;
  // AdvancedCronJob enqueues only what its `enqueueFor` answers (advancedcronjob.md AC6.1).
  const owners = d.enqueuesOwners !== false;
  const reconcileWith =
    (memo: unknown): OperatorController['reconcile'] =>
    (obj, cache, now, state, env) =>
      d.reconcile(obj, new CacheObjectReader(cache), now.toISOString(), state, env, memo);
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
    readSet: (obj, cache) => d.readSet(obj, new CacheObjectReader(cache)),
    reconcile: reconcileWith(undefined),
    ...(createCache ? { makeReconcile: () => reconcileWith(createCache()) } : {}),
  };
}
