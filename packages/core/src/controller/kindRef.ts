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
  return obj.kind === ref.kind && apiGroupOf(obj.apiVersion) === apiGroupOf(ref.apiVersion);
}

/**
 * `obj` typed as `ref`'s object type when it is of that kind, else `undefined`: how a hook that
 * receives any changed object reads one kind of them. The kind is checked here; the shape is the
 * API server's (each reconcile checks the structure of what it reads, core.md §10.1).
 * Example: `asKind(change, POD)` → the pod, or `undefined` for a Node.
 */
export function asKind<T>(obj: KubeObject, ref: KindRef<T>): T | undefined {
  return isOfKind(obj, ref) ? (obj as unknown as T) : undefined;
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
