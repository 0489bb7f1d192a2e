// The controllers the operator runs: every controller of @kruise-ts/registry (workload and
// node-side), each through the one adapter of fromDescriptor.ts. No rollout math here: every
// decision is the controller package's.
import type { AnyControllerDescriptor, FeatureGates } from '@kruise-ts/core';
import {
  advancedCronJobDescriptor,
  containerRecreateRequestDescriptor,
  imageListPullJobDescriptor,
  imagePullJobDescriptor,
  nodeImageDescriptor,
  nodeImageFromNodeDescriptor,
} from '@kruise-ts/nodeops';
import { allDescriptors, workloadDescriptors } from '@kruise-ts/registry';
import type { OperatorController } from './common';
import { controllerFor } from './fromDescriptor';
import {
  advancedCronJobController,
  containerRecreateRequestController,
  imageListPullJobController,
  imagePullJobController,
  nodeImageController,
  nodeImageFromNodeController,
} from './nodeops';

export * from './common';
export {
  type DiscoveryOptions,
  isServed,
  resolveControllers,
  type ServedKinds,
  servedKinds,
} from './discovery';
export { CacheObjectReader, controllerFor } from './fromDescriptor';
export * from './nodeops';

/** The workload controllers: one per descriptor of @kruise-ts/registry, in the registry's order. */
export const workloadControllers: readonly OperatorController[] = workloadDescriptors.map(controllerFor);

/** The controller this module already made of a descriptor (one object per controller). */
function controllerOf(d: AnyControllerDescriptor): OperatorController | undefined {
  const i = workloadDescriptors.indexOf(d);
  if (i >= 0) return workloadControllers[i];
  const nodeOps: readonly [AnyControllerDescriptor, OperatorController][] = [
    [imagePullJobDescriptor, imagePullJobController],
    [nodeImageDescriptor, nodeImageController],
    [nodeImageFromNodeDescriptor, nodeImageFromNodeController],
    [imageListPullJobDescriptor, imageListPullJobController],
    [advancedCronJobDescriptor, advancedCronJobController],
    [containerRecreateRequestDescriptor, containerRecreateRequestController],
  ];
  return nodeOps.find(([desc]) => desc === d)?.[1];
}

/**
 * Every controller, in docs/reference/operator.md §3.5 registration order (the registry's
 * `allDescriptors`; the NodeImage controller runs as two runners: by NodeImage, and by Node for
 * the NodeImages that do not exist yet).
 */
export const allControllers: readonly OperatorController[] = allDescriptors.map(
  (d) => controllerOf(d) ?? controllerFor(d),
);

/** The `--controllers` name of a controller: `selectAs`, else its name without `-controller`. */
export function shortName(c: OperatorController): string {
  return c.selectAs ?? c.name.replace(/-controller$/, '');
}

/**
 * Controllers by their short name (`cloneset`, `statefulset`, `imagepulljob`, ...), for
 * `--controllers`; with `gates`, only those whose §3.5 condition holds (e.g. `imagepulljob`
 * needs `KruiseDaemon` and `ImagePullJobGate`). The CRD half of §3.5 is `resolveControllers`.
 */
export function selectControllers(
  names: readonly string[] | 'all',
  gates?: FeatureGates,
): OperatorController[] {
  const picked =
    names === 'all' ? [...allControllers] : allControllers.filter((c) => names.includes(shortName(c)));
  return gates ? picked.filter((c) => c.enabled?.(gates) ?? true) : picked;
}
