// What every operator controller is made of: the kind references (core's), the read access to
// the informer caches, the per-reconcile environment from the flags, and the `OperatorController`
// shape the runner drives (primary informer, secondary informers with their event → key
// mapping, the read set the expectations gate checks, the pure reconcile). Shared by the
// workload controllers (built from the registry's descriptors, fromDescriptor.ts) and the
// node-side controllers (nodeops.ts).
import type { KubeObject } from '@kruise-ts/api';
import type { FeatureGates, KindRef, ObservedObject, ReconcileEnv, ReconcileResult } from '@kruise-ts/core';
import { keyFor } from '../kube/resources';

/** ControllerRevisions: core's `CONTROLLER_REVISION`, under the name the operator's modules use. */
export {
  CONTROLLER_REVISION as REVISION,
  JOB,
  type KindRef,
  NAMESPACE,
  NODE,
  POD,
  PVC,
  SECRET,
} from '@kruise-ts/core';

/** Read access to the informer caches. */
export interface CacheReader {
  get(ref: KindRef, namespace: string | undefined, name: string): KubeObject | undefined;
  list(ref: KindRef, namespace?: string): KubeObject[];
  ownedBy(ref: KindRef, uid: string): KubeObject[];
}

/**
 * Per-reconcile settings from the operator's flags: what every descriptor's reconcile gets
 * (`ReconcileEnv`), and the node-side controllers' own settings.
 */
export interface ControllerEnv extends ReconcileEnv {
  /** `--nodeimage-creation-delay` in seconds (docs/reference/operator.md §3.3, default 30). */
  nodeImageCreationDelaySeconds?: number;
  /** Namespace of the pull-secret copies (env `KRUISE_DAEMON_CONFIG_NS`, default `kruise-daemon-config`). */
  daemonConfigNamespace?: string;
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
  readSet(obj: KubeObject, cache: CacheReader): readonly ObservedObject[];
  reconcile(
    obj: KubeObject,
    cache: CacheReader,
    now: Date,
    state: unknown,
    env: ControllerEnv,
  ): ReconcileResult<unknown, unknown>;
  /**
   * Makes the reconcile one runner uses, holding what the controller keeps between its
   * reconciles (its cache, e.g. CloneSet's `createCloneSetCache()`). The runner calls it once
   * and keeps the result; without it, `reconcile` is used.
   */
  makeReconcile?(): OperatorController['reconcile'];
}

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
