// The nodeops controllers' registrations with the simulator (packages/nodeops/README.md
// "Simulator registration"): ImagePullJob, NodeImage (keyed by node name, also reconciled from
// Node events so a missing NodeImage gets created, docs/reference/daemon.md §5.2), ImageListPullJob,
// AdvancedCronJob and ContainerRecreateRequest, each with its admission hooks (the api package's
// setDefaults*, then the nodeops validate*). The node side (pulls, container restarts) is
// played by ../nodeSide.ts.
import {
  type AdvancedCronJob,
  type ContainerRecreateRequest,
  type ImageListPullJob,
  type ImagePullJob,
  type KubeObject,
  LABEL_CRR_POD_UID,
  type NodeImage,
  setDefaultsAdvancedCronJob,
  setDefaultsContainerRecreateRequest,
  setDefaultsImageListPullJob,
  setDefaultsImagePullJob,
  setDefaultsNodeImage,
} from '@kruise-ts/api';
import type { ReconcileResult } from '@kruise-ts/core';
import {
  imagePullJobsForNodeImageEvent,
  imagePullJobsForPodEvent,
  reconcileAdvancedCronJob,
  reconcileContainerRecreateRequest,
  reconcileImageListPullJob,
  reconcileImagePullJob,
  reconcileNodeImage,
  validateAdvancedCronJob,
  validateContainerRecreateRequest,
  validateImageListPullJob,
  validateImagePullJob,
  validateNodeImage,
} from '@kruise-ts/nodeops';
import type { Node, Pod, Secret } from 'kubernetes-types/core/v1.js';
import type { AdmissionChain, AdmissionContext } from '../admission';
import type { Store } from '../store';
import { type ControllerRegistration, NO_WATCHED, type ReconcileEnv } from './registration';

const KRUISE_V1A1 = 'apps.kruise.io/v1alpha1';
const KRUISE_V1B1 = 'apps.kruise.io/v1beta1';
const ns = (o: KubeObject) => o.metadata.namespace;
const imagePullJobs = (s: Store) => s.list(KRUISE_V1A1, 'ImagePullJob') as unknown as ImagePullJob[];

/** ImagePullJob (§4): spreads one image to the NodeImages it targets. */
export const imagePullJobController: ControllerRegistration = {
  kind: 'ImagePullJob',
  apiVersion: KRUISE_V1A1,
  admission: admitNodeOps,
  reconcile: (store, obj, now, state, env) =>
    reconcileImagePullJob(
      {
        imagePullJob: obj as unknown as ImagePullJob,
        nodeImages: store.list(KRUISE_V1A1, 'NodeImage') as unknown as NodeImage[],
        pods: store.list('v1', 'Pod', ns(obj)) as unknown as Pod[],
        secrets: [
          ...store.list('v1', 'Secret', ns(obj)),
          ...store.list('v1', 'Secret', 'kruise-daemon-config'),
        ] as unknown as Secret[],
        now,
        controllerState: state,
      } as Parameters<typeof reconcileImagePullJob>[0],
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    ),
  // §4.7: NodeImage status changes and pod changes enqueue the jobs they concern.
  watches: (c, store) => {
    if (!store.hasKind(KRUISE_V1A1, 'ImagePullJob')) return NO_WATCHED;
    if (c.object.kind === 'NodeImage') {
      const jobs = imagePullJobs(store);
      if (jobs.length === 0) return NO_WATCHED;
      return imagePullJobsForNodeImageEvent(
        {
          old: c.old as unknown as NodeImage | undefined,
          new: c.type === 'deleted' ? undefined : (c.object as unknown as NodeImage),
        },
        jobs,
        store.list('v1', 'Pod') as unknown as Pod[],
      ) as unknown as KubeObject[];
    }
    if (c.object.kind === 'Pod' && c.object.apiVersion === 'v1') {
      const jobs = imagePullJobs(store);
      if (jobs.length === 0) return NO_WATCHED;
      return imagePullJobsForPodEvent(
        {
          old: c.old as unknown as Pod | undefined,
          new: c.type === 'deleted' ? undefined : (c.object as unknown as Pod),
        },
        jobs,
      ) as unknown as KubeObject[];
    }
    return NO_WATCHED;
  },
};

/** The NodeImage reconcile of one node name (§5.2–5.4). */
function nodeImageReconcile(
  store: Store,
  name: string,
  now: string,
  env: ReconcileEnv,
): ReconcileResult<unknown> {
  return reconcileNodeImage(
    {
      nodeName: name,
      node: store.get('v1', 'Node', undefined, name) as unknown as Node | undefined,
      nodeImage: store.get(KRUISE_V1A1, 'NodeImage', undefined, name) as unknown as NodeImage | undefined,
      imagePullJobs: imagePullJobs(store),
      now,
    },
    { seed: env.seed, structureCache: env.structureCache },
  );
}

/** NodeImage (§5.2–5.4): spec upkeep, status supervision, deletion when the node is gone. */
export const nodeImageController: ControllerRegistration = {
  kind: 'NodeImage',
  apiVersion: KRUISE_V1A1,
  reconcile: (store, obj, now, _state, env) => nodeImageReconcile(store, obj.metadata.name ?? '', now, env),
  // §5.2.3: a deleted (or changed) ImagePullJob re-queues the NodeImages naming it, so stale
  // owner references are pruned.
  watches: (c, store) => {
    if (c.object.kind !== 'ImagePullJob' || c.type !== 'deleted') return NO_WATCHED;
    const uid = c.object.metadata.uid;
    return store.list(KRUISE_V1A1, 'NodeImage').filter((ni) => {
      const images = (ni.spec as NodeImage['spec'] | undefined)?.images ?? {};
      return Object.values(images).some((img) =>
        (img.tags ?? []).some((t) => (t.ownerReferences ?? []).some((r) => r.uid === uid)),
      );
    });
  },
};

/**
 * The NodeImage reconcile driven by Node events (§5.2.2): a missing NodeImage cannot be enqueued,
 * so a Node change reconciles the NodeImage of that name (create after the 30 s delay, delete when
 * the node goes away is handled by the NodeImage registration).
 */
export const nodeImageFromNodeController: ControllerRegistration = {
  kind: 'Node',
  apiVersion: 'v1',
  name: 'NodeImage(node)',
  reconcile: (store, obj, now, _state, env) => nodeImageReconcile(store, obj.metadata.name ?? '', now, env),
};

/** ImageListPullJob (§6.2): one child ImagePullJob per image. */
export const imageListPullJobController: ControllerRegistration = {
  kind: 'ImageListPullJob',
  apiVersion: KRUISE_V1A1,
  reconcile: (store, obj, now) =>
    reconcileImageListPullJob({
      imageListPullJob: obj as unknown as ImageListPullJob,
      imagePullJobs: store.list(KRUISE_V1A1, 'ImagePullJob', ns(obj)) as unknown as ImagePullJob[],
      now,
    }),
};

/** AdvancedCronJob (AC4): children Jobs, BroadcastJobs or ImageListPullJobs on a cron schedule. */
export const advancedCronJobController: ControllerRegistration = {
  kind: 'AdvancedCronJob',
  apiVersion: KRUISE_V1B1,
  reconcile: (store, obj, now, state, env) =>
    reconcileAdvancedCronJob(
      {
        advancedCronJob: obj as unknown as AdvancedCronJob,
        children: [
          ...store.list('batch/v1', 'Job', ns(obj)),
          ...store.list(KRUISE_V1B1, 'BroadcastJob', ns(obj)),
          ...store.list(KRUISE_V1A1, 'ImageListPullJob', ns(obj)),
        ],
        now,
        controllerState: state,
      } as Parameters<typeof reconcileAdvancedCronJob>[0],
      { featureGates: env.featureGates },
    ),
};

/** ContainerRecreateRequest (§9.1, §9.6): the controller half of the CRR protocol. */
export const containerRecreateRequestController: ControllerRegistration = {
  kind: 'ContainerRecreateRequest',
  apiVersion: KRUISE_V1A1,
  reconcile: (store, obj, now) => {
    const crr = obj as unknown as ContainerRecreateRequest;
    return reconcileContainerRecreateRequest({
      containerRecreateRequest: crr,
      pod: store.get('v1', 'Pod', ns(obj), crr.spec?.podName ?? '') as unknown as Pod | undefined,
      now,
    });
  },
  // §9.1.1: a pod deleted, starting deletion or changing status.containerStatuses enqueues the
  // uncompleted, non-deleting CRRs of its namespace whose pod-uid label is the pod's uid.
  watches: (c, store) => {
    const pod = c.object;
    if (pod.kind !== 'Pod' || pod.apiVersion !== 'v1') return NO_WATCHED;
    if (!store.hasKind(KRUISE_V1A1, 'ContainerRecreateRequest')) return NO_WATCHED;
    const old = c.old;
    const relevant =
      c.type === 'deleted' ||
      (!!pod.metadata.deletionTimestamp && !old?.metadata.deletionTimestamp) ||
      (old?.status as Pod['status'])?.containerStatuses !== (pod.status as Pod['status'])?.containerStatuses;
    if (!relevant) return NO_WATCHED;
    return store
      .list(KRUISE_V1A1, 'ContainerRecreateRequest', pod.metadata.namespace)
      .filter(
        (crr) =>
          crr.metadata.labels?.[LABEL_CRR_POD_UID] === pod.metadata.uid &&
          !crr.metadata.deletionTimestamp &&
          (crr.status as { phase?: string } | undefined)?.phase !== 'Completed',
      );
  },
};

/**
 * Admission of the node-operation kinds: the api package's defaults, then the webhooks'
 * validation. The feature gates (`KruiseDaemon`, `ImagePullJobGate`) are not checked: the
 * simulator runs the daemon.
 */
export function admitNodeOps(chain: AdmissionChain): void {
  chain.register(KRUISE_V1A1, 'ImagePullJob', {
    defaulters: [
      (o, ctx) =>
        setDefaultsImagePullJob(o as unknown as ImagePullJob, { old: ctx.old }) as unknown as KubeObject,
    ],
    validators: [
      (o, ctx) => validateImagePullJob(o as unknown as ImagePullJob, ctx.old as unknown as ImagePullJob),
    ],
  });
  chain.register(KRUISE_V1A1, 'ImageListPullJob', {
    defaulters: [
      (o, ctx) =>
        setDefaultsImageListPullJob(o as unknown as ImageListPullJob, {
          old: ctx.old,
        }) as unknown as KubeObject,
    ],
    validators: [
      (o, ctx) =>
        validateImageListPullJob(o as unknown as ImageListPullJob, ctx.old as unknown as ImageListPullJob),
    ],
  });
  chain.register(KRUISE_V1A1, 'NodeImage', {
    defaulters: [
      (o, ctx) =>
        setDefaultsNodeImage(o as unknown as NodeImage, {
          old: ctx.old,
          now: ctx.now,
        }) as unknown as KubeObject,
    ],
    validators: [(o, ctx) => validateNodeImage(o as unknown as NodeImage, ctx.old as unknown as NodeImage)],
  });
  chain.register(KRUISE_V1B1, 'AdvancedCronJob', {
    defaulters: [
      (o, ctx) =>
        setDefaultsAdvancedCronJob(o as unknown as AdvancedCronJob, {
          featureGates: ctx.featureGates,
          old: ctx.old,
        }) as unknown as KubeObject,
    ],
    validators: [
      (o, ctx) =>
        validateAdvancedCronJob(o as unknown as AdvancedCronJob, ctx.old as unknown as AdvancedCronJob),
    ],
  });
  const podOf = (o: KubeObject, ctx: AdmissionContext) =>
    ctx.get(
      'v1',
      'Pod',
      o.metadata.namespace,
      (o as unknown as ContainerRecreateRequest).spec?.podName ?? '',
    ) as unknown as Pod | undefined;
  chain.register(KRUISE_V1A1, 'ContainerRecreateRequest', {
    defaulters: [
      (o, ctx) =>
        setDefaultsContainerRecreateRequest(o as unknown as ContainerRecreateRequest, {
          old: ctx.old,
          pod: podOf(o, ctx),
        }) as unknown as KubeObject,
    ],
    validators: [
      (o, ctx) =>
        validateContainerRecreateRequest(
          o as unknown as ContainerRecreateRequest,
          ctx.old as unknown as ContainerRecreateRequest,
          { pod: podOf(o, ctx) },
        ),
    ],
  });
}
