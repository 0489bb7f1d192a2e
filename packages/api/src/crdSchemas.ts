// Structural openAPIV3Schema of every Kruise CRD version, built with a tiny schema DSL
// from the field lists of the type files (cloneset.ts, statefulset.ts, …). Pod templates,
// containers, volumes and PVC templates keep `x-kubernetes-preserve-unknown-fields`.

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
  free,
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

export type { JSONSchema } from './schemaDsl';

// ---- CloneSet ------------------------------------------------------------------

const cloneSet = (): JSONSchema =>
  root(
    obj(
      {
        replicas: int32(),
        selector: labelSelector(),
        template: free(),
        volumeClaimTemplates: arr(free()),
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
    ),
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

function statefulSet(v1beta1: boolean): JSONSchema {
  const spec: Record<string, JSONSchema> = {
    replicas: int32(),
    selector: labelSelector(),
    template: free(),
    volumeClaimTemplates: arr(free()),
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
    Object.assign(spec, {
      reserveOrdinals: arr(intOrString()),
      lifecycle: lifecycle(),
      scaleStrategy: obj({ maxUnavailable: intOrString() }),
      persistentVolumeClaimRetentionPolicy: obj({ whenDeleted: str(), whenScaled: str() }),
      ordinals: obj({ start: int32() }),
      volumeClaimUpdateStrategy: obj({ type: str() }),
    });
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
  return root(obj(spec, ['selector', 'template']), obj(status));
}

// ---- Advanced DaemonSet ----------------------------------------------------------

const daemonSet = (): JSONSchema =>
  root(
    obj(
      {
        selector: labelSelector(),
        template: free(),
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

const sidecarSet = (): JSONSchema =>
  root(
    obj({
      selector: labelSelector(),
      namespace: str(),
      namespaceSelector: labelSelector(),
      initContainers: arr(free()),
      containers: arr(free()),
      volumes: arr(free()),
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
      imagePullSecrets: arr(obj({ name: str() })),
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

const unitedDeployment = (): JSONSchema =>
  root(
    obj(
      {
        replicas: int32(),
        selector: labelSelector(),
        template: obj({
          statefulSetTemplate: free(),
          advancedStatefulSetTemplate: free(),
          cloneSetTemplate: free(),
          deploymentTemplate: free(),
        }),
        topology: obj({
          subsets: arr(
            obj(
              {
                name: str(),
                nodeSelectorTerm: free(),
                tolerations: arr(free()),
                replicas: intOrString(),
                minReplicas: intOrString(),
                maxReplicas: intOrString(),
                patch: free(),
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

export function crdSchema(kind: string, version: string): JSONSchema {
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
      return root(free(), free());
  }
}
