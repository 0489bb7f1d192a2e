// The ImagePullJob controller as every shell drives it (docs/reference/daemon.md §4): it spreads
// one image to the NodeImages it targets and reports their pull results. It reads every
// NodeImage, its namespace's pods (podSelector jobs), the Secrets of its namespace and of the
// daemon-config namespace (pull-secret copies, §4.5) and the Namespaces (the daemon-config
// namespace must exist). §4.7: NodeImage, pod and Secret changes enqueue the jobs they concern.
import {
  type ImagePullJob,
  type ImagePullJobStatus,
  KRUISE_DAEMON_CONFIG_NAMESPACE,
  type KubeObject,
  type NodeImage,
  setDefaultsImagePullJob,
} from '@kruise-ts/api';
import {
  asKind,
  defineController,
  NAMESPACE,
  NOTHING_TO_ENQUEUE,
  type ObjectChange,
  type ObjectReader,
  POD,
  resolveFeatureGates,
  SECRET,
} from '@kruise-ts/core';
import { type ImagePullJobControllerState, reconcileImagePullJob } from '../imagepulljob/reconcile';
import {
  imagePullJobsForNodeImageEvent,
  imagePullJobsForPodEvent,
  imagePullJobsForSecretEvent,
  isImagePullJobActive,
} from '../imagepulljob/targets';
import { validateImagePullJob } from '../imagepulljob/validation';
import { IMAGE_PULL_JOB_KIND, NODE_IMAGE_KIND } from './kinds';

/** The change's old and new object, typed by `as` (`new` absent for a delete, `old` for a create). */
function oldAndNew<T>(
  obj: T,
  change: ObjectChange | undefined,
  as: (o: KubeObject) => T | undefined,
): { old?: T; new?: T } {
  const old = change?.old ? as(change.old) : undefined;
  const cur = change?.type === 'deleted' ? undefined : obj;
  return { ...(old !== undefined ? { old } : {}), ...(cur !== undefined ? { new: cur } : {}) };
}

/** §4.7: the jobs a NodeImage change concerns (pods matter only to podSelector jobs). */
function forNodeImage(
  ni: NodeImage,
  reader: ObjectReader,
  change: ObjectChange | undefined,
  jobs: readonly ImagePullJob[],
): readonly ImagePullJob[] {
  const name = ni.metadata?.name;
  const pods = jobs.some((j) => j.spec?.podSelector)
    ? reader.list(POD).filter((p) => p.spec?.nodeName === name)
    : [];
  const c = oldAndNew(ni, change, (o) => asKind(o, NODE_IMAGE_KIND));
  return imagePullJobsForNodeImageEvent(c, jobs, pods);
}

/**
 * §4.5 item 4: the jobs of a Secret's namespace naming it in `pullSecrets`. With the change at
 * hand, only when its data changed; without it, every such active job.
 */
function forSecret(
  changed: KubeObject,
  reader: ObjectReader,
  change: ObjectChange | undefined,
): readonly ImagePullJob[] {
  const secret = asKind(changed, SECRET);
  if (!secret) return NOTHING_TO_ENQUEUE;
  const jobs = reader.list(IMAGE_PULL_JOB_KIND, secret.metadata?.namespace);
  if (jobs.length === 0) return NOTHING_TO_ENQUEUE;
  if (change)
    return imagePullJobsForSecretEvent(
      oldAndNew(secret, change, (o) => asKind(o, SECRET)),
      jobs,
    );
  const name = secret.metadata?.name ?? '';
  return jobs.filter((j) => isImagePullJobActive(j) && (j.spec?.pullSecrets ?? []).includes(name));
}

/** The Secrets a job reads (§4.5): its namespace's, plus the copies in the daemon-config namespace. */
function secretsFor(reader: ObjectReader, namespace: string | undefined, daemonNs: string) {
  const own = reader.list(SECRET, namespace);
  return namespace === daemonNs ? own : [...own, ...reader.list(SECRET, daemonNs)];
}

/** `imagepulljob-controller` (operator.md §3.5; needs `KruiseDaemon` and `ImagePullJobGate`). */
export const imagePullJobDescriptor = defineController<
  ImagePullJob,
  ImagePullJobStatus,
  ImagePullJobControllerState
>({
  name: 'imagepulljob-controller',
  primary: IMAGE_PULL_JOB_KIND,
  secondary: [NODE_IMAGE_KIND, POD, SECRET, NAMESPACE],
  enabled: (g) => {
    const gates = resolveFeatureGates(g);
    return gates.KruiseDaemon && gates.ImagePullJobGate;
  },
  enqueueFor: (changed, reader, change) => {
    const ni = asKind(changed, NODE_IMAGE_KIND);
    if (ni) {
      const jobs = reader.list(IMAGE_PULL_JOB_KIND);
      return jobs.length === 0 ? NOTHING_TO_ENQUEUE : forNodeImage(ni, reader, change, jobs);
    }
    const pod = asKind(changed, POD);
    if (pod) {
      const jobs = reader.list(IMAGE_PULL_JOB_KIND, pod.metadata?.namespace);
      if (jobs.length === 0) return NOTHING_TO_ENQUEUE;
      return imagePullJobsForPodEvent(
        oldAndNew(pod, change, (o) => asKind(o, POD)),
        jobs,
      );
    }
    return forSecret(changed, reader, change);
  },
  // The read set checks the copies in the default daemon-config namespace (it has no env).
  readSet: (job, reader) => [
    job,
    ...reader.list(NODE_IMAGE_KIND),
    ...reader.list(SECRET, KRUISE_DAEMON_CONFIG_NAMESPACE),
  ],
  reconcile: (imagePullJob, reader, now, state, env) => {
    const namespace = imagePullJob.metadata?.namespace;
    const daemonNs = env.daemonConfigNamespace ?? KRUISE_DAEMON_CONFIG_NAMESPACE;
    return reconcileImagePullJob(
      {
        imagePullJob,
        nodeImages: reader.list(NODE_IMAGE_KIND),
        pods: reader.list(POD, namespace),
        secrets: secretsFor(reader, namespace, daemonNs),
        ...(env.withoutNamespaces ? {} : { namespaces: reader.list(NAMESPACE) }),
        now,
        controllerState: state,
      },
      {
        featureGates: env.featureGates,
        seed: env.seed,
        structureCache: env.structureCache,
        daemonConfigNamespace: daemonNs,
      },
    );
  },
  admission: {
    default: (job, env) => setDefaultsImagePullJob(job, { old: env.old }),
    validate: (job, env) => validateImagePullJob(job, env.old),
  },
});
