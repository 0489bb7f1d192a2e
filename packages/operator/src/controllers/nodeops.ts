// The node-side controllers in the operator (docs/reference/operator.md §3.5; docs/reference/daemon.md §4–§6, §9;
// docs/reference/advancedcronjob.md): ImagePullJob, ImageListPullJob, NodeImage, ContainerRecreateRequest
// and AdvancedCronJob. Each entry says which informers the controller reads, how an event on
// one of them maps to work-queue keys, which cached objects the expectations gate checks, and
// how the pure reconcile's input is built from the cache — mirroring the simulator's
// registrations (packages/sim/src/kinds/nodeops.ts). The node half (pulls, container restarts)
// is kruise-daemon's (packages/daemon, or the simulator's node model).
//
// Event filters: the runner hands `keysFor` one object (the new one, and for an update also the
// old one), not the change. Where kruise filters on the change (a NodeImage's image entry, a
// pod's container statuses) the operator enqueues the superset (every job / CRR the object
// concerns); the reconciles are idempotent, so this costs reconciles, not correctness. A delete
// is recognised by the object being gone from the cache (the informer removes it before it calls
// the handlers).
import {
  type AdvancedCronJob,
  type ContainerRecreateRequest,
  type ImageListPullJob,
  type ImagePullJob,
  KRUISE_DAEMON_CONFIG_NAMESPACE,
  type KubeObject,
  LABEL_CRR_POD_UID,
  type NodeImage,
} from '@kruise-ts/api';
import type { FeatureGates, ReconcileResult } from '@kruise-ts/core';
import {
  advancedCronJobChildren,
  advancedCronJobForChildEvent,
  imagePullJobsForNodeImageEvent,
  imagePullJobsForPodEvent,
  isImagePullJobActive,
  reconcileAdvancedCronJob,
  reconcileContainerRecreateRequest,
  reconcileImageListPullJob,
  reconcileImagePullJob,
  reconcileNodeImage,
} from '@kruise-ts/nodeops';
import type { Namespace, Node, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { keyFor } from '../kube/resources';
import {
  type CacheReader,
  type ControllerEnv,
  JOB,
  type KindRef,
  NAMESPACE,
  NODE,
  type OperatorController,
  objectKeyOf,
  POD,
  SECRET,
} from './common';

const V1A1 = 'apps.kruise.io/v1alpha1';
/** The kinds at the version the operator reads and writes them (their storage versions). */
export const IMAGEPULLJOB: KindRef = { apiVersion: V1A1, kind: 'ImagePullJob' };
export const IMAGELISTPULLJOB: KindRef = { apiVersion: V1A1, kind: 'ImageListPullJob' };
export const NODEIMAGE: KindRef = { apiVersion: V1A1, kind: 'NodeImage' };
export const CRR: KindRef = { apiVersion: V1A1, kind: 'ContainerRecreateRequest' };
export const BROADCASTJOB: KindRef = { apiVersion: V1A1, kind: 'BroadcastJob' };
/** AdvancedCronJob is stored at v1beta1 (docs/reference/advancedcronjob.md AC1.1). */
export const ADVANCEDCRONJOB: KindRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob' };

/** §3.5: CRR, NodeImage (and NodePodProbe) need `KruiseDaemon`. */
const daemonGate = (g: FeatureGates) => g.KruiseDaemon;
/** §3.5: ImagePullJob and ImageListPullJob need `KruiseDaemon` and `ImagePullJobGate`. */
const imagePullGate = (g: FeatureGates) => g.KruiseDaemon && g.ImagePullJobGate;

/** True when `obj` is no longer cached, i.e. the event being handled is its deletion. */
function gone(obj: KubeObject, cache: CacheReader): boolean {
  const ref = { apiVersion: obj.apiVersion, kind: obj.kind };
  return cache.get(ref, obj.metadata.namespace, obj.metadata.name ?? '') === undefined;
}

const jobsOf = (cache: CacheReader, ns?: string) => cache.list(IMAGEPULLJOB, ns) as unknown as ImagePullJob[];
const daemonNs = (env: ControllerEnv) => env.daemonConfigNamespace ?? KRUISE_DAEMON_CONFIG_NAMESPACE;

/** The Secrets an ImagePullJob reads (daemon.md §4.5): its namespace's, plus the copies in the daemon-config namespace. */
function jobSecrets(cache: CacheReader, ns: string | undefined, dns: string): KubeObject[] {
  const own = cache.list(SECRET, ns);
  return ns === dns ? own : [...own, ...cache.list(SECRET, dns)];
}

/**
 * `imagepulljob-controller` (docs/reference/daemon.md §4): spreads one image to the NodeImages it targets
 * and reports their pull results. Reads every NodeImage, the job namespace's pods (podSelector
 * jobs), Secrets (pull-secret copies, daemon.md §4.5) and Namespaces (the daemon-config namespace must
 * exist). Keys (daemon.md §4.7): a NodeImage event → the active jobs that match it; a pod event → the
 * active podSelector jobs of its namespace matching its labels; a Secret event → the jobs of its
 * namespace naming it in `pullSecrets`.
 */
export const imagePullJobController: OperatorController = {
  name: 'imagepulljob-controller',
  enabled: imagePullGate,
  primary: IMAGEPULLJOB,
  secondary: [NODEIMAGE, POD, SECRET, NAMESPACE],
  keysFor: (obj, cache) => {
    const keys = (jobs: readonly ImagePullJob[]) => jobs.map((j) => objectKeyOf(j as unknown as KubeObject));
    if (obj.kind === 'NodeImage') {
      const jobs = jobsOf(cache);
      if (jobs.length === 0) return [];
      const name = obj.metadata.name;
      const pods = jobs.some((j) => j.spec?.podSelector)
        ? (cache.list(POD) as unknown as Pod[]).filter((p) => p.spec?.nodeName === name)
        : [];
      return keys(imagePullJobsForNodeImageEvent({ new: obj as unknown as NodeImage }, jobs, pods));
    }
    if (obj.kind === 'Pod') {
      const jobs = jobsOf(cache, obj.metadata.namespace);
      if (jobs.length === 0) return [];
      return keys(imagePullJobsForPodEvent({ new: obj as unknown as Pod }, jobs));
    }
    if (obj.kind === 'Secret') {
      const name = obj.metadata.name ?? '';
      return keys(
        jobsOf(cache, obj.metadata.namespace).filter(
          (j) => isImagePullJobActive(j) && (j.spec?.pullSecrets ?? []).includes(name),
        ),
      );
    }
    return [];
  },
  // (the read set has no env: it checks the copies in the default daemon-config namespace)
  readSet: (obj, cache) => [
    obj,
    ...cache.list(NODEIMAGE),
    ...cache.list(SECRET, KRUISE_DAEMON_CONFIG_NAMESPACE),
  ],
  reconcile: (obj, cache, now, state, env) => {
    const ns = obj.metadata.namespace;
    const dns = daemonNs(env);
    return reconcileImagePullJob(
      {
        imagePullJob: obj as unknown as ImagePullJob,
        nodeImages: cache.list(NODEIMAGE) as unknown as NodeImage[],
        pods: cache.list(POD, ns) as unknown as Pod[],
        secrets: jobSecrets(cache, ns, dns) as unknown as Secret[],
        namespaces: cache.list(NAMESPACE) as unknown as Namespace[],
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates, seed: env.seed, daemonConfigNamespace: dns },
    ) as ReconcileResult<unknown>;
  },
};

/** The NodeImage reconcile of one node name (docs/reference/daemon.md §5.2–§5.4). */
function nodeImageReconcile(
  name: string,
  cache: CacheReader,
  now: Date,
  state: unknown,
  env: ControllerEnv,
): ReconcileResult<unknown> {
  return reconcileNodeImage(
    {
      nodeName: name,
      node: cache.get(NODE, undefined, name) as unknown as Node | undefined,
      nodeImage: cache.get(NODEIMAGE, undefined, name) as unknown as NodeImage | undefined,
      imagePullJobs: jobsOf(cache),
      now,
      controllerState: state,
    },
    { seed: env.seed, creationDelaySeconds: env.nodeImageCreationDelaySeconds },
  ) as ReconcileResult<unknown>;
}

/** The NodeImages whose spec names `uid` as a tag owner. */
function nodeImagesOwnedBy(cache: CacheReader, uid: string | undefined): KubeObject[] {
  if (!uid) return [];
  return cache
    .list(NODEIMAGE)
    .filter((ni) =>
      Object.values((ni as unknown as NodeImage).spec?.images ?? {}).some((img) =>
        (img.tags ?? []).some((t) => (t.ownerReferences ?? []).some((r) => r.uid === uid)),
      ),
    );
}

/**
 * `nodeimage-controller` (docs/reference/daemon.md §5), keyed by node name: spec upkeep (labels from the
 * Node, owner pruning, TTL), status supervision, deletion when the node is gone. Keys: a Node
 * event → the NodeImage of that name; a deleted ImagePullJob → the NodeImages naming it
 * (§5.2 item 3, stale owners pruned).
 */
export const nodeImageController: OperatorController = {
  name: 'nodeimage-controller',
  enabled: daemonGate,
  primary: NODEIMAGE,
  secondary: [NODE, IMAGEPULLJOB],
  keysFor: (obj, cache) => {
    if (obj.kind === 'Node') return [obj.metadata.name ?? ''];
    if (obj.kind === 'ImagePullJob' && gone(obj, cache))
      return nodeImagesOwnedBy(cache, obj.metadata.uid).map(objectKeyOf);
    return [];
  },
  readSet: (obj, cache) => {
    const node = cache.get(NODE, undefined, obj.metadata.name ?? '');
    return node ? [obj, node] : [obj];
  },
  reconcile: (obj, cache, now, state, env) =>
    nodeImageReconcile(obj.metadata.name ?? '', cache, now, state, env),
};

/**
 * The second runner of `nodeimage-controller`: keyed by Node, it creates the NodeImage of a node
 * that has none once the node has been Ready for `--nodeimage-creation-delay` (§5.2 item 2). A
 * missing NodeImage cannot be a work-queue key of the first runner, whose keys are objects in
 * the cache. It does nothing while the NodeImage exists (the first runner owns it), and a
 * deleted NodeImage of a live node enqueues its node so that it is created again.
 */
export const nodeImageFromNodeController: OperatorController = {
  name: 'nodeimage-controller(node)',
  selectAs: 'nodeimage',
  enabled: daemonGate,
  primary: NODE,
  secondary: [NODEIMAGE],
  keysFor: (obj, cache) => (obj.kind === 'NodeImage' && gone(obj, cache) ? [obj.metadata.name ?? ''] : []),
  readSet: (obj) => [obj],
  reconcile: (obj, cache, now, state, env) => {
    const name = obj.metadata.name ?? '';
    if (cache.get(NODEIMAGE, undefined, name))
      return { actions: [], status: undefined, errors: [], controllerState: state };
    return nodeImageReconcile(name, cache, now, state, env);
  },
};

/**
 * `imagelistpulljob-controller` (docs/reference/daemon.md §6.2): one child ImagePullJob per image. Reads
 * the ImagePullJobs of its namespace; a child's event enqueues its controller owner.
 */
export const imageListPullJobController: OperatorController = {
  name: 'imagelistpulljob-controller',
  enabled: imagePullGate,
  primary: IMAGELISTPULLJOB,
  secondary: [IMAGEPULLJOB],
  readSet: (obj, cache) => [obj, ...cache.ownedBy(IMAGEPULLJOB, obj.metadata.uid ?? '')],
  reconcile: (obj, cache, now, state) =>
    reconcileImageListPullJob({
      imageListPullJob: obj as unknown as ImageListPullJob,
      imagePullJobs: jobsOf(cache, obj.metadata.namespace),
      now,
      controllerState: state,
    }) as ReconcileResult<unknown>,
};

/** The namespace's candidate children of an AdvancedCronJob (AC4.2 picks among them). */
function cronChildren(cache: CacheReader, ns: string | undefined): KubeObject[] {
  return [...cache.list(JOB, ns), ...cache.list(BROADCASTJOB, ns), ...cache.list(IMAGELISTPULLJOB, ns)];
}

/**
 * `advancedcronjob-controller` (docs/reference/advancedcronjob.md AC4, AC6): Jobs, BroadcastJobs or
 * ImageListPullJobs on a cron schedule; the time is the operator's clock. Keys (AC6.1): create
 * and update events of BroadcastJobs and ImageListPullJobs enqueue their AdvancedCronJob owner;
 * deletes do not, and Job events never do (quirk AC6.1 item 3: a finished Job is seen at the
 * next scheduled requeue).
 */
export const advancedCronJobController: OperatorController = {
  name: 'advancedcronjob-controller',
  primary: ADVANCEDCRONJOB,
  secondary: [JOB, BROADCASTJOB, IMAGELISTPULLJOB],
  keysFor: (obj, cache) => {
    const owner = advancedCronJobForChildEvent(obj, gone(obj, cache) ? 'deleted' : 'modified');
    return owner ? [keyFor(owner.namespace, owner.name)] : [];
  },
  readSet: (obj, cache) => [
    obj,
    ...advancedCronJobChildren(
      obj as unknown as AdvancedCronJob,
      cronChildren(cache, obj.metadata.namespace),
    ),
  ],
  reconcile: (obj, cache, now, state, env) =>
    reconcileAdvancedCronJob(
      {
        advancedCronJob: obj as unknown as AdvancedCronJob,
        children: cronChildren(cache, obj.metadata.namespace),
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates },
    ) as ReconcileResult<unknown>,
};

/**
 * `containerrecreaterequest-controller` (docs/reference/daemon.md §9.1, §9.6): the controller half of the
 * CRR protocol. Reads the target pod; a pod event enqueues the uncompleted, non-deleting CRRs
 * of its namespace whose `crr.apps.kruise.io/pod-uid` label is the pod's uid.
 */
export const containerRecreateRequestController: OperatorController = {
  name: 'containerrecreaterequest-controller',
  enabled: daemonGate,
  primary: CRR,
  secondary: [POD],
  keysFor: (obj, cache) => {
    if (obj.kind !== 'Pod' || !obj.metadata.uid) return [];
    return (cache.list(CRR, obj.metadata.namespace) as unknown as ContainerRecreateRequest[])
      .filter(
        (c) =>
          c.metadata.labels?.[LABEL_CRR_POD_UID] === obj.metadata.uid &&
          !c.metadata.deletionTimestamp &&
          c.status?.phase !== 'Completed',
      )
      .map((c) => objectKeyOf(c as unknown as KubeObject));
  },
  readSet: (obj, cache) => {
    const pod = crrPod(obj, cache);
    return pod ? [obj, pod] : [obj];
  },
  reconcile: (obj, cache, now, state) =>
    reconcileContainerRecreateRequest({
      containerRecreateRequest: obj as unknown as ContainerRecreateRequest,
      pod: crrPod(obj, cache) as unknown as Pod | undefined,
      now,
      controllerState: state,
    }) as ReconcileResult<unknown>,
};

function crrPod(obj: KubeObject, cache: CacheReader): KubeObject | undefined {
  const podName = (obj as unknown as ContainerRecreateRequest).spec?.podName;
  return podName ? cache.get(POD, obj.metadata.namespace, podName) : undefined;
}
