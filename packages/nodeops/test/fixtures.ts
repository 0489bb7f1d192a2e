// Builders of the objects the node-ops tests feed in. Every builder returns fresh, plain JSON;
// tests deep-freeze what they pass to the code under test.
import type {
  AdvancedCronJob,
  ContainerRecreateRequest,
  ImageListPullJob,
  ImagePullJob,
  ImageTagSpec,
  ImageTagStatus,
  KubeObject,
  NodeImage,
} from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import type { Node, Pod } from 'kubernetes-types/core/v1';

export const T0 = '2024-01-01T00:00:00Z';
export const T0_MS = Date.parse(T0);
/** `T0` plus `s` seconds, as RFC 3339. */
export const at = (s: number) => new Date(T0_MS + s * 1000).toISOString().replace(/\.000Z$/, 'Z');

export function ipj(
  spec: Partial<ImagePullJob['spec']> = {},
  extra: Partial<ImagePullJob> = {},
): ImagePullJob {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ImagePullJob',
    metadata: {
      name: 'job',
      namespace: 'default',
      uid: 'job-uid',
      finalizers: ['apps.kruise.io/deletion-protection'],
      creationTimestamp: T0,
    },
    spec: {
      image: 'nginx:1.25',
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      imagePullPolicy: 'IfNotPresent',
      ...spec,
    },
    ...extra,
  };
}

export function nodeImage(
  name: string,
  labels: Record<string, string> = {},
  extra: Partial<NodeImage> = {},
): NodeImage {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'NodeImage',
    metadata: { name, labels, resourceVersion: '1' },
    spec: {},
    ...extra,
  };
}

/** A NodeImage whose `nginx` image has one tag owned by `owners` (job uids). */
export function nodeImageWithTag(
  name: string,
  tag: Partial<ImageTagSpec> & { owners?: string[] },
  status?: Partial<ImageTagStatus>,
): NodeImage {
  const { owners = ['job-uid'], ...rest } = tag;
  const t: ImageTagSpec = {
    tag: '1.25',
    version: 0,
    createdAt: T0,
    pullPolicy: { timeoutSeconds: 600, backoffLimit: 3, ttlSecondsAfterFinished: 3000 },
    ownerReferences: owners.map((uid) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      name: 'job',
      namespace: 'default',
      uid,
    })),
    ...rest,
  };
  const ni = nodeImage(name);
  ni.spec = { images: { nginx: { tags: [t] } } };
  if (status)
    ni.status = {
      desired: 1,
      imageStatuses: { nginx: { tags: [{ tag: '1.25', phase: 'Pulling', version: 0, ...status }] } },
    };
  return ni;
}

export function node(
  name: string,
  opts: { ready?: boolean; since?: string; labels?: Record<string, string> } = {},
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: opts.labels ?? { 'kubernetes.io/hostname': name } },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: opts.ready === false ? 'False' : 'True',
          lastTransitionTime: opts.since ?? T0,
        },
      ],
    },
  };
}

export function pod(
  name: string,
  nodeName: string | undefined,
  labels: Record<string, string> = { app: 'web' },
  extra: Partial<Pod> = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `${name}-uid`, labels, creationTimestamp: T0 },
    spec: { nodeName, containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: 'Running' },
    ...extra,
  };
}

export function ilpj(images: string[], spec: Partial<ImageListPullJob['spec']> = {}): ImageListPullJob {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ImageListPullJob',
    metadata: { name: 'list', namespace: 'default', uid: 'list-uid', creationTimestamp: T0 },
    spec: {
      images,
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      ...spec,
    },
  };
}

export function acj(
  spec: Partial<AdvancedCronJob['spec']> = {},
  created = T0,
  name = 'nightly',
): AdvancedCronJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'AdvancedCronJob',
    metadata: { name, namespace: 'default', uid: 'acj-uid', creationTimestamp: created },
    spec: {
      schedule: '*/5 * * * *',
      template: {
        jobTemplate: {
          spec: {
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
          },
        },
      },
      ...spec,
    },
  };
}

/** An image-list template for ACJ tests. */
export const ilpjTemplate = (images = ['nginx:1.25']) => ({
  imageListPullJobTemplate: { spec: { images, completionPolicy: { type: 'Always' as const } } },
});

/** A child of an ACJ for slot `slot` (RFC 3339) with the given status. */
export function acjChild(
  kind: 'Job' | 'BroadcastJob' | 'ImageListPullJob',
  slot: string,
  status: unknown,
  parent = 'nightly',
): KubeObject {
  const secs = Math.floor(Date.parse(slot) / 1000);
  return {
    apiVersion: kind === 'Job' ? 'batch/v1' : 'apps.kruise.io/v1beta1',
    kind,
    metadata: {
      name: `${parent}-${secs}`,
      namespace: 'default',
      uid: `child-${secs}`,
      resourceVersion: '7',
      annotations: { 'apps.kruise.io/scheduled-at': slot },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'AdvancedCronJob',
          name: parent,
          uid: 'acj-uid',
          controller: true,
        },
      ],
    },
    spec: {},
    status,
  };
}

export function crr(
  extra: {
    spec?: Partial<ContainerRecreateRequest['spec']>;
    status?: ContainerRecreateRequest['status'];
    annotations?: Record<string, string>;
    finalizers?: string[];
    labels?: Record<string, string>;
    deletionTimestamp?: string;
  } = {},
): ContainerRecreateRequest {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ContainerRecreateRequest',
    metadata: {
      name: 'crr',
      namespace: 'default',
      uid: 'crr-uid',
      creationTimestamp: T0,
      labels: extra.labels ?? {
        'crr.apps.kruise.io/pod-uid': 'p-uid',
        'crr.apps.kruise.io/node-name': 'n1',
        'crr.apps.kruise.io/active': 'true',
      },
      annotations: extra.annotations,
      finalizers: extra.finalizers,
      deletionTimestamp: extra.deletionTimestamp,
    },
    spec: {
      podName: 'p',
      containers: [{ name: 'app', statusContext: { containerID: 'containerd://a', restartCount: 0 } }],
      strategy: { failurePolicy: 'Fail' },
      ...(extra.spec ?? {}),
    },
    status: extra.status,
  };
}

/** The CRR's target pod: container `app` running since `startedAt` with id `id`. */
export function crrPod(
  opts: {
    id?: string;
    startedAt?: string;
    ready?: boolean;
    restartCount?: number;
    gate?: boolean;
    uid?: string;
  } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: opts.uid ?? 'p-uid' },
    spec: {
      nodeName: 'n1',
      containers: [
        { name: 'app', image: 'nginx', lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } } },
      ],
      readinessGates: opts.gate ? [{ conditionType: 'KruisePodReady' }] : undefined,
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'ContainersReady', status: 'True' },
        ...(opts.gate ? [{ type: 'KruisePodReady', status: 'True', message: '[]' }] : []),
      ],
      containerStatuses: [
        {
          name: 'app',
          image: 'nginx',
          imageID: '',
          ready: opts.ready ?? true,
          restartCount: opts.restartCount ?? 0,
          containerID: opts.id ?? 'containerd://a',
          state: { running: { startedAt: opts.startedAt ?? '2023-12-31T23:00:00Z' } },
        },
      ],
    },
  };
}

/** The actions of one verb. */
export const verbs = (actions: readonly Action[], verb: Action['verb']) =>
  actions.filter((a) => a.verb === verb);
