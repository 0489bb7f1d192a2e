// The node-side controllers' registrations with the simulator (packages/nodeops/README.md
// "Simulator registration"): each descriptor of @kruise-ts/nodeops through the one adapter of
// ./descriptors.ts, under the names library users import. The node side (pulls, container
// restarts) is played by @kruise-ts/cluster's nodeSide.ts.

import type { AdmissionChain } from '@kruise-ts/cluster';
import {
  advancedCronJobDescriptor,
  containerRecreateRequestDescriptor,
  imageListPullJobDescriptor,
  imagePullJobDescriptor,
  nodeImageDescriptor,
  nodeImageFromNodeDescriptor,
} from '@kruise-ts/nodeops';
import { registrationFor } from './descriptors';
import type { ControllerRegistration } from './registration';

/** ImagePullJob (daemon.md §4). */
export const imagePullJobController: ControllerRegistration = registrationFor(imagePullJobDescriptor);
/** NodeImage by NodeImage (daemon.md §5.2–§5.4). */
export const nodeImageController: ControllerRegistration = registrationFor(nodeImageDescriptor);
/** NodeImage by Node (`controller:NodeImage(node)`): creates a node's missing NodeImage (§5.2.2). */
export const nodeImageFromNodeController: ControllerRegistration =
  registrationFor(nodeImageFromNodeDescriptor);
/** ImageListPullJob (daemon.md §6.2). */
export const imageListPullJobController: ControllerRegistration = registrationFor(imageListPullJobDescriptor);
/** AdvancedCronJob (advancedcronjob.md AC4). */
export const advancedCronJobController: ControllerRegistration = registrationFor(advancedCronJobDescriptor);
/** ContainerRecreateRequest (daemon.md §9.1, §9.6). */
export const containerRecreateRequestController: ControllerRegistration = registrationFor(
  containerRecreateRequestDescriptor,
);

/** Admission of the node-operation kinds (each descriptor's defaults, then validation) into a chain. */
export function admitNodeOps(chain: AdmissionChain): void {
  for (const r of [
    imagePullJobController,
    imageListPullJobController,
    nodeImageController,
    advancedCronJobController,
    containerRecreateRequestController,
  ])
    r.admission?.(chain);
}
