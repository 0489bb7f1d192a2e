// The one place controllers are registered with the simulator. A controller is
// a pure reconcile function from its package plus a few lines that build its
// input from the store (the object, its owned pods/revisions/PVCs, nodes, now,
// controllerState). Each later controller (Advanced StatefulSet, DaemonSet,
// SidecarSet, UnitedDeployment, image and container-restart controllers) plugs
// in with one `registerController(...)` line at the bottom of this file.
import type { KubeObject } from '@kruise-ts/api';
import type { FeatureGates, ReconcileResult } from '@kruise-ts/core';
import { type AdmissionChain, installDeletionProtection } from './admission';
import { groupOf } from './keys';
import { cloneSetController } from './kinds/cloneset';
import { daemonSetController } from './kinds/daemonset';
import { deploymentController } from './kinds/deployment';
import { jobController } from './kinds/job';
import { nativeStatefulSetController } from './kinds/nativeStatefulSet';
import {
  advancedCronJobController,
  containerRecreateRequestController,
  imageListPullJobController,
  imagePullJobController,
  nodeImageController,
  nodeImageFromNodeController,
} from './kinds/nodeops';
import { replicaSetController } from './kinds/replicaset';
import { sidecarSetController } from './kinds/sidecarset';
import { admitStatefulSet, statefulSetController } from './kinds/statefulset';
import { unitedDeploymentController } from './kinds/uniteddeployment';
import type { Change, Store } from './store';

/**
 * What a `watches` hook returns when the change concerns none of its objects: one shared, frozen
 * empty list (the hooks run on every store write, ~110k times in a 10k-pod rollout).
 */
export const NO_WATCHED: readonly KubeObject[] = Object.freeze([]);

/** What a reconcile gets besides the object. */
export interface ReconcileEnv {
  featureGates: Partial<FeatureGates>;
  /** A fresh seed for this reconcile (drawn from the scenario seed). */
  seed: number;
}

/** One controller: the kind it reconciles and how to call its pure function. */
export interface ControllerRegistration {
  kind: string;
  apiVersion: string;
  /** Name in logs (`controller:<name>`); defaults to the kind. */
  name?: string;
  /**
   * Builds the input from the store and calls the pure reconcile. `state` is the
   * `controllerState` the previous reconcile of this object returned.
   */
  reconcile: (
    store: Store,
    obj: KubeObject,
    now: string,
    state: unknown,
    env: ReconcileEnv,
  ) => ReconcileResult<unknown>;
  /**
   * Extra watches: objects of this controller's kind to enqueue when another
   * object changes (owners through controller ownerReferences are enqueued
   * without this).
   */
  watches?: (change: Change, store: Store) => readonly KubeObject[];
  /** Admission hooks of the kind (defaults + validation), registered with the controller. */
  admission?: (chain: AdmissionChain) => void;
}

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

// ---- the controllers: one line each -------------------------------------------
// A later controller adds `src/kinds/<kind>.ts` (its input builder and admission
// hooks) and one line here, e.g. `registerController(statefulSetController);`.
registerController(cloneSetController);
registerController({ ...statefulSetController, admission: admitStatefulSet });
registerController(daemonSetController);
registerController(unitedDeploymentController);
registerController(nativeStatefulSetController);
registerController(deploymentController);
registerController(replicaSetController);
registerController(imagePullJobController);
registerController(nodeImageController);
registerController(nodeImageFromNodeController);
registerController(imageListPullJobController);
registerController(advancedCronJobController);
registerController(containerRecreateRequestController);
registerController(sidecarSetController);
registerController(jobController);
