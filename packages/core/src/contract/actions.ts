// The one action vocabulary every reconcile returns (docs/architecture.md): Kubernetes
// verbs on objects plus events, each with a machine-readable reason.
import type { KubeObject, StructureCache } from '@kruise-ts/api';
import type { FieldError } from './errors';

/** A reference to one object. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

/** Preconditions on a delete, as the API server's DeleteOptions.preconditions. */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** Create an object. */
export interface CreateAction {
  verb: 'create';
  object: KubeObject;
  reason: string;
}
/** Delete an object. */
export interface DeleteAction {
  verb: 'delete';
  target: ObjectRef;
  reason: string;
  preconditions?: Preconditions;
}
/** Patch an object (merge = RFC 7386, json = RFC 6902, strategic = pod metadata/containers/conditions only). */
export interface PatchAction {
  verb: 'patch';
  target: ObjectRef;
  patchType: 'merge' | 'json' | 'strategic';
  patch: unknown;
  reason: string;
}
/** Replace an object (carries resourceVersion). */
export interface UpdateAction {
  verb: 'update';
  object: KubeObject;
  reason: string;
}
/** Write an object's status subresource. */
export interface UpdateStatusAction {
  verb: 'updateStatus';
  target: ObjectRef;
  status: unknown;
  reason: string;
}
/** Record an event. */
export interface EventAction {
  verb: 'event';
  involvedObject: ObjectRef;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** Every verb a reconcile may return. */
export type Action =
  | CreateAction
  | DeleteAction
  | PatchAction
  | UpdateAction
  | UpdateStatusAction
  | EventAction;

/**
 * What every reconcile returns. `State` is what the controller keeps per object between
 * reconciles (`controllerState`): the shell stores it unread and passes it back as the next
 * input's `controllerState`. A controller that keeps nothing leaves it `undefined`.
 */
export interface ReconcileResult<Status, State = undefined> {
  /** In the order a controller would issue them. */
  actions: Action[];
  /** The status the object should now have. */
  status: Status;
  /**
   * When time alone would change the answer (minReadySeconds, grace periods, timers); 0 when the
   * burst (at most `burstReplicas` creates or deletes per reconcile) left work: run again at once.
   */
  requeueAfterSeconds?: number;
  /** Validation errors; non-empty means nothing destructive was proposed. */
  errors: FieldError[];
  /** Memory the shell stores per object and passes back as `input.controllerState`. */
  controllerState?: State;
}

/** Options every reconcile accepts. */
export interface ReconcileOptions {
  featureGates?: Partial<import('./featureGates').FeatureGates>;
  seed?: number;
  /**
   * Remembers which observed objects already passed the structural check at the reconcile's
   * entry (`createStructureCache()` from `@kruise-ts/api`; docs/reference/core.md §10.1). A shell keeps one
   * per controller; without it every observed object is checked on every reconcile.
   */
  structureCache?: StructureCache;
}

/** The ObjectRef of an object. */
export function refOf(obj: KubeObject): ObjectRef {
  const ref: ObjectRef = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace !== undefined) ref.namespace = obj.metadata.namespace;
  if (obj.metadata.uid !== undefined) ref.uid = obj.metadata.uid;
  return ref;
}
