// What every operator controller is made of: the kind references, the read access to the
// informer caches, the per-reconcile environment from the flags, and the `OperatorController`
// shape the runner drives (primary informer, secondary informers with their event → key
// mapping, the read set the expectations gate checks, the pure reconcile). Shared by the
// workload controllers (index.ts) and the node-side controllers (nodeops.ts).
import type { KubeObject, StructureCache } from '@kruise-ts/api';
import type { FeatureGates, ReconcileResult } from '@kruise-ts/core';
import { keyFor } from '../kube/resources';

/** A kind reference. */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

/** Read access to the informer caches. */
export interface CacheReader {
  get(ref: KindRef, namespace: string | undefined, name: string): KubeObject | undefined;
  list(ref: KindRef, namespace?: string): KubeObject[];
  ownedBy(ref: KindRef, uid: string): KubeObject[];
}

/** Per-reconcile settings from the operator's flags. */
export interface ControllerEnv {
  featureGates: Partial<FeatureGates>;
  seed: number;
  kruiseNamespace: string;
  scalingExcludePreparingDelete: boolean;
  /** `--nodeimage-creation-delay` in seconds (docs/reference/operator.md §3.3, default 30). */
  nodeImageCreationDelaySeconds?: number;
  /** Namespace of the pull-secret copies (env `KRUISE_DAEMON_CONFIG_NS`, default `kruise-daemon-config`). */
  daemonConfigNamespace?: string;
  /** The runner's structure cache, for the reconcile entries' check of observed objects (core.md §10.1). */
  structureCache?: StructureCache;
}

/** What the operator's runner needs to drive one controller. */
export interface OperatorController {
  /** docs/reference/operator.md §3.5 name, e.g. `cloneset-controller`. */
  name: string;
  /**
   * The `--controllers` name when it is not `name` without `-controller` (a controller that runs
   * as two runners, like the NodeImage controller, answers to one name).
   */
  selectAs?: string;
  /** §3.5 "Enabled when" beyond the CRD check (feature gates); absent = always. */
  enabled?(gates: FeatureGates): boolean;
  primary: KindRef;
  /** Informers this controller reads (besides the primary). */
  secondary: KindRef[];
  /** Primary keys to enqueue when a secondary object changes. Default: its controller owner of the primary kind. */
  keysFor?(obj: KubeObject, cache: CacheReader): string[];
  /** The cached objects the reconcile reads (the gate checks their resourceVersions, E4.10). */
  readSet(obj: KubeObject, cache: CacheReader): KubeObject[];
  reconcile(
    obj: KubeObject,
    cache: CacheReader,
    now: Date,
    state: unknown,
    env: ControllerEnv,
  ): ReconcileResult<unknown>;
  /**
   * Makes the reconcile one runner uses, holding what the controller keeps between its
   * reconciles (its cache, e.g. CloneSet's `createCloneSetCache()`). The runner calls it once
   * and keeps the result; without it, `reconcile` is used.
   */
  makeReconcile?(): OperatorController['reconcile'];
}

export const POD: KindRef = { apiVersion: 'v1', kind: 'Pod' };
export const PVC: KindRef = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' };
export const NODE: KindRef = { apiVersion: 'v1', kind: 'Node' };
export const NAMESPACE: KindRef = { apiVersion: 'v1', kind: 'Namespace' };
export const SECRET: KindRef = { apiVersion: 'v1', kind: 'Secret' };
export const REVISION: KindRef = { apiVersion: 'apps/v1', kind: 'ControllerRevision' };
export const JOB: KindRef = { apiVersion: 'batch/v1', kind: 'Job' };

/** The key of the controller owner of `obj` if that owner is of kind `kind` (any version of its group). */
export function ownerKey(obj: KubeObject, primary: KindRef): string[] {
  const group = primary.apiVersion.split('/')[0];
  const ref = obj.metadata.ownerReferences?.find(
    (r) => r.controller && r.kind === primary.kind && r.apiVersion.split('/')[0] === group,
  );
  return ref ? [keyFor(obj.metadata.namespace, ref.name)] : [];
}

/** The work-queue key of an object (`namespace/name`, or `name` when cluster-scoped). */
export function objectKeyOf(obj: KubeObject): string {
  return keyFor(obj.metadata.namespace, obj.metadata.name ?? '');
}
