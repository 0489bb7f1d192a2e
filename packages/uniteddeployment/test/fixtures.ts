// Builders for reconcile tests: UnitedDeployments, subset workloads and pods.
import type { KubeObject } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import {
  LABEL_SUBSET_NAME,
  LABEL_UD_REVISION,
  type SubsetKind,
  TEMPLATE_FIELD,
  type UDSpec,
  type UnitedDeploymentObject,
  WORKLOAD_TYPE,
} from '../src/index';

export const NOW = '2024-01-01T00:00:00Z';
export const at = (offsetSeconds: number, base = NOW) =>
  new Date(Date.parse(base) + offsetSeconds * 1000).toISOString().replace('.000Z', 'Z');

export const APP = { app: 'web' };

/** A UnitedDeployment named `web` in `ns` with a template of `kind` and the given spec fields. */
export function makeUD(
  spec: Partial<UDSpec> & { subsets?: any[] },
  opts: {
    kind?: SubsetKind;
    image?: string;
    status?: any;
    generation?: number;
    templateSpec?: any;
    scheduleStrategy?: any;
  } = {},
): UnitedDeploymentObject {
  const kind = opts.kind ?? 'StatefulSet';
  const { subsets, ...rest } = spec as any;
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'web', namespace: 'ns', uid: 'ud-uid', generation: opts.generation ?? 1 },
    spec: {
      selector: { matchLabels: APP },
      template: {
        [TEMPLATE_FIELD[kind]]: {
          metadata: { labels: APP },
          spec: {
            ...(opts.templateSpec ?? {}),
            template: {
              metadata: { labels: APP },
              spec: { containers: [{ name: 'main', image: opts.image ?? 'nginx:1' }] },
            },
          },
        },
      },
      topology: {
        subsets: subsets ?? [{ name: 'a' }, { name: 'b' }],
        ...(opts.scheduleStrategy ? { scheduleStrategy: opts.scheduleStrategy } : {}),
      },
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'Manual', manualUpdate: {} },
      ...rest,
    },
    ...(opts.status ? { status: opts.status } : {}),
  } as UnitedDeploymentObject;
}

/** A subset workload owned by the UD `web`. */
export function makeWorkload(
  kind: SubsetKind,
  subset: string,
  replicas: number,
  opts: {
    name?: string;
    uid?: string;
    revision?: string;
    owner?: 'ud' | 'none' | 'other';
    status?: any;
    labels?: Record<string, string>;
    spec?: any;
  } = {},
): KubeObject {
  const owner = opts.owner ?? 'ud';
  const refs =
    owner === 'ud'
      ? [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'UnitedDeployment',
            name: 'web',
            uid: 'ud-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ]
      : owner === 'other'
        ? [{ apiVersion: 'apps/v1', kind: 'Other', name: 'x', uid: 'other', controller: true }]
        : [];
  return {
    ...WORKLOAD_TYPE[kind],
    metadata: {
      name: opts.name ?? `web-${subset}-x`,
      namespace: 'ns',
      uid: opts.uid ?? `${subset}-uid`,
      labels: opts.labels ?? {
        ...APP,
        [LABEL_SUBSET_NAME]: subset,
        ...(opts.revision ? { [LABEL_UD_REVISION]: opts.revision } : {}),
      },
      ownerReferences: refs,
    },
    spec: {
      replicas,
      selector: { matchLabels: { ...APP, [LABEL_SUBSET_NAME]: subset } },
      ...(opts.spec ?? {}),
    },
    status: opts.status ?? { replicas, readyReplicas: replicas },
  };
}

/** A pod of a workload. */
export function makePod(
  owner: KubeObject,
  name: string,
  opts: { revision?: string; ready?: boolean; pending?: boolean; created?: string; phase?: string } = {},
): Pod {
  const subset = owner.metadata.labels?.[LABEL_SUBSET_NAME] ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      uid: `${name}-uid`,
      creationTimestamp: opts.created ?? NOW,
      labels: {
        ...APP,
        [LABEL_SUBSET_NAME]: subset,
        ...(opts.revision ? { [LABEL_UD_REVISION]: opts.revision } : {}),
      },
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.metadata.name!,
          uid: owner.metadata.uid!,
          controller: true,
        },
      ],
    },
    spec: {
      containers: [{ name: 'main', image: 'nginx:1' }],
      ...(opts.pending ? {} : { nodeName: 'node-1' }),
    },
    status: opts.pending
      ? { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] }
      : {
          phase: opts.phase ?? 'Running',
          conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
        },
  } as Pod;
}
