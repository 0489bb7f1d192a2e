// The kind references of the node-side controllers' descriptors: each kind at the version the
// shells read and write it (its storage version), typed by its object.
import type {
  AdvancedCronJob,
  ContainerRecreateRequest,
  ImageListPullJob,
  ImagePullJob,
  KubeObject,
  NodeImage,
} from '@kruise-ts/api';
import { type KindRef, kindRef } from '@kruise-ts/core';

const V1A1 = 'apps.kruise.io/v1alpha1';

/** ImagePullJob (apps.kruise.io/v1alpha1). */
export const IMAGE_PULL_JOB_KIND: KindRef<ImagePullJob> = kindRef(V1A1, 'ImagePullJob');
/** ImageListPullJob (apps.kruise.io/v1alpha1). */
export const IMAGE_LIST_PULL_JOB_KIND: KindRef<ImageListPullJob> = kindRef(V1A1, 'ImageListPullJob');
/** NodeImage (apps.kruise.io/v1alpha1, cluster-scoped, named after its node). */
export const NODE_IMAGE_KIND: KindRef<NodeImage> = kindRef(V1A1, 'NodeImage');
/** ContainerRecreateRequest (apps.kruise.io/v1alpha1). */
export const CRR_KIND: KindRef<ContainerRecreateRequest> = kindRef(V1A1, 'ContainerRecreateRequest');
/** BroadcastJob (apps.kruise.io/v1alpha1): only as an AdvancedCronJob's child. */
export const BROADCAST_JOB_KIND: KindRef<KubeObject> = kindRef(V1A1, 'BroadcastJob');
/** AdvancedCronJob, stored at apps.kruise.io/v1beta1 (advancedcronjob.md AC1.1). */
export const ADVANCED_CRON_JOB_KIND: KindRef<AdvancedCronJob> = kindRef(
  'apps.kruise.io/v1beta1',
  'AdvancedCronJob',
);
