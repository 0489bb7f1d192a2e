// The ImageListPullJob controller as every shell drives it (docs/reference/daemon.md §6.2): one
// child ImagePullJob per image; it reads the ImagePullJobs of its namespace, and a child's change
// enqueues it through the child's controller ownerReference (no `enqueueFor`).
import {
  type ImageListPullJob,
  type ImageListPullJobStatus,
  setDefaultsImageListPullJob,
} from '@kruise-ts/api';
import { defineController, resolveFeatureGates } from '@kruise-ts/core';
import {
  type ImageListPullJobControllerState,
  reconcileImageListPullJob,
} from '../imagelistpulljob/reconcile';
import { validateImageListPullJob } from '../imagepulljob/validation';
import { IMAGE_LIST_PULL_JOB_KIND, IMAGE_PULL_JOB_KIND } from './kinds';

/**
 * `imagelistpulljob-controller` (operator.md §3.5; needs `KruiseDaemon` and `ImagePullJobGate`).
 */
export const imageListPullJobDescriptor = defineController<
  ImageListPullJob,
  ImageListPullJobStatus,
  ImageListPullJobControllerState
>({
  name: 'imagelistpulljob-controller',
  primary: IMAGE_LIST_PULL_JOB_KIND,
  secondary: [IMAGE_PULL_JOB_KIND],
  enabled: (g) => {
    const gates = resolveFeatureGates(g);
    return gates.KruiseDaemon && gates.ImagePullJobGate;
  },
  // An object without metadata (refused by the reconcile) or a uid owns nothing.
  readSet: (job, reader) => {
    const uid = job.metadata?.uid;
    return uid ? [job, ...reader.ownedBy(IMAGE_PULL_JOB_KIND, uid)] : [job];
  },
  reconcile: (imageListPullJob, reader, now, state) =>
    reconcileImageListPullJob({
      imageListPullJob,
      imagePullJobs: reader.list(IMAGE_PULL_JOB_KIND, imageListPullJob.metadata?.namespace),
      now,
      controllerState: state,
    }),
  admission: {
    default: (job, env) => setDefaultsImageListPullJob(job, { old: env.old }),
    validate: (job, env) => validateImageListPullJob(job, env.old),
  },
});
