// The CRD manifests of every Kruise kind: the table of printer columns and subresources
// (docs/reference/crds.md), `buildCrdManifests()` that assembles apiextensions.k8s.io/v1 objects from
// it, kinds.ts and crdSchemas.ts (scripts/gen-crds.ts writes them to crds/*.yaml), and
// `crdManifests()`, the same objects for a program. They are built on each call rather than kept
// as a generated copy: with Kubernetes' descriptions they are about 4 MB of JSON, which every
// bundle of this package (the browser playground's too) would carry, while the definitions they
// are built from are bundled anyway for checkStructure.
import { crdSchema } from './crdSchemas';
import { kruiseKinds } from './kinds';
import type { KubeObject } from './meta';

/** One `additionalPrinterColumns` entry. */
export interface PrinterColumn {
  name: string;
  type: 'integer' | 'string' | 'date';
  jsonPath: string;
  /** 1 = shown only with `-o wide`. */
  priority?: number;
  description?: string;
}

/** Printer columns and subresources of one kind (identical for all its versions). */
export interface CrdPresentation {
  columns: PrinterColumn[];
  /** Scale subresource paths, when the kind has one. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath: string };
}

const col = (name: string, type: PrinterColumn['type'], jsonPath: string, priority = 0): PrinterColumn =>
  priority ? { name, type, jsonPath, priority } : { name, type, jsonPath };
const age = () => col('AGE', 'date', '.metadata.creationTimestamp');
const replicasScale = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.labelSelector',
};
const containersImages = () => [
  col('CONTAINERS', 'string', '.spec.template.spec.containers[*].name', 1),
  col('IMAGES', 'string', '.spec.template.spec.containers[*].image', 1),
];

/** Columns and subresources per kind, exactly as docs/reference/crds.md lists them. */
export const crdPresentation: Readonly<Record<string, CrdPresentation>> = {
  CloneSet: {
    scale: replicasScale,
    columns: [
      col('DESIRED', 'integer', '.spec.replicas'),
      col('UPDATED', 'integer', '.status.updatedReplicas'),
      col('UPDATED_READY', 'integer', '.status.updatedReadyReplicas'),
      col('UPDATED_AVAILABLE', 'integer', '.status.updatedAvailableReplicas'),
      col('READY', 'integer', '.status.readyReplicas'),
      col('TOTAL', 'integer', '.status.replicas'),
      age(),
      ...containersImages(),
      col('SELECTOR', 'string', '.status.labelSelector', 1),
    ],
  },
  StatefulSet: {
    scale: replicasScale,
    columns: [
      col('DESIRED', 'integer', '.spec.replicas'),
      col('CURRENT', 'integer', '.status.replicas'),
      col('UPDATED', 'integer', '.status.updatedReplicas'),
      col('READY', 'integer', '.status.readyReplicas'),
      age(),
      ...containersImages(),
    ],
  },
  DaemonSet: {
    columns: [
      col('DESIRED', 'integer', '.status.desiredNumberScheduled'),
      col('CURRENT', 'integer', '.status.currentNumberScheduled'),
      col('READY', 'integer', '.status.numberReady'),
      col('UP-TO-DATE', 'integer', '.status.updatedNumberScheduled'),
      col('AVAILABLE', 'integer', '.status.numberAvailable'),
      age(),
      ...containersImages(),
    ],
  },
  SidecarSet: {
    columns: [
      col('MATCHED', 'integer', '.status.matchedPods'),
      col('UPDATED', 'integer', '.status.updatedPods'),
      col('READY', 'integer', '.status.readyPods'),
      age(),
    ],
  },
  UnitedDeployment: {
    scale: replicasScale,
    columns: [
      col('DESIRED', 'integer', '.spec.replicas'),
      col('CURRENT', 'integer', '.status.replicas'),
      col('UPDATED', 'integer', '.status.updatedReplicas'),
      col('READY', 'integer', '.status.readyReplicas'),
      age(),
    ],
  },
  ImagePullJob: {
    columns: [
      col('TOTAL', 'integer', '.status.desired'),
      col('ACTIVE', 'integer', '.status.active'),
      col('SUCCEED', 'integer', '.status.succeeded'),
      col('FAILED', 'integer', '.status.failed'),
      age(),
      col('MESSAGE', 'string', '.status.message'),
    ],
  },
  ImageListPullJob: {
    columns: [
      col('TOTAL', 'integer', '.status.desired'),
      col('SUCCEEDED', 'integer', '.status.succeeded'),
      col('COMPLETED', 'integer', '.status.completed'),
      age(),
    ],
  },
  NodeImage: {
    columns: [
      col('DESIRED', 'integer', '.status.desired'),
      col('PULLING', 'integer', '.status.pulling'),
      col('SUCCEED', 'integer', '.status.succeeded'),
      col('FAILED', 'integer', '.status.failed'),
      age(),
    ],
  },
  ContainerRecreateRequest: {
    columns: [
      col('PHASE', 'string', '.status.phase'),
      col('POD', 'string', '.spec.podName'),
      col('NODE', 'string', '.metadata.labels.crr\\.apps\\.kruise\\.io/node-name'),
      age(),
    ],
  },
  AdvancedCronJob: {
    columns: [
      col('Schedule', 'string', '.spec.schedule'),
      col('Type', 'string', '.status.type'),
      col('LastScheduleTime', 'date', '.status.lastScheduleTime'),
      age(),
    ],
  },
  // Not in docs/reference/crds.md (BroadcastJob is only needed by AdvancedCronJob).
  BroadcastJob: {
    columns: [
      col('DESIRED', 'integer', '.status.desired'),
      col('ACTIVE', 'integer', '.status.active'),
      col('SUCCEEDED', 'integer', '.status.succeeded'),
      col('FAILED', 'integer', '.status.failed'),
      age(),
    ],
  },
};

/** The file name of a kind's CRD manifest: `<plural>.<group>.yaml`. */
export function crdFileName(crd: KubeObject): string {
  return `${crd.metadata.name}.yaml`;
}

/**
 * Builds the apiextensions.k8s.io/v1 CustomResourceDefinition of every Kruise kind from the
 * kind table (kinds.ts), the columns above and the schemas (crdSchemas.ts). Deterministic;
 * scripts/gen-crds.ts writes its output to `crds/*.yaml`.
 */
export function buildCrdManifests(): KubeObject[] {
  return kruiseKinds.map((k) => {
    const pres = crdPresentation[k.kind];
    const names: Record<string, unknown> = {
      kind: k.kind,
      listKind: k.listKind,
      plural: k.plural,
      singular: k.singular,
    };
    if (k.shortNames.length > 0) names.shortNames = [...k.shortNames];
    return {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${k.plural}.${k.group}` },
      spec: {
        group: k.group,
        names,
        scope: k.namespaced ? 'Namespaced' : 'Cluster',
        versions: k.versions.map((ver) => ({
          name: ver.name,
          served: ver.served,
          storage: ver.storage,
          schema: { openAPIV3Schema: crdSchema(k.kind, ver.name) },
          subresources: {
            status: {},
            ...(pres.scale ? { scale: { ...pres.scale } } : {}),
          },
          additionalPrinterColumns: pres.columns.map((c) => ({ ...c })),
        })),
      },
    };
  });
}

/**
 * The CRD manifests of every Kruise kind, as committed in `packages/api/crds/*.yaml` (built
 * afresh on every call, about 0.1 s). Apply them before creating Kruise objects in a real cluster.
 */
export function crdManifests(): KubeObject[] {
  return buildCrdManifests();
}
