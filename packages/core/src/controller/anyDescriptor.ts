// A controller descriptor with its types hidden, as a shell holds it in a list, and the one way
// a shell drives it. A descriptor's object, status, state and cache types differ per controller;
// a list of them cannot name those types, so it holds each descriptor as an existential: the
// fields that do not mention the types, plus `use`, which hands the descriptor with its types to
// a function that works for any types. `driverOf` is that function for the shells: it checks
// that an object is of the primary kind before giving it to the descriptor, and carries the
// state a reconcile returned in a box only the same driver opens, so no shell casts an object
// or a state.
import type { KubeObject } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ReconcileResult } from '../contract/actions';
import { type FieldError, invalid } from '../contract/errors';
import type { FeatureGates } from '../contract/featureGates';
import type { AdmissionEnv, ControllerDescriptor, ObjectChange, ReconcileEnv } from './descriptor';
import { asKind, type KindRef } from './kindRef';
import type { ObjectReader, ObservedObject } from './objectReader';

/** A function that works on a descriptor of any object, status, state and cache types. */
export type DescriptorVisitor<R> = <Obj extends KubeObject, Status, State, Cache>(
  d: ControllerDescriptor<Obj, Status, State, Cache>,
) => R;

/**
 * A descriptor of any controller: what a shell reads without the descriptor's types (its name,
 * kinds and flags), and `use`, which runs a visitor on the descriptor with its types. Made by
 * `defineController`; every descriptor a controller package exports is one.
 */
export interface AnyControllerDescriptor {
  /** The docs/reference/operator.md §3.5 name, e.g. `cloneset-controller`. */
  readonly name: string;
  /** The kind it reconciles. */
  readonly primary: KindRef;
  /** The kinds it reads or watches besides the primary. */
  readonly secondary: readonly KindRef[];
  /** The `--controllers` word when it is not `name` without `-controller`. */
  readonly selectAs?: string;
  /** The name in the simulator's event log when it is not the primary kind. */
  readonly logName?: string;
  /** False when an owned object's change does not by itself enqueue its owner. */
  readonly enqueuesOwners?: boolean;
  /** docs/reference/operator.md §3.5 "Enabled when"; absent = always. */
  enabled?(gates: Partial<FeatureGates>): boolean;
  /** `visitor(descriptor)`, the descriptor given with its own types. */
  use<R>(visitor: DescriptorVisitor<R>): R;
}

/**
 * `d` as a descriptor a registry can list (an AnyControllerDescriptor) that is still the typed
 * descriptor for its own package's callers: a frozen copy of `d` with `use`.
 * Example: `export const cloneSetDescriptor = defineController<CloneSet, ...>({ name: ..., ... })`.
 */
export function defineController<Obj extends KubeObject, Status, State, Cache = undefined>(
  d: ControllerDescriptor<Obj, Status, State, Cache>,
): ControllerDescriptor<Obj, Status, State, Cache> & AnyControllerDescriptor {
  return Object.freeze({ ...d, use: <R>(visitor: DescriptorVisitor<R>): R => visitor(d) });
}

/** A descriptor's reconcile as a shell calls it: any stored object, the state it kept unread. */
export type DrivenReconcile = (
  obj: KubeObject,
  reader: ObjectReader,
  now: string,
  state: unknown,
  env: ReconcileEnv,
) => ReconcileResult<unknown, unknown>;

/** A descriptor's admission hooks as a shell calls them, on any stored object. */
export interface DrivenAdmission {
  /** The defaults of an object of the primary kind (another object is answered unchanged). */
  default?(obj: KubeObject, env: AdmissionEnv<KubeObject>): KubeObject;
  /** The field errors that refuse an object (one of another kind is refused). */
  validate?(obj: KubeObject, env: AdmissionEnv<KubeObject>): FieldError[];
  /** The descriptor's pod hook, as it is. */
  mutatePod?(pod: Pod, env: AdmissionEnv<Pod>): { pod: Pod; errors: readonly FieldError[] };
}

/**
 * A descriptor as a shell drives it: every function takes the shell's stored objects and the
 * state it kept, and gives them to the descriptor typed. An object not of the primary kind (a
 * shell's own mistake) gets no work: no read set, no actions and a field error.
 */
export interface ControllerDriver {
  /** The primary objects to reconcile when `changed` changed (absent: the owners only). */
  enqueueFor?(changed: KubeObject, reader: ObjectReader, change?: ObjectChange): readonly KubeObject[];
  /** The objects the reconcile of `obj` reads (the operator's expectations gate). */
  readSet(obj: KubeObject, reader: ObjectReader): readonly ObservedObject[];
  /** The reconcile without a cache. */
  readonly reconcile: DrivenReconcile;
  /** A reconcile with a fresh cache of its own (present when the descriptor has `createCache`). */
  makeReconcile?(): DrivenReconcile;
  /** The admission hooks (present when the descriptor has some). */
  readonly admission?: DrivenAdmission;
}

/**
 * The driver of `d`: how the simulator and the operator run any descriptor of the registry.
 * The `controllerState` of its reconciles is a box the shell keeps per object and passes back
 * unread; a state this driver did not box (or none) is the first reconcile's `undefined`.
 */
export function driverOf(d: AnyControllerDescriptor): ControllerDriver {
  return d.use(driverFor);
}

function driverFor<Obj extends KubeObject, Status, State, Cache>(
  d: ControllerDescriptor<Obj, Status, State, Cache>,
): ControllerDriver {
  const { primary, enqueueFor, createCache, admission } = d;
  const states = stateBoxes<State>();
  const reconcileWith =
    (cache: Cache | undefined): DrivenReconcile =>
    (obj, reader, now, state, env) => {
      const typed = asKind(obj, primary);
      if (typed === undefined) return { actions: [], status: undefined, errors: [notOfKind(obj, primary)] };
      const r = d.reconcile(typed, reader, now, states.open(state), env, cache);
      return r.controllerState === undefined ? r : { ...r, controllerState: states.box(r.controllerState) };
    };
  return {
    ...(enqueueFor ? { enqueueFor } : {}),
    readSet: (obj, reader) => {
      const typed = asKind(obj, primary);
      return typed === undefined ? [] : d.readSet(typed, reader);
    },
    reconcile: reconcileWith(undefined),
    ...(createCache ? { makeReconcile: () => reconcileWith(createCache()) } : {}),
    ...(admission ? { admission: drivenAdmission(primary, admission) } : {}),
  };
}

/** The admission hooks of a descriptor of `primary`'s kind, on any stored object. */
function drivenAdmission<Obj extends KubeObject>(
  primary: KindRef<Obj>,
  hooks: NonNullable<ControllerDescriptor<Obj>['admission']>,
): DrivenAdmission {
  const { default: defaults, validate, mutatePod } = hooks;
  return {
    ...(defaults
      ? {
          default: (obj: KubeObject, env: AdmissionEnv<KubeObject>): KubeObject => {
            const typed = asKind(obj, primary);
            return typed === undefined ? obj : defaults(typed, typedEnv(env, primary));
          },
        }
      : {}),
    ...(validate
      ? {
          validate: (obj: KubeObject, env: AdmissionEnv<KubeObject>): FieldError[] => {
            const typed = asKind(obj, primary);
            return typed === undefined ? [notOfKind(obj, primary)] : validate(typed, typedEnv(env, primary));
          },
        }
      : {}),
    ...(mutatePod ? { mutatePod } : {}),
  };
}

/** An admission environment whose stored object is typed (dropped when it is of another kind). */
function typedEnv<T>(env: AdmissionEnv<KubeObject>, primary: KindRef<T>): AdmissionEnv<T> {
  const { old, ...rest } = env;
  const typedOld = old === undefined ? undefined : asKind(old, primary);
  return typedOld === undefined ? rest : { ...rest, old: typedOld };
}

/** The field error for an object handed to a descriptor of another kind. */
function notOfKind(obj: KubeObject, primary: KindRef): FieldError {
  return invalid('kind', obj.kind, `must be ${primary.kind}`);
}

/**
 * Boxes for the states of one driver. The class is made per driver, so `open` gives back a
 * state only from a box this driver made: the check is `instanceof`, and the type is `State`.
 */
function stateBoxes<State>() {
  class StateBox {
    constructor(readonly state: State) {}
  }
  return {
    box: (state: State): StateBox => new StateBox(state),
    open: (kept: unknown): State | undefined => (kept instanceof StateBox ? kept.state : undefined),
  };
}
