// The simulator's one adapter for every controller descriptor of @kruise-ts/registry: the store
// read through an ObjectReader, the descriptor's reconcile called with the simulation's
// environment, its `enqueueFor` as the registration's watch and its admission hooks in the
// chain. The readers below type the store's objects by the kind asked (core's `isKind`), and
// core's `driverOf` hands them to each descriptor typed, so nothing here casts.
import { DEFAULT_KRUISE_NAMESPACE, type KubeObject } from '@kruise-ts/api';
import { cloneSetDescriptor } from '@kruise-ts/cloneset';
import type { AdmissionChain, AdmissionContext, Store } from '@kruise-ts/cluster';
import {
  type AdmissionEnv,
  type AnyControllerDescriptor,
  asKind,
  type DrivenAdmission,
  type DrivenReconcile,
  driverOf,
  formatFieldError,
  isKind,
  isKubeObject,
  type KindRef,
  type ObjectReader,
  onlyOfKind,
  POD,
  type ReconcileEnv,
} from '@kruise-ts/core';
import type { ControllerRegistration, ReconcileEnv as SimReconcileEnv } from './registration';

/** The one frozen empty answer of a reader (lists of a kind the store has none of). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * The store as an ObjectReader. The store holds every object as a KubeObject; a KindRef says
 * which kind is asked for, and `isKind` checks each answer is of it, which types it as the
 * KindRef's object type.
 */
export class StoreReader implements ObjectReader {
  /**
   * The owner index's answer for the last uid asked: a descriptor asks `ownedBy` once per kind it
   * reads (a CloneSet's pods, revisions and claims), and nothing writes the store while a
   * reconcile reads it, so one listing serves them all. A reader lives for one call.
   */
  private owned: { uid: string; objects: readonly KubeObject[] } | undefined;

  constructor(private readonly store: Store) {}

  get<T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined {
    const o = this.store.get(ref.apiVersion, ref.kind, namespace, name);
    return o === undefined ? undefined : asKind(o, ref);
  }

  list<T>(ref: KindRef<T>, namespace?: string): readonly T[] {
    // Most watches ask for a kind the scenario has none of: answer without listing.
    if (!this.store.hasKind(ref.apiVersion, ref.kind)) return NONE;
    return onlyOfKind(this.store.list(ref.apiVersion, ref.kind, namespace), ref);
  }

  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[] {
    if (!uid) return NONE;
    if (this.owned?.uid !== uid) this.owned = { uid, objects: this.store.listOwnedBy(uid) };
    // One pass over the owner index's listing (sorted by key), keeping the kind asked for.
    const owned = this.owned.objects;
    const out: T[] = [];
    for (let i = 0; i < owned.length; i++) {
      const o = owned[i];
      if (isKind(o, ref)) out.push(o);
    }
    return out;
  }
}

/** The admission context's read access as an ObjectReader (the chain does not hold the store). */
class AdmissionReader implements ObjectReader {
  constructor(private readonly ctx: Pick<AdmissionContext, 'list' | 'get'>) {}

  get<T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined {
    const o = this.ctx.get(ref.apiVersion, ref.kind, namespace, name);
    return o === undefined ? undefined : asKind(o, ref);
  }

  list<T>(ref: KindRef<T>, namespace?: string): readonly T[] {
    return onlyOfKind(this.ctx.list(ref.apiVersion, ref.kind, namespace), ref);
  }

  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[] {
    return this.ctx
      .list(ref.apiVersion, ref.kind)
      .filter(
        (o): o is KubeObject & T =>
          isKind(o, ref) && o.metadata.ownerReferences?.some((r) => r.uid === uid) === true,
      );
  }
}

/** What a descriptor's reconcile gets in the simulator: the loop's environment and kruise's defaults. */
function reconcileEnv(env: SimReconcileEnv): ReconcileEnv {
  return {
    featureGates: env.featureGates,
    seed: env.seed,
    structureCache: env.structureCache,
    kruiseNamespace: DEFAULT_KRUISE_NAMESPACE,
    scalingExcludePreparingDelete: false,
    // The store keeps no Namespace objects a user must create (the daemon-config one).
    withoutNamespaces: true,
  };
}

/** What a descriptor's admission hook gets from the chain's context. */
function admissionEnv<Obj>(ctx: AdmissionContext, old: Obj | undefined): AdmissionEnv<Obj> {
  return {
    operation: ctx.operation,
    ...(old !== undefined ? { old } : {}),
    featureGates: ctx.featureGates,
    reader: new AdmissionReader(ctx),
    now: ctx.now,
    kruiseNamespace: DEFAULT_KRUISE_NAMESPACE,
    ...(ctx.structureCache !== undefined ? { structureCache: ctx.structureCache } : {}),
  };
}

/**
 * Registers a descriptor's admission hooks (as its driver calls them) for objects of `primary`'s
 * kind: its defaults and validation, then a pod mutator.
 */
function admit(chain: AdmissionChain, primary: KindRef, hooks: DrivenAdmission | undefined): void {
  if (!hooks) return;
  const { default: defaults, validate, mutatePod } = hooks;
  chain.register(primary.apiVersion, primary.kind, {
    defaulters: defaults ? [(obj, ctx) => defaults(obj, admissionEnv(ctx, ctx.old))] : [],
    validators: validate ? [(obj, ctx) => validate(obj, admissionEnv(ctx, ctx.old))] : [],
  });
  if (!mutatePod) return;
  chain.register(POD.apiVersion, POD.kind, {
    mutators: [
      (obj, ctx) => {
        const pod = asKind(obj, POD);
        if (!pod) return obj;
        const r = mutatePod(pod, admissionEnv(ctx, ctx.old ? asKind(ctx.old, POD) : undefined));
        // The webhook refuses the pod: the chain reports a thrown error as a rejection.
        if (r.errors.length > 0) throw new Error(r.errors.map(formatFieldError).join(', '));
        // The pod is stored as the KubeObject it came in as (unchanged when nothing was injected);
        // an injected pod keeps the input's kind and metadata, which the check confirms.
        if (r.pod === pod) return obj;
        if (!isKubeObject(r.pod))
          throw new Error('the sidecar injection returned a pod without kind or metadata');
        return r.pod;
      },
    ],
  });
}

/**
 * The simulator's registration of a descriptor: named by its kind in the event log
 * (`controller:CloneSet`, or the descriptor's `logName`), one cache per simulation when the
 * descriptor has one (`makeReconcile`), `enqueueFor` as the watch (given the change: its type and
 * old object), and the admission hooks.
 */
export function registrationFor(d: AnyControllerDescriptor): ControllerRegistration {
  const driver = driverOf(d);
  const inStore =
    (reconcile: DrivenReconcile): ControllerRegistration['reconcile'] =>
    (store, obj, now, state, env) =>
      reconcile(obj, new StoreReader(store), now, state, reconcileEnv(env));
  const { enqueueFor, makeReconcile } = driver;
  return {
    kind: d.primary.kind,
    apiVersion: d.primary.apiVersion,
    ...(d.logName !== undefined ? { name: d.logName } : {}),
    reconcile: inStore(driver.reconcile),
    ...(makeReconcile ? { makeReconcile: () => inStore(makeReconcile()) } : {}),
    ...(enqueueFor
      ? { watches: (change, store) => enqueueFor(change.object, new StoreReader(store), change) }
      : {}),
    admission: (chain) => admit(chain, d.primary, driver.admission),
  };
}

/** CloneSet's registration, for a library user who builds a registry of their own. */
export const cloneSetController: ControllerRegistration = registrationFor(cloneSetDescriptor);

/** CloneSet admission (the mutating webhook's defaults, then the validating webhook) into a chain. */
export function admitCloneSet(chain: AdmissionChain): void {
  admit(chain, cloneSetDescriptor.primary, driverOf(cloneSetDescriptor).admission);
}
