// A kind reference: the apiVersion and kind of the objects a controller reads, carrying the
// TypeScript type of those objects so that an ObjectReader answers `Pod[]` for POD without a
// cast at the call site. The constants name the built-in kinds the workload controllers read.
import type { KubeObject } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type {
  ConfigMap,
  Namespace,
  Node,
  PersistentVolumeClaim,
  Pod,
  Secret,
} from 'kubernetes-types/core/v1.js';

/**
 * The apiVersion and kind of one resource, typed by the object it names. `T` exists only for the
 * type checker (it is never set at run time): `reader.list(POD)` is `readonly Pod[]`.
 */
export interface KindRef<T = unknown> {
  readonly apiVersion: string;
  readonly kind: string;
  /** Type-level only: the object type this reference names. Never present at run time. */
  readonly __object?: T;
}

/**
 * A frozen kind reference for `apiVersion` and `kind`, typed by `T`.
 * Example: `kindRef<CloneSet>('apps.kruise.io/v1alpha1', 'CloneSet')`.
 */
export function kindRef<T>(apiVersion: string, kind: string): KindRef<T> {
  return Object.freeze({ apiVersion, kind });
}

/**
 * The API group of an apiVersion (`''` for the core group).
 * Example: `apiGroupOf('apps.kruise.io/v1beta1')` → `"apps.kruise.io"`; `apiGroupOf('v1')` → `""`.
 */
export function apiGroupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/**
 * True when `obj` is of `ref`'s kind in `ref`'s API group (any version: the API server serves
 * one object under every version of its group).
 */
export function isOfKind(obj: Pick<KubeObject, 'apiVersion' | 'kind'>, ref: KindRef): boolean {
  // The same apiVersion is the common case, answered without cutting out the groups.
  return (
    obj.kind === ref.kind &&
    (obj.apiVersion === ref.apiVersion || apiGroupOf(obj.apiVersion) === apiGroupOf(ref.apiVersion))
  );
}

/**
 * True when `obj` is of `ref`'s kind (any version of its group), and then typed as `ref`'s object
 * type: the one place where an object of unknown kind becomes a typed one. The kind is what is
 * checked; the shape is what a KindRef means (the API server stores objects of a kind in that
 * kind's schema) and what each reconcile checks again at its entry (core.md §10.1).
 * Example: `pods = objects.filter((o) => isKind(o, POD))` is `Pod[]`.
 */
export function isKind<T>(obj: KubeObject, ref: KindRef<T>): obj is KubeObject & T {
  return isOfKind(obj, ref);
}

/**
 * `obj` typed as `ref`'s object type when it is of that kind, else `undefined`: how a hook that
 * receives any changed object reads one kind of them (the check of `isKind`).
 * Example: `asKind(change, POD)` → the pod, or `undefined` for a Node.
 */
export function asKind<T>(obj: KubeObject, ref: KindRef<T>): T | undefined {
  return isKind(obj, ref) ? obj : undefined;
}

/**
 * The objects of `ref`'s kind among `objects`, typed by it (the check of `isKind`): `objects`
 * itself when all are, as a listing by kind from a store or an informer is, else a filtered copy.
 * Example: `onlyOfKind(store.list('v1', 'Pod'), POD)` is `readonly Pod[]`, the same array.
 */
export function onlyOfKind<T>(objects: readonly KubeObject[], ref: KindRef<T>): readonly T[] {
  return objects.every((o) => isKind(o, ref)) ? objects : objects.filter((o) => isKind(o, ref));
}

/**
 * True when `obj` has what every stored object has: an apiVersion and a kind as text and a
 * metadata object. A pod a webhook returns (`Pod`, whose fields the types leave optional) is
 * checked by it before a shell stores it as a KubeObject.
 */
export function isKubeObject(obj: unknown): obj is KubeObject {
  return (
    typeof obj === 'object' &&
    obj !== null &&
    'apiVersion' in obj &&
    typeof obj.apiVersion === 'string' &&
    'kind' in obj &&
    typeof obj.kind === 'string' &&
    'metadata' in obj &&
    typeof obj.metadata === 'object' &&
    obj.metadata !== null
  );
}

/** Pods (`v1`). */
export const POD: KindRef<Pod> = kindRef('v1', 'Pod');
/** PersistentVolumeClaims (`v1`). */
export const PVC: KindRef<PersistentVolumeClaim> = kindRef('v1', 'PersistentVolumeClaim');
/** Nodes (`v1`, cluster-scoped). */
export const NODE: KindRef<Node> = kindRef('v1', 'Node');
/** Namespaces (`v1`, cluster-scoped). */
export const NAMESPACE: KindRef<Namespace> = kindRef('v1', 'Namespace');
/** Secrets (`v1`). */
export const SECRET: KindRef<Secret> = kindRef('v1', 'Secret');
/** ConfigMaps (`v1`), e.g. `kruise-configuration` in the kruise namespace. */
export const CONFIG_MAP: KindRef<ConfigMap> = kindRef('v1', 'ConfigMap');
/** ControllerRevisions (`apps/v1`): the revision history of every workload kind. */
export const CONTROLLER_REVISION: KindRef<ControllerRevision> = kindRef('apps/v1', 'ControllerRevision');
/** Jobs (`batch/v1`). */
export const JOB: KindRef<Job> = kindRef('batch/v1', 'Job');
