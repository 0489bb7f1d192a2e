// Object identity in the cluster's store: group + kind + namespace + name
// (versions are views of one object, as in the API server), and kind scope.
import { isClusterScopedKind, type KubeObject } from '@kruise-ts/api';
import type { ObjectRef } from '@kruise-ts/core';

/** True when objects of `kind` live in a namespace. */
export function isNamespaced(kind: string): boolean {
  return !isClusterScopedKind(undefined, kind);
}

/** The API group of an apiVersion (`apps.kruise.io/v1alpha1` → `apps.kruise.io`, `v1` → ``). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The store key of an object: `group/Kind/namespace/name`. */
export function keyOf(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
  return `${groupOf(apiVersion)}/${kind}/${isNamespaced(kind) ? (namespace ?? 'default') : ''}/${name}`;
}

/** The store key of an object. */
export function objectKey(obj: KubeObject): string {
  return keyOf(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name ?? '');
}

/** The store key of a reference. */
export function refKey(ref: ObjectRef): string {
  return keyOf(ref.apiVersion, ref.kind, ref.namespace, ref.name);
}

/**
 * The kind-level prefix of keys (`group/Kind/`): every version of a kind shares it. The store's
 * index keeps the prefixes it has built (storeIndex.ts), since it looks one up on every list.
 */
export function kindPrefix(apiVersion: string, kind: string): string {
  return `${groupOf(apiVersion)}/${kind}/`;
}

/** `Kind/namespace/name` for logs (`Kind/name` when cluster-scoped). */
export function displayName(obj: { kind: string; metadata: { namespace?: string; name?: string } }): string {
  const ns = isNamespaced(obj.kind) ? (obj.metadata.namespace ?? 'default') : undefined;
  return ns ? `${obj.kind}/${ns}/${obj.metadata.name ?? ''}` : `${obj.kind}/${obj.metadata.name ?? ''}`;
}

/** `Kind/namespace/name` for a reference. */
export function displayRef(ref: ObjectRef): string {
  return displayName({ kind: ref.kind, metadata: { namespace: ref.namespace, name: ref.name } });
}

/** Plural lower-case resource name used in API-server messages (`pods "x" already exists`). */
export function resourceName(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** The apiVersion of well-known kinds, for `sim.get('CloneSet', 'sample')`. */
export function apiVersionOf(kind: string): string {
  switch (kind) {
    case 'CloneSet':
    case 'SidecarSet':
    case 'UnitedDeployment':
    case 'ImagePullJob':
    case 'ImageListPullJob':
    case 'NodeImage':
    case 'ContainerRecreateRequest':
    case 'BroadcastJob':
    case 'AdvancedCronJob':
      return 'apps.kruise.io/v1alpha1';
    case 'DaemonSet':
      return 'apps.kruise.io/v1alpha1';
    case 'StatefulSet':
      return 'apps.kruise.io/v1beta1';
    case 'ControllerRevision':
    case 'Deployment':
    case 'ReplicaSet':
      return 'apps/v1';
    case 'Job':
      return 'batch/v1';
    case 'Ingress':
      return 'networking.k8s.io/v1';
    default:
      return 'v1';
  }
}
