// The UnitedDeployment controller as every shell drives it (docs/architecture.md "The registry
// layer"): its reconcile reads the namespace's workloads of the four subset kinds plus the
// ReplicaSets through which Deployment pods are found (§7.1), its pods and revisions, and the
// state the previous reconcile returned (the requeue store, §11); a pod change concerns the
// UnitedDeployment owning the pod's workload, so the Adaptive step (§5.2) sees pods turn
// Pending/Unschedulable; its admission is the defaults and the §1.4 validation.
import {
  type KubeObject,
  setDefaultsUnitedDeployment,
  type UnitedDeployment,
  type UnitedDeploymentStatus,
} from '@kruise-ts/api';
import {
  CONTROLLER_REVISION,
  controllerOf,
  defineController,
  isOfKind,
  type KindRef,
  kindRef,
  NOTHING_TO_ENQUEUE,
  POD,
} from '@kruise-ts/core';
import { reconcileUnitedDeployment, type UnitedDeploymentControllerState } from './reconcile';
import { validateUnitedDeployment } from './validation';

/** The UnitedDeployment kind (apps.kruise.io/v1alpha1). */
export const UNITEDDEPLOYMENT_KIND = kindRef<UnitedDeployment>('apps.kruise.io/v1alpha1', 'UnitedDeployment');

/**
 * The subset workload kinds (§7.1) and the ReplicaSets through which Deployment pods are found,
 * in the order the reconcile's input lists them.
 */
export const SUBSET_WORKLOAD_KINDS: readonly KindRef<KubeObject>[] = [
  kindRef<KubeObject>('apps/v1', 'StatefulSet'),
  kindRef<KubeObject>('apps.kruise.io/v1beta1', 'StatefulSet'),
  kindRef<KubeObject>('apps.kruise.io/v1alpha1', 'CloneSet'),
  kindRef<KubeObject>('apps/v1', 'Deployment'),
  kindRef<KubeObject>('apps/v1', 'ReplicaSet'),
];

/** The UnitedDeployment controller: `uniteddeployment-controller` (docs/reference/operator.md §3.5). */
export const unitedDeploymentDescriptor = defineController<
  UnitedDeployment,
  UnitedDeploymentStatus,
  UnitedDeploymentControllerState
>({
  name: 'uniteddeployment-controller',
  primary: UNITEDDEPLOYMENT_KIND,
  secondary: [POD, CONTROLLER_REVISION, ...SUBSET_WORKLOAD_KINDS],
  // A pod change concerns the UnitedDeployment owning the pod's workload (a Deployment's through
  // its ReplicaSet). Workload changes reach it through their controller ownerReference.
  enqueueFor: (changed, reader) => {
    if (!isOfKind(changed, POD) || reader.list(UNITEDDEPLOYMENT_KIND).length === 0) return NOTHING_TO_ENQUEUE;
    let workload = controllerOf(reader, changed);
    if (workload?.kind === 'ReplicaSet') workload = controllerOf(reader, workload);
    const owner = workload?.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (!owner || !workload || owner.kind !== UNITEDDEPLOYMENT_KIND.kind) return NOTHING_TO_ENQUEUE;
    const ud = reader.get(UNITEDDEPLOYMENT_KIND, workload.metadata?.namespace, owner.name);
    return ud ? [ud] : NOTHING_TO_ENQUEUE;
  },
  readSet: (ud) => [ud],
  // The reconcile's input takes mutable arrays, so the reader's answers are copied.
  reconcile: (unitedDeployment, reader, now, state, env) => {
    const ns = unitedDeployment.metadata?.namespace;
    return reconcileUnitedDeployment(
      {
        unitedDeployment,
        subsets: SUBSET_WORKLOAD_KINDS.flatMap((k) => reader.list(k, ns)),
        pods: [...reader.list(POD, ns)],
        revisions: [...reader.list(CONTROLLER_REVISION, ns)],
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
  },
  admission: {
    default: (ud, env) => setDefaultsUnitedDeployment(ud, { featureGates: env.featureGates, old: env.old }),
    validate: (ud, env) => validateUnitedDeployment(ud, env.old),
  },
});
