// The node-side controllers in the operator (docs/reference/operator.md §3.5): each descriptor of
// @kruise-ts/nodeops through the one adapter of ./fromDescriptor.ts, under the names library
// users and tests import, and the node-side kinds at the versions the operator reads and writes
// them. The node half (pulls, container restarts) is kruise-daemon's (packages/daemon).
import {
  ADVANCED_CRON_JOB_KIND,
  advancedCronJobDescriptor,
  BROADCAST_JOB_KIND,
  CRR_KIND,
  containerRecreateRequestDescriptor,
  IMAGE_LIST_PULL_JOB_KIND,
  IMAGE_PULL_JOB_KIND,
  imageListPullJobDescriptor,
  imagePullJobDescriptor,
  NODE_IMAGE_KIND,
  nodeImageDescriptor,
  nodeImageFromNodeDescriptor,
} from '@kruise-ts/nodeops';
import type { KindRef, OperatorController } from './common';
import { controllerFor } from './fromDescriptor';

/** The kinds at the version the operator reads and writes them (their storage versions). */
export const IMAGEPULLJOB: KindRef = IMAGE_PULL_JOB_KIND;
export const IMAGELISTPULLJOB: KindRef = IMAGE_LIST_PULL_JOB_KIND;
export const NODEIMAGE: KindRef = NODE_IMAGE_KIND;
export const CRR: KindRef = CRR_KIND;
export const BROADCASTJOB: KindRef = BROADCAST_JOB_KIND;
/** AdvancedCronJob is stored at v1beta1 (docs/reference/advancedcronjob.md AC1.1). */
export const ADVANCEDCRONJOB: KindRef = ADVANCED_CRON_JOB_KIND;

/** `imagepulljob-controller` (docs/reference/daemon.md §4). */
export const imagePullJobController: OperatorController = controllerFor(imagePullJobDescriptor);
/** `nodeimage-controller` by NodeImage (docs/reference/daemon.md §5). */
export const nodeImageController: OperatorController = controllerFor(nodeImageDescriptor);
/** `nodeimage-controller` by Node: creates a node's missing NodeImage (§5.2 item 2). */
export const nodeImageFromNodeController: OperatorController = controllerFor(nodeImageFromNodeDescriptor);
/** `imagelistpulljob-controller` (docs/reference/daemon.md §6.2). */
export const imageListPullJobController: OperatorController = controllerFor(imageListPullJobDescriptor);
/** `advancedcronjob-controller` (docs/reference/advancedcronjob.md AC4, AC6). */
export const advancedCronJobController: OperatorController = controllerFor(advancedCronJobDescriptor);
/** `containerrecreaterequest-controller` (docs/reference/daemon.md §9.1, §9.6). */
export const containerRecreateRequestController: OperatorController = controllerFor(
  containerRecreateRequestDescriptor,
);
