import { type AdmissionChain, groupOf, installDeletionProtection } from '@kruise-ts/cluster';
import { nodeOpsDescriptors, workloadDescriptors } from '@kruise-ts/registry';
import { deploymentController } from './kinds/deployment';
import { registrationFor } from './kinds/descriptors';
import { jobController } from './kinds/job';
import { nativeStatefulSetController } from './kinds/nativeStatefulSet';
import type { ControllerRegistration } from './kinds/registration';
import { replicaSetController } from './kinds/replicaset';

export { type ControllerRegistration, NO_WATCHED, type ReconcileEnv } from './kinds/registration';

// The simulator's controller registries. A simulation owns its registry: `createDefaultRegistry()`
// builds a fresh one of every controller kruise-ts ships for each caller, so no registry is shared
// between simulations and nothing a caller adds reaches another. `defaultRegistry`, the one built
// at load, is sealed (read-only) and kept only for callers that read it.

/** A set of controllers keyed by API group and kind. */
export class ControllerRegistry {
  private byKind = new Map<string, ControllerRegistration>();
  /** True for a registry no one may change (`defaultRegistry`). */
  private sealed = false;
  /** kind → group → registration: the per-change lookup builds no key string. */
  private byKindGroup = new Map<string, Map<string, ControllerRegistration>>();

  /** Adds (or replaces) the controller of a kind; a sealed registry refuses (a TypeError, as a frozen object does). */
  register(reg: ControllerRegistration): this {
    if (this.sealed)
      throw new TypeError(
        'the default controller registry is read-only: register into createDefaultRegistry() and pass it as `registry`',
      );
    const group = groupOf(reg.apiVersion);
    this.byKind.set(`${group}/${reg.kind}`, reg);
    let byGroup = this.byKindGroup.get(reg.kind);
    if (!byGroup) {
      byGroup = new Map();
      this.byKindGroup.set(reg.kind, byGroup);
    }
    byGroup.set(group, reg);
    return this;
  }

  /** The controller of an object's kind. */
  forKind(apiVersion: string, kind: string): ControllerRegistration | undefined {
    return this.byKindGroup.get(kind)?.get(groupOf(apiVersion));
  }

  /** Every registration, in registration order. */
  all(): ControllerRegistration[] {
    return [...this.byKind.values()];
  }

  /** Makes this registry read-only: `register` refuses from now on. */
  seal(): this {
    this.sealed = true;
    return this;
  }

  /** A copy, never sealed (a simulation owns its registry). */
  clone(): ControllerRegistry {
    const c = new ControllerRegistry();
    for (const r of this.byKind.values()) c.register(r);
    return c;
  }

  /**
   * Registers every controller's admission hooks into a chain, and kruise's deletion protection
   * (docs/reference/operator.md §1; it acts only with the gate `ResourcesDeletionProtection`) when any
   * controller is registered: an empty registry (`serve --controllers none`) installs nothing.
   */
  installAdmission(chain: AdmissionChain): AdmissionChain {
    for (const r of this.byKind.values()) r.admission?.(chain);
    if (this.byKind.size > 0) installDeletionProtection(chain);
    return chain;
  }
}

/**
 * A fresh registry of every controller kruise-ts ships, for one simulation or one caller to add
 * its own to: the workload controllers of @kruise-ts/registry, each through the one adapter of
 * kinds/descriptors.ts, then the simulator-only kinds (native workloads), the node-side
 * controllers of the registry's `nodeOpsDescriptors` through the same adapter, and Jobs.
 * Example: `new Simulation({ registry: createDefaultRegistry().register(myController) })`.
 */
export function createDefaultRegistry(): ControllerRegistry {
  const registry = new ControllerRegistry();
  for (const d of workloadDescriptors) registry.register(registrationFor(d));
  registry.register(nativeStatefulSetController);
  registry.register(deploymentController);
  registry.register(replicaSetController);
  for (const d of nodeOpsDescriptors) registry.register(registrationFor(d));
  registry.register(jobController);
  return registry;
}

/**
 * Every controller kruise-ts ships, in a registry built once and sealed: reading it works,
 * `register` refuses.
 * @deprecated Call `createDefaultRegistry()`, which gives each caller its own registry to read or
 * add to; a simulation without `registry` builds one itself.
 */
export const defaultRegistry: ControllerRegistry = createDefaultRegistry().seal();

/**
 * Registers a controller into `registry`.
 * @deprecated Call `registry.register(reg)`. The registry is now required: the default registry
 * is read-only (`createDefaultRegistry()` gives one to add to).
 */
export function registerController(reg: ControllerRegistration, registry: ControllerRegistry): void {
  registry.register(reg);
}

// `ownedOfKind` lives with the kinds' registrations that use it (kinds/owned.ts).
export { ownedOfKind } from './kinds/owned';
