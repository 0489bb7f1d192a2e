// @kruise-ts/registry: the controllers of kruise-ts (workload and node-side), each as the descriptor its package
// exports (docs/architecture.md "The registry layer"), in one list the shells loop over. The
// simulator and the operator each read objects through their own ObjectReader and run these
// descriptors; neither has per-kind code for them.
import { cloneSetDescriptor } from '@kruise-ts/cloneset';
import { type AnyControllerDescriptor, apiGroupOf } from '@kruise-ts/core';
import { daemonSetDescriptor } from '@kruise-ts/daemonset';
import {
  advancedCronJobDescriptor,
  containerRecreateRequestDescriptor,
  imageListPullJobDescriptor,
  imagePullJobDescriptor,
  nodeImageDescriptor,
  nodeImageFromNodeDescriptor,
} from '@kruise-ts/nodeops';
import { sidecarSetDescriptor } from '@kruise-ts/sidecarset';
import { statefulSetDescriptor } from '@kruise-ts/statefulset';
import { unitedDeploymentDescriptor } from '@kruise-ts/uniteddeployment';

/**
 * Every workload controller, in the order a shell registers them: CloneSet, Advanced
 * StatefulSet, Advanced DaemonSet, UnitedDeployment, SidecarSet.
 */
export const workloadDescriptors: readonly AnyControllerDescriptor[] = Object.freeze([
  cloneSetDescriptor,
  statefulSetDescriptor,
  daemonSetDescriptor,
  unitedDeploymentDescriptor,
  sidecarSetDescriptor,
]);

/**
 * Every node-side controller (@kruise-ts/nodeops), in the order the simulator registers them:
 * ImagePullJob, NodeImage by NodeImage, NodeImage by Node (`nodeimage-controller(node)`, selected
 * as `nodeimage`), ImageListPullJob, AdvancedCronJob, ContainerRecreateRequest.
 */
export const nodeOpsDescriptors: readonly AnyControllerDescriptor[] = Object.freeze([
  imagePullJobDescriptor,
  nodeImageDescriptor,
  nodeImageFromNodeDescriptor,
  imageListPullJobDescriptor,
  advancedCronJobDescriptor,
  containerRecreateRequestDescriptor,
]);

/** The `--controllers` words in docs/reference/operator.md §3.5 registration order. */
const REGISTRATION_ORDER: readonly string[] = [
  'advancedcronjob',
  'cloneset',
  'containerrecreaterequest',
  'daemonset',
  'nodeimage',
  'imagepulljob',
  'sidecarset',
  'statefulset',
  'uniteddeployment',
  'imagelistpulljob',
];

/**
 * The `--controllers` word of a descriptor: its `selectAs`, else its name without `-controller`.
 * Example: `nodeImageFromNodeDescriptor` → `"nodeimage"`; `cloneSetDescriptor` → `"cloneset"`.
 */
export function selectName(d: AnyControllerDescriptor): string {
  return d.selectAs ?? d.name.replace(/-controller$/, '');
}

/** Where a descriptor comes in §3.5 order (one §3.5 does not list comes last). */
function registrationIndex(d: AnyControllerDescriptor): number {
  const i = REGISTRATION_ORDER.indexOf(selectName(d));
  return i < 0 ? REGISTRATION_ORDER.length : i;
}

/**
 * Every controller, workload and node-side, in docs/reference/operator.md §3.5 registration order
 * (the two NodeImage runners together, by NodeImage first). Each one's `enabled(gates)` says
 * whether the feature gates allow it.
 */
export const allDescriptors: readonly AnyControllerDescriptor[] = Object.freeze(
  [...workloadDescriptors, ...nodeOpsDescriptors]
    .map((d, i) => ({ d, i }))
    .sort((a, b) => registrationIndex(a.d) - registrationIndex(b.d) || a.i - b.i)
    .map(({ d }) => d),
);

/**
 * The workload descriptor of a kind, matched by API group and kind (every version of a group
 * names the same objects), or `undefined`.
 * Example: `descriptorForKind('apps.kruise.io/v1alpha1', 'StatefulSet')` → the Advanced
 * StatefulSet descriptor (its primary is `apps.kruise.io/v1beta1`); `('apps/v1', 'StatefulSet')` →
 * `undefined` (the native StatefulSet is not a Kruise controller).
 */
export function descriptorForKind(apiVersion: string, kind: string): AnyControllerDescriptor | undefined {
  const group = apiGroupOf(apiVersion);
  return workloadDescriptors.find(
    (d) => d.primary.kind === kind && apiGroupOf(d.primary.apiVersion) === group,
  );
}

/**
 * The workload descriptor called `name`: its docs/reference/operator.md §3.5 name
 * (`cloneset-controller`) or that name without `-controller` (`cloneset`, the `--controllers` word).
 */
export function descriptorNamed(name: string): AnyControllerDescriptor | undefined {
  return workloadDescriptors.find((d) => d.name === name || d.name === `${name}-controller`);
}
