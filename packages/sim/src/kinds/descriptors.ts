// The simulator's one adapter for every controller descriptor of @kruise-ts/registry: the store
// read through an ObjectReader, the descriptor's reconcile called with the simulation's
// environment, its `enqueueFor` as the registration's watch and its admission hooks in the
// chain. This file and the readers below are the only places where the store's untyped objects
// meet the descriptors' typed ones.
import { DEFAULT_KRUISE_NAMESPACE, type KubeObject } from '@kruise-ts/api';
import { cloneSetDescriptor } from '@kruise-ts/cloneset';
import {
  type AdmissionEnv,
  type AnyControllerDescriptor,
  asKind,
  formatFieldError,
  isOfKind,
  type KindRef,
  type ObjectReader,
  POD,
  type ReconcileEnv,
} from '@kruise-ts/core';
import type { AdmissionChain, AdmissionContext } from '../admission';
import type { Store } from '../store';
import type { ControllerRegistration, ReconcileEnv as SimReconcileEnv } from './registration';

/** The one frozen empty answer of a reader (lists of a kind the store has none of). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * The store as an ObjectReader. The store holds every object as a KubeObject; a KindRef says
 * which kind is asked for and the store answers only objects of that kind, so the answer is
 * typed as the KindRef's object type here, once for every descriptor.
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
    return this.store.get(ref.apiVersion, ref.kind, namespace, name) as T | undefined;
  }

  list<T>(ref: KindRef<T>, namespace?: string): readonly T[] {
    // Most watches ask for a kind the scenario has none of: answer without listing.
    if (!this.store.hasKind(ref.apiVersion, ref.kind)) return NONE;
    return this.store.list(ref.apiVersion, ref.kind, namespace) as unknown as readonly T[];
  }

  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[] {
    if (!uid) return NONE;
    if (this.owned?.uid !== uid) this.owned = { uid, objects: this.store.listOwnedBy(uid) };
    // One pass over the owner index's listing (sorted by key), keeping the kind asked for.
    const owned = this.owned.objects;
    const out: KubeObject[] = [];
    for (let i = 0; i < owned.length; i++) {
      const o = owned[i];
      if (isOfKind(o, ref)) out.push(o);
    }
    return out as unknown as readonly T[];
  }
}

/** The admission context's read access as an ObjectReader (the chain does not hold the store). */
class AdmissionReader implements ObjectReader {
  constructor(private readonly ctx: Pick<AdmissionContext, 'list' | 'get'>) {}

  get<T>(ref: KindRef<T>, namespace: string | undefined, name: string): T | undefined {
    return this.ctx.get(ref.apiVersion, ref.kind, namespace, name) as T | undefined;
  }

  list<T>(ref: KindRef<T>, namespace?: string): readonly T[] {
    return this.ctx.list(ref.apiVersion, ref.kind, namespace) as unknown as readonly T[];
  }

  ownedBy<T>(ref: KindRef<T>, uid: string): readonly T[] {
    const owned = this.ctx
      .list(ref.apiVersion, ref.kind)
      .filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === uid));
    return owned as unknown as readonly T[];
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

/** Registers a descriptor's admission hooks: its kind's defaults and validation, then a pod mutator. */
function admit(chain: AdmissionChain, d: AnyControllerDescriptor): void {
  const hooks = d.admission;
  if (!hooks) return;
  const { default: defaults, validate, mutatePod } = hooks;
  chain.register(d.primary.apiVersion, d.primary.kind, {
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
        // The pod is stored as the KubeObject it came in as (unchanged when nothing was injected).
        return r.pod === pod ? obj : (r.pod as unknown as KubeObject);
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
  const reconcileWith =
    (cache: unknown): ControllerRegistration['reconcile'] =>
    (store, obj, now, state, env) =>
      d.reconcile(obj, new StoreReader(store), now, state, reconcileEnv(env), cache);
  const { enqueueFor, createCache } = d;
  return {
    kind: d.primary.kind,
    apiVersion: d.primary.apiVersion,
    ...(d.logName !== undefined ? { name: d.logName } : {}),
    reconcile: reconcileWith(undefined),
    ...(createCache ? { makeReconcile: () => reconcileWith(createCache()) } : {}),
    ...(enqueueFor
      ? { watches: (change, store) => enqueueFor(change.object, new StoreReader(store), change) }
      : {}),
    admission: (chain) => admit(chain, d),
  };
}

/** CloneSet's registration, for a library user who builds a registry of their own. */
export const cloneSetController: ControllerRegistration = registrationFor(cloneSetDescriptor);

/** CloneSet admission (the mutating webhook's defaults, then the validating webhook) into a chain. */
export function admitCloneSet(chain: AdmissionChain): void {
  admit(chain, cloneSetDescriptor);
}
