import { nodeOpsDescriptors, workloadDescriptors } from '@kruise-ts/registry';
import { type AdmissionChain, installDeletionProtection } from './admission';
import { groupOf } from './keys';
import { deploymentController } from './kinds/deployment';
import { registrationFor } from './kinds/descriptors';
import { jobController } from './kinds/job';
import { nativeStatefulSetController } from './kinds/nativeStatefulSet';
import type { ControllerRegistration } from './kinds/registration';
import { replicaSetController } from './kinds/replicaset';

export { type ControllerRegistration, NO_WATCHED, type ReconcileEnv } from './kinds/registration';

/** A set of controllers keyed by API group and kind. */
export class ControllerRegistry {
  private byKind = new Map<string, ControllerRegistration>();
  /** kind → group → registration: the per-change lookup builds no key string. */
  private byKindGroup = new Map<string, Map<string, ControllerRegistration>>();

  /** Adds (or replaces) the controller of a kind. */
  register(reg: ControllerRegistration): this {
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

  /** A copy (a simulation owns its registry). */
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

/** The default registry: every controller kruise-ts ships. */
export const defaultRegistry = new ControllerRegistry();

/** Registers a controller (into the default registry unless one is given). */
export function registerController(
  reg: ControllerRegistration,
  registry: ControllerRegistry = defaultRegistry,
): void {
  registry.register(reg);
}

// `ownedOfKind` lives with the kinds' registrations that use it (kinds/owned.ts).
export { ownedOfKind } from './kinds/owned';

// ---- the controllers -------------------------------------------------------------
// The workload controllers come from @kruise-ts/registry, each through the one adapter of
// kinds/descriptors.ts, then the simulator-only kinds (native workloads), the node-side
// controllers of the registry's `nodeOpsDescriptors` through the same adapter, and Jobs.
for (const d of workloadDescriptors) registerController(registrationFor(d));
registerController(nativeStatefulSetController);
registerController(deploymentController);
registerController(replicaSetController);
for (const d of nodeOpsDescriptors) registerController(registrationFor(d));
registerController(jobController);
