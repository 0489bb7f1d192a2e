// UnitedDeployment's registration with the simulator (packages/uniteddeployment/README.md
// "Simulator registration"): the input of reconcileUnitedDeployment built from the store (the
// namespace's workloads of the four subset kinds plus ReplicaSets, its pods and revisions, now and
// the controllerState), a watch that enqueues the UnitedDeployment owning a changed pod's workload
// (the Adaptive step, uniteddeployment.md §5.2, must see pods turn Pending/Unschedulable), and the admission
// hooks (setDefaultsUnitedDeployment, then validateUnitedDeployment).
import { type KubeObject, setDefaultsUnitedDeployment, type UnitedDeployment } from '@kruise-ts/api';
import {
  reconcileUnitedDeployment,
  type UnitedDeploymentObject,
  validateUnitedDeployment,
} from '@kruise-ts/uniteddeployment';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { AdmissionChain } from '../admission';
import type { Store } from '../store';
import { type ControllerRegistration, NO_WATCHED } from './registration';

/** The subset workload kinds (uniteddeployment.md §7.1) and the ReplicaSets through which Deployment pods are found. */
const SUBSET_KINDS: readonly [string, string][] = [
  ['apps/v1', 'StatefulSet'],
  ['apps.kruise.io/v1beta1', 'StatefulSet'],
  ['apps.kruise.io/v1alpha1', 'CloneSet'],
  ['apps/v1', 'Deployment'],
  ['apps/v1', 'ReplicaSet'],
];

/** The object a controller ownerReference of `o` names (same namespace), if it exists. */
function controllerOf(store: Store, o: KubeObject | undefined): KubeObject | undefined {
  const ref = o?.metadata.ownerReferences?.find((r) => r.controller);
  return ref && o ? store.get(ref.apiVersion, ref.kind, o.metadata.namespace, ref.name) : undefined;
}

/** The UnitedDeployment controller (apps.kruise.io/v1alpha1). */
export const unitedDeploymentController: ControllerRegistration = {
  kind: 'UnitedDeployment',
  apiVersion: 'apps.kruise.io/v1alpha1',
  admission: admitUnitedDeployment,
  reconcile: (store, obj, now, state, env) => {
    const ns = obj.metadata.namespace;
    return reconcileUnitedDeployment(
      {
        unitedDeployment: obj as UnitedDeploymentObject,
        subsets: SUBSET_KINDS.flatMap(([v, k]) => store.list(v, k, ns)),
        pods: store.list('v1', 'Pod', ns) as unknown as Pod[],
        revisions: store.list('apps/v1', 'ControllerRevision', ns) as unknown as ControllerRevision[],
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
  },
  // A pod change enqueues the UnitedDeployment owning the pod's workload (Deployment: through its
  // ReplicaSet). Workload changes reach the UnitedDeployment through the owner reference.
  watches: (change, store) => {
    const pod = change.object;
    if (pod.kind !== 'Pod' || !store.hasKind('apps.kruise.io/v1alpha1', 'UnitedDeployment'))
      return NO_WATCHED;
    let workload = controllerOf(store, pod);
    if (workload?.kind === 'ReplicaSet') workload = controllerOf(store, workload);
    const ud = controllerOf(store, workload);
    return ud?.kind === 'UnitedDeployment' ? [ud] : [];
  },
};

/** UnitedDeployment admission: the defaults, then the uniteddeployment.md §1.4 validation. */
export function admitUnitedDeployment(chain: AdmissionChain): void {
  chain.register('apps.kruise.io/v1alpha1', 'UnitedDeployment', {
    defaulters: [
      (obj, ctx) =>
        setDefaultsUnitedDeployment(obj as UnitedDeployment, {
          featureGates: ctx.featureGates,
          old: ctx.old,
        }) as unknown as KubeObject,
    ],
    validators: [
      (obj, ctx) =>
        validateUnitedDeployment(
          obj as UnitedDeploymentObject,
          ctx.old as UnitedDeploymentObject | undefined,
        ),
    ],
  });
}
