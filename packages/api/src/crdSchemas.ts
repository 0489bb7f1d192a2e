// Structural openAPIV3Schema of every Kruise CRD version, built with a tiny schema DSL
// from the field lists of the type files (cloneset.ts, statefulset.ts, …). What a kind embeds
// from Kubernetes (pod templates, PVC templates, selectors, tolerations, containers, volumes)
// refers to the generated Kubernetes definitions (structure/k8sDefinitions.generated.ts), so the
// API server, `kubectl --validate=strict` and checkStructure reject the same typos.

import {
  advancedCronJob,
  broadcastJob,
  containerRecreateRequest,
  imageListPullJob,
  imagePullJob,
  nodeImage,
} from './crdSchemasJobs';
import {
  arr,
  bool,
  condition,
  inPlaceUpdateStrategy,
  int32,
  int64,
  intOrString,
  type JSONSchema,
  labelSelector,
  lifecycle,
  mapOf,
  obj,
  priorityStrategy,
  root,
  scatterStrategy,
  str,
  strMap,
} from './schemaDsl';
import { inlineK8sRefs, k8sDefinition, k8sRef, nestedWorkload } from './structure/k8sRefs';

export type { JSONSchema } from './schemaDsl';

const podTemplate = (): JSONSchema => k8sRef('PodTemplateSpec');
const pvcTemplates = (): JSONSchema => arr(k8sRef('PersistentVolumeClaim'));

// ---- CloneSet ------------------------------------------------------------------

const cloneSetSpec = (): JSONSchema =>
  obj(
    {
      replicas: int32(),
      selector: labelSelector(),
      template: podTemplate(),
      volumeClaimTemplates: pvcTemplates(),
      scaleStrategy: obj({
        podsToDelete: arr(str()),
        maxUnavailable: intOrString(),
        disablePVCReuse: bool(),
      }),
      updateStrategy: obj({
        type: str(),
        partition: intOrString(),
        maxUnavailable: intOrString(),
        maxSurge: intOrString(),
        paused: bool(),
        priorityStrategy: priorityStrategy(),
        scatterStrategy: scatterStrategy(),
        inPlaceUpdateStrategy: inPlaceUpdateStrategy(),
      }),
      revisionHistoryLimit: int32(),
      minReadySeconds: int32(),
      lifecycle: lifecycle(),
    },
    ['selector', 'template'],
  );

const cloneSet = (): JSONSchema =>
  root(
    cloneSetSpec(),
    obj({
      observedGeneration: int64(),
      replicas: int32(),
      readyReplicas: int32(),
      availableReplicas: int32(),
      updatedReplicas: int32(),
      updatedReadyReplicas: int32(),
      updatedAvailableReplicas: int32(),
      expectedUpdatedReplicas: int32(),
      updateRevision: str(),
      currentRevision: str(),
      collisionCount: int32(),
      conditions: arr(condition()),
      labelSelector: str(),
    }),
  );

// ---- Advanced StatefulSet --------------------------------------------------------

function statefulSetSpec(v1beta1: boolean): JSONSchema {
  const spec: Record<string, JSONSchema> = {
    replicas: int32(),
    selector: labelSelector(),
    template: podTemplate(),
    volumeClaimTemplates: pvcTemplates(),
    serviceName: str(),
    podManagementPolicy: str(),
    updateStrategy: obj({
      type: str(),
      rollingUpdate: obj({
        partition: int32(),
        maxUnavailable: intOrString(),
        podUpdatePolicy: str(),
        paused: bool(),
        unorderedUpdate: obj({ priorityStrategy: priorityStrategy() }),
        inPlaceUpdateStrategy: inPlaceUpdateStrategy(),
        minReadySeconds: int32(),
      }),
    }),
    revisionHistoryLimit: int32(),
  };
  if (v1beta1) {
    Object.assign(spec, {
      reserveOrdinals: arr(intOrString()),
      lifecycle: lifecycle(),
      scaleStrategy: obj({ maxUnavailable: intOrString() }),
      persistentVolumeClaimRetentionPolicy: obj({ whenDeleted: str(), whenScaled: str() }),
      ordinals: obj({ start: int32() }),
      volumeClaimUpdateStrategy: obj({ type: str() }),
    });
  }
  return obj(spec, ['selector', 'template']);
}

function statefulSet(v1beta1: boolean): JSONSchema {
  const status: Record<string, JSONSchema> = {
    observedGeneration: int64(),
    replicas: int32(),
    readyReplicas: int32(),
    availableReplicas: int32(),
    currentReplicas: int32(),
    updatedReplicas: int32(),
    currentRevision: str(),
    updateRevision: str(),
    collisionCount: int32(),
    conditions: arr(condition()),
    labelSelector: str(),
  };
  if (v1beta1) {
    Object.assign(status, {
      updatedReadyReplicas: int32(),
      updatedAvailableReplicas: int32(),
      volumeClaims: arr(
        obj({ volumeClaimName: str(), compatibleReplicas: int32(), compatibleReadyReplicas: int32() }, [
          'compatibleReadyReplicas',
          'compatibleReplicas',
          'volumeClaimName',
        ]),
      ),
    });
  }
  return root(statefulSetSpec(v1beta1), obj(status));
}

// ---- Advanced DaemonSet ----------------------------------------------------------

const daemonSet = (): JSONSchema =>
  root(
    obj(
      {
        selector: labelSelector(),
        template: podTemplate(),
        updateStrategy: obj({
          type: str(),
          rollingUpdate: obj({
            rollingUpdateType: str(),
            maxUnavailable: intOrString(),
            maxSurge: intOrString(),
            selector: labelSelector(),
            partition: int32(),
            paused: bool(),
          }),
        }),
        minReadySeconds: int32(),
        burstReplicas: intOrString(),
        revisionHistoryLimit: int32(),
        lifecycle: lifecycle(),
      },
      ['selector', 'template'],
    ),
    obj({
      currentNumberScheduled: int32(),
      numberMisscheduled: int32(),
      desiredNumberScheduled: int32(),
      numberReady: int32(),
      observedGeneration: int64(),
      updatedNumberScheduled: int32(),
      numberAvailable: int32(),
      numberUnavailable: int32(),
      collisionCount: int32(),
      conditions: arr(condition()),
      daemonSetHash: str(),
    }),
  );

// ---- SidecarSet --------------------------------------------------------------------

/** A sidecar container: every field of a Kubernetes Container plus the SidecarSet ones. */
function sidecarContainer(): JSONSchema {
  const container = k8sDefinition('Container') as JSONSchema;
  return {
    ...container,
    properties: {
      ...(container.properties as Record<string, JSONSchema>),
      // Plain strings, as in OpenKruise's CRD: the webhook words the error for a bad value.
      podInjectPolicy: str(),
      upgradeStrategy: obj({ upgradeType: str(), hotUpgradeEmptyImage: str() }),
      shareVolumePolicy: obj({ type: str() }),
      transferEnv: arr(
        obj({
          sourceContainerName: str(),
          sourceContainerNameFrom: obj({ fieldRef: k8sRef('ObjectFieldSelector') }),
          envName: str(),
          envNames: arr(str()),
        }),
      ),
    },
  };
}

const sidecarSet = (): JSONSchema =>
  root(
    obj({
      selector: labelSelector(),
      namespace: str(),
      namespaceSelector: labelSelector(),
      initContainers: arr(sidecarContainer()),
      containers: arr(sidecarContainer()),
      volumes: arr(k8sRef('Volume')),
      updateStrategy: obj({
        type: str(),
        paused: bool(),
        selector: labelSelector(),
        partition: intOrString(),
        maxUnavailable: intOrString(),
        priorityStrategy: priorityStrategy(),
        scatterStrategy: scatterStrategy(),
      }),
      injectionStrategy: obj({
        paused: bool(),
        revision: obj({
          customVersion: str(),
          revisionName: str(),
          policy: { ...str(), default: 'Always' },
        }),
      }),
      imagePullSecrets: arr(k8sRef('LocalObjectReference')),
      revisionHistoryLimit: int32(),
      patchPodMetadata: arr(obj({ annotations: strMap(), patchPolicy: str() })),
    }),
    obj({
      observedGeneration: int64(),
      matchedPods: int32(),
      updatedPods: int32(),
      readyPods: int32(),
      updatedReadyPods: int32(),
      latestRevision: str(),
      collisionCount: int32(),
    }),
  );

// ---- UnitedDeployment ------------------------------------------------------------

/**
 * One of `spec.template`'s members: a workload's metadata and spec. The spec requires nothing:
 * the subset workload takes its selector (and with it the labels) from the UnitedDeployment, so
 * `statefulSetTemplate.spec.selector`, required in a StatefulSet, may be left out here.
 */
const subsetTemplate = (spec: JSONSchema): JSONSchema =>
  nestedWorkload(obj({ metadata: k8sRef('ObjectMeta'), spec: { ...spec, required: [] } }));

const unitedDeployment = (): JSONSchema =>
  root(
    obj(
      {
        replicas: int32(),
        selector: labelSelector(),
        template: obj({
          statefulSetTemplate: subsetTemplate(k8sRef('StatefulSetSpec')),
          advancedStatefulSetTemplate: subsetTemplate(statefulSetSpec(true)),
          cloneSetTemplate: subsetTemplate(cloneSetSpec()),
          deploymentTemplate: subsetTemplate(k8sRef('DeploymentSpec')),
        }),
        topology: obj({
          subsets: arr(
            obj(
              {
                name: str(),
                nodeSelectorTerm: k8sRef('NodeSelectorTerm'),
                tolerations: arr(k8sRef('Toleration')),
                replicas: intOrString(),
                minReplicas: intOrString(),
                maxReplicas: intOrString(),
                // A RawExtension: any JSON value; whether it applies is the controller's question.
                patch: { 'x-kubernetes-preserve-unknown-fields': true },
              },
              ['name'],
            ),
          ),
          scheduleStrategy: obj({
            type: str(),
            adaptive: obj({ rescheduleCriticalSeconds: int32(), unschedulableLastSeconds: int32() }),
          }),
        }),
        updateStrategy: obj({ type: str(), manualUpdate: obj({ partitions: mapOf(int32()) }) }),
        revisionHistoryLimit: int32(),
      },
      ['selector'],
    ),
    obj({
      observedGeneration: int64(),
      readyReplicas: int32(),
      replicas: int32(),
      updatedReplicas: int32(),
      updatedReadyReplicas: int32(),
      collisionCount: int32(),
      currentRevision: str(),
      subsetReplicas: mapOf(int32()),
      conditions: arr(condition()),
      updateStatus: obj({ updatedRevision: str(), currentPartitions: mapOf(int32()) }),
      subsetStatuses: arr(
        obj({ name: str(), replicas: int32(), partition: int32(), conditions: arr(condition()) }, ['name']),
      ),
      labelSelector: str(),
    }),
  );

/**
 * The openAPIV3Schema of `kind` at `version` as a CRD publishes it: self-contained, every
 * Kubernetes type it embeds expanded (a structural CRD schema may not use $ref).
 */
export function crdSchema(kind: string, version: string): JSONSchema {
  return inlineK8sRefs(kindSchema(kind, version));
}

/**
 * The schema of `kind` at `version` with the Kubernetes types it embeds left as
 * `{ $ref: 'PodTemplateSpec' }` (see structure/k8sRefs.ts): what checkStructure walks.
 * An unknown kind gets a root that accepts any spec and status.
 */
export function kindSchema(kind: string, version: string): JSONSchema {
  switch (kind) {
    case 'CloneSet':
      return cloneSet();
    case 'StatefulSet':
      return statefulSet(version === 'v1beta1');
    case 'DaemonSet':
      return daemonSet();
    case 'SidecarSet':
      return sidecarSet();
    case 'UnitedDeployment':
      return unitedDeployment();
    case 'ImagePullJob':
      return imagePullJob();
    case 'ImageListPullJob':
      return imageListPullJob();
    case 'NodeImage':
      return nodeImage();
    case 'ContainerRecreateRequest':
      return containerRecreateRequest();
    case 'BroadcastJob':
      return broadcastJob();
    case 'AdvancedCronJob':
      return advancedCronJob(version === 'v1beta1');
    default:
      return root(
        { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      );
  }
}
