// The controller contract every shell drives: one ControllerDescriptor per workload controller
// says which kind it reconciles, what else it reads and watches, which primary objects a change
// of another object concerns, how its reconcile's input is built from an ObjectReader, and its
// admission hooks. The descriptors are pure data and functions; the shells (the simulator, the
// operator) own the queues, the clocks, the caches' lifetimes and the writes.
import type { KubeObject, StructureCache } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ReconcileResult } from '../contract/actions';
import type { FieldError } from '../contract/errors';
import type { FeatureGates } from '../contract/featureGates';
import type { KindRef } from './kindRef';
import type { ObjectReader, ObservedObject } from './objectReader';

/** What a reconcile gets from its shell besides the object, the reader and the time. */
export interface ReconcileEnv {
  /** The process's feature gates; missing gates take their v1.8.2 defaults. */
  featureGates: Partial<FeatureGates>;
  /** A fresh seed for this reconcile (random names of new pods). */
  seed: number;
  /**
   * The shell's record of observed objects that already passed the reconcile entries' structural
   * check (docs/reference/core.md §10.1); without it every observed object is checked each time.
   */
  structureCache?: StructureCache;
  /** The namespace kruise runs in (SidecarSet revisions live there); `kruise-system` by default. */
  kruiseNamespace: string;
  /** The flag `--cloneset-scaling-exclude-preparing-delete` (cloneset.md D10); false by default. */
  scalingExcludePreparingDelete: boolean;
  /**
   * The namespace of the ImagePullJobs' pull-secret copies (env `KRUISE_DAEMON_CONFIG_NS`,
   * docs/reference/daemon.md §4.5); `kruise-daemon-config` by default.
   */
  daemonConfigNamespace?: string;
  /** The flag `--nodeimage-creation-delay` in seconds (operator.md §3.3); 30 by default. */
  nodeImageCreationDelaySeconds?: number;
  /**
   * True when the shell keeps no Namespace objects (the simulator): a check that a namespace
   * exists (the ImagePullJob's daemon-config namespace, daemon.md §4.5 item 2.4) is skipped.
   */
  withoutNamespaces?: boolean;
}

/**
 * The change a shell saw, when it sees changes rather than objects (the simulator's store; the
 * operator's runner hands over objects only): its type and the object before it.
 */
export interface ObjectChange {
  readonly type: 'added' | 'modified' | 'deleted';
  /** The object before the change (absent for `added`). */
  readonly old?: KubeObject;
}

/** What an admission hook sees besides the object. */
export interface AdmissionEnv<Obj> {
  operation: 'CREATE' | 'UPDATE';
  /** The stored object on UPDATE. */
  old?: Obj;
  featureGates: Partial<FeatureGates>;
  /** Read access to the cluster (e.g. the namespace's pods for CloneSet's podsToDelete check). */
  reader: ObjectReader;
  /** The webhook's clock, RFC 3339. */
  now: string;
  /** The namespace kruise runs in. */
  kruiseNamespace: string;
  /** The namespace of the admission request, when the shell has one (an object may omit it). */
  requestNamespace?: string;
  /**
   * The webhook server's structure cache, kept for its life: the schemas the hooks check objects
   * against are compiled once, and objects read from the cluster (a SidecarSet injected into
   * every new pod) are checked once. Without it the answers are the same, slower.
   */
  structureCache?: StructureCache;
}

/** The admission webhooks of one kind: defaulting, then validation. */
export interface AdmissionHooks<Obj> {
  /** The mutating webhook's defaults: a new object, never the input changed. */
  default?(obj: Obj, env: AdmissionEnv<Obj>): Obj;
  /** The validating webhook: the field errors that refuse the object (none = admitted). */
  validate?(obj: Obj, env: AdmissionEnv<Obj>): FieldError[];
  /**
   * A mutating hook on pods at CREATE (SidecarSet's sidecar injection): the pod to store, or field
   * errors that refuse it.
   */
  mutatePod?(pod: Pod, env: AdmissionEnv<Pod>): { pod: Pod; errors: readonly FieldError[] };
}

/**
 * One workload controller as every shell sees it. `Obj` is the primary object type, `Status` its
 * status, `State` what the reconcile keeps per object between calls (`controllerState`), `Cache`
 * what it keeps per controller to be fast (the same answers without it).
 */
export interface ControllerDescriptor<
  Obj extends KubeObject = KubeObject,
  Status = unknown,
  State = unknown,
  Cache = unknown,
> {
  /** The docs/reference/operator.md §3.5 name, e.g. `cloneset-controller`. */
  readonly name: string;
  /** The kind it reconciles (other versions of the same group are the same objects). */
  readonly primary: KindRef<Obj>;
  /** The kinds it reads or watches besides the primary (the operator's informers). */
  readonly secondary: readonly KindRef[];
  /** docs/reference/operator.md §3.5 "Enabled when", beyond the CRD check; absent = always. */
  enabled?(gates: Partial<FeatureGates>): boolean;
  /**
   * The `--controllers` word when it is not `name` without `-controller`: a controller that runs
   * as two runners (NodeImage, by NodeImage and by Node) answers to one word.
   */
  readonly selectAs?: string;
  /**
   * The name in the simulator's event log (`controller:<logName>`) when it is not the primary
   * kind: the second runner of a controller whose primary is another controller's kind.
   */
  readonly logName?: string;
  /**
   * False when a change of an object the controller owns does not by itself enqueue its owner
   * (AdvancedCronJob, advancedcronjob.md AC6.1): the operator then enqueues only what
   * `enqueueFor` answers. Absent = true. The simulator always enqueues owners.
   */
  readonly enqueuesOwners?: boolean;
  /**
   * The primary objects to reconcile when `changed` (an object of a secondary kind) changed,
   * besides the owners a controller ownerReference names, which every shell enqueues itself.
   * Absent = those owners only. Called on every change of the shell's objects: answer fast.
   * `change` is given by a shell that sees changes (the old object, whether it was deleted); a
   * shell without it passes only the object, and the answer is then the superset a filter on the
   * change would narrow (reconciles are idempotent). A deleted object is no longer in `reader`.
   */
  enqueueFor?(changed: KubeObject, reader: ObjectReader, change?: ObjectChange): readonly Obj[];
  /** The objects the reconcile of `obj` reads that the operator's expectations gate checks (E4.10). */
  readSet(obj: Obj, reader: ObjectReader): readonly ObservedObject[];
  /** A fresh per-controller cache; a shell makes one per controller and passes it to every reconcile. */
  createCache?(): Cache;
  /**
   * The pure reconcile of `obj`: its input read through `reader`; `now` as RFC 3339 text; `state`
   * the `controllerState` the previous reconcile of this object returned (the shell keeps it per
   * object and passes it back unchanged; `undefined` the first time).
   */
  reconcile(
    obj: Obj,
    reader: ObjectReader,
    now: string,
    state: State | undefined,
    env: ReconcileEnv,
    cache?: Cache,
  ): ReconcileResult<Status, State>;
  /** The kind's admission webhooks. */
  readonly admission?: AdmissionHooks<Obj>;
}

/** The frozen empty answer of an `enqueueFor` that has nothing to enqueue. */
export const NOTHING_TO_ENQUEUE: readonly never[] = Object.freeze([]);
