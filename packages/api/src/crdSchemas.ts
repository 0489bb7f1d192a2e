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
  conditions,
  desc,
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
import { extendsK8s, inlineK8sRefs, k8sDefinition, k8sRef, nestedWorkload } from './structure/k8sRefs';

export type { JSONSchema } from './schemaDsl';

const podTemplate = (what: string): JSONSchema =>
  desc(
    `The pod template: every pod the ${what} creates is made from it. Kruise's pod defaults are filled in on create and whenever the template changes.`,
    k8sRef('PodTemplateSpec'),
  );
const pvcTemplates = (): JSONSchema =>
  desc(
    'PersistentVolumeClaim templates: each pod gets one claim per template, mounted as the volume of the same name.',
    arr(k8sRef('PersistentVolumeClaim')),
  );
const selector = (what: string): JSONSchema =>
  desc(
    `The label selector of the ${what}'s pods. Required, not empty, must match the template's labels, and cannot change.`,
    labelSelector(),
  );
const revisionHistoryLimit = (): JSONSchema =>
  desc('How many old ControllerRevisions are kept for rollback. Default 10.', int32());
const observedGeneration = (): JSONSchema =>
  desc('The metadata.generation of the spec the controller last acted on.', int64());
const collisionCount = (): JSONSchema =>
  desc('How many times a revision name collided; added to the hash to make new names unique.', int32());
const labelSelectorStatus = (): JSONSchema =>
  desc('The selector in string form, for the scale subresource (kubectl scale, autoscalers).', str());
const currentRevision = (): JSONSchema =>
  desc('The revision of the pods before the update that is in progress.', str());
const updateRevision = (): JSONSchema =>
  desc('The revision made from the current template: the one pods are updated to.', str());
const replicasStatus = (): JSONSchema => desc('How many pods exist.', int32());
const readyReplicas = (): JSONSchema => desc('How many pods are ready.', int32());
const availableReplicas = (): JSONSchema =>
  desc('How many pods have been ready for at least minReadySeconds.', int32());
const updatedReplicas = (): JSONSchema => desc('How many pods are at the update revision.', int32());
const updatedReadyReplicas = (): JSONSchema =>
  desc('How many pods at the update revision are ready.', int32());
const updatedAvailableReplicas = (): JSONSchema =>
  desc('How many pods at the update revision are available.', int32());
const maxUnavailable = (what: string, dflt: string): JSONSchema =>
  desc(
    `The most pods that may be unavailable during ${what}: a number, or a percentage of replicas. Default ${dflt}.`,
    intOrString(),
  );

// ---- CloneSet ------------------------------------------------------------------

const cloneSetSpec = (): JSONSchema =>
  obj(
    {
      replicas: desc('The number of pods wanted. Default 1.', int32()),
      selector: selector('CloneSet'),
      template: podTemplate('CloneSet'),
      volumeClaimTemplates: pvcTemplates(),
      scaleStrategy: desc(
        'How the CloneSet scales.',
        obj({
          podsToDelete: desc(
            'Names of pods to delete: they are removed first when scaling in, and replaced when the replica count stays the same.',
            arr(str()),
          ),
          maxUnavailable: desc(
            'Limits scaling out while pods are unavailable: no new pods are created once this many are unavailable. A number or a percentage of replicas; unlimited when unset.',
            intOrString(),
          ),
          disablePVCReuse: desc(
            'Deletes the claims of a pod that is gone rather than giving them to the pod that replaces it. Default false.',
            bool(),
          ),
        }),
      ),
      updateStrategy: desc(
        'How pods move to a new template.',
        obj({
          type: desc(
            'ReCreate (delete the pod and create a new one), InPlaceIfPossible (change the pod in place when only images, or labels and annotations, changed; otherwise recreate) or InPlaceOnly (only in-place changes of images are allowed). Default ReCreate.',
            str(),
          ),
          partition: desc(
            'How many pods stay at the old revision: a number or a percentage of replicas. Default 0 (update all).',
            intOrString(),
          ),
          maxUnavailable: maxUnavailable('an update or a deletion', '20%'),
          maxSurge: desc(
            'How many pods may be created beyond replicas while updating, a number or a percentage of replicas. Default 0.',
            intOrString(),
          ),
          paused: desc('Stops updating pods; scaling goes on. Default false.', bool()),
          priorityStrategy: priorityStrategy(),
          scatterStrategy: scatterStrategy(),
          inPlaceUpdateStrategy: inPlaceUpdateStrategy(),
        }),
      ),
      revisionHistoryLimit: revisionHistoryLimit(),
      minReadySeconds: desc(
        'Seconds a pod must have been ready before it counts as available. Default 0.',
        int32(),
      ),
      lifecycle: lifecycle(),
    },
    ['selector', 'template'],
  );

const cloneSet = (): JSONSchema =>
  root(
    cloneSetSpec(),
    obj({
      observedGeneration: observedGeneration(),
      replicas: replicasStatus(),
      readyReplicas: readyReplicas(),
      availableReplicas: availableReplicas(),
      updatedReplicas: updatedReplicas(),
      updatedReadyReplicas: updatedReadyReplicas(),
      updatedAvailableReplicas: updatedAvailableReplicas(),
      expectedUpdatedReplicas: desc(
        'How many pods should be at the update revision once the rollout is done (replicas minus partition).',
        int32(),
      ),
      updateRevision: updateRevision(),
      currentRevision: currentRevision(),
      collisionCount: collisionCount(),
      conditions: conditions(),
      labelSelector: labelSelectorStatus(),
    }),
  );

// ---- Advanced StatefulSet --------------------------------------------------------

function statefulSetSpec(v1beta1: boolean): JSONSchema {
  const spec: Record<string, JSONSchema> = {
    replicas: desc('The number of pods wanted, not counting reserved ordinals. Default 1.', int32()),
    selector: selector('StatefulSet'),
    template: podTemplate('StatefulSet'),
    volumeClaimTemplates: pvcTemplates(),
    serviceName: desc(
      "The headless Service that gives the pods their network identity; copied into each new pod's subdomain.",
      str(),
    ),
    podManagementPolicy: desc(
      'OrderedReady (pods are created one by one in ordinal order, each after the previous is ready, and deleted in reverse) or Parallel (all at once). Default OrderedReady.',
      str(),
    ),
    updateStrategy: desc(
      'How pods move to a new template.',
      obj({
        type: desc(
          'RollingUpdate (the controller updates pods) or OnDelete (a pod is updated only when the user deletes it). Default RollingUpdate.',
          str(),
        ),
        rollingUpdate: desc(
          'The rolling update; only with type RollingUpdate.',
          obj({
            partition: desc('How many pods stay at the old revision. Default 0 (update all).', int32()),
            maxUnavailable: maxUnavailable('the update (more than 1 only with Parallel)', '1'),
            podUpdatePolicy: desc(
              'ReCreate, InPlaceIfPossible or InPlaceOnly: whether a pod may be changed in place rather than recreated. The in-place policies need the InPlaceUpdateReady readiness gate in the template. Default ReCreate.',
              str(),
            ),
            paused: desc('Stops updating pods. Default false.', bool()),
            unorderedUpdate: desc(
              'Updates pods in a priority order instead of by ordinal; only with Parallel.',
              obj({ priorityStrategy: priorityStrategy() }),
            ),
            inPlaceUpdateStrategy: inPlaceUpdateStrategy(),
            minReadySeconds: desc(
              'Seconds an updated pod must have been ready before the next one is updated, 0 to 300. Default 0.',
              int32(),
            ),
          }),
        ),
      }),
    ),
    revisionHistoryLimit: revisionHistoryLimit(),
  };
  if (v1beta1) {
    Object.assign(spec, {
      reserveOrdinals: desc(
        'Ordinals that get no pod (they are skipped, and the set grows past them): numbers, or ranges written "a-b".',
        arr(intOrString()),
      ),
      lifecycle: lifecycle(),
      scaleStrategy: desc(
        'How the StatefulSet scales.',
        obj({
          maxUnavailable: desc(
            'With Parallel, the most pods that may be unavailable while scaling: a number or a percentage of replicas. Unlimited when unset.',
            intOrString(),
          ),
        }),
      ),
      persistentVolumeClaimRetentionPolicy: desc(
        "What happens to the pods' claims made from volumeClaimTemplates.",
        obj({
          whenDeleted: desc(
            'Retain or Delete the claims when the StatefulSet is deleted. Default Retain.',
            str(),
          ),
          whenScaled: desc(
            'Retain or Delete the claims of pods removed by a scale-in. Default Retain.',
            str(),
          ),
        }),
      ),
      ordinals: desc(
        'Where pod ordinals start.',
        obj({
          start: desc(
            'The first ordinal (needs the StatefulSetStartOrdinal feature gate). Default 0.',
            int32(),
          ),
        }),
      ),
      volumeClaimUpdateStrategy: desc(
        'How claims follow a change of volumeClaimTemplates.',
        obj({
          type: desc(
            'OnDelete (claims change only when deleted by the user) or OnPodRollingUpdate (claims are updated with their pod). Default OnDelete.',
            str(),
          ),
        }),
      ),
    });
  }
  return obj(spec, ['selector', 'template']);
}

function statefulSet(v1beta1: boolean): JSONSchema {
  const status: Record<string, JSONSchema> = {
    observedGeneration: observedGeneration(),
    replicas: replicasStatus(),
    readyReplicas: readyReplicas(),
    availableReplicas: availableReplicas(),
    currentReplicas: desc('How many pods are at the current revision.', int32()),
    updatedReplicas: updatedReplicas(),
    currentRevision: currentRevision(),
    updateRevision: updateRevision(),
    collisionCount: collisionCount(),
    conditions: conditions(),
    labelSelector: labelSelectorStatus(),
  };
  if (v1beta1) {
    Object.assign(status, {
      updatedReadyReplicas: updatedReadyReplicas(),
      updatedAvailableReplicas: updatedAvailableReplicas(),
      volumeClaims: desc(
        'For each volume claim template, how many claims match it.',
        arr(
          obj(
            {
              volumeClaimName: desc('The name of the volume claim template.', str()),
              compatibleReplicas: desc('How many claims match the template.', int32()),
              compatibleReadyReplicas: desc('How many claims match the template and are ready.', int32()),
            },
            ['compatibleReadyReplicas', 'compatibleReplicas', 'volumeClaimName'],
          ),
        ),
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
        selector: selector('DaemonSet'),
        template: podTemplate('DaemonSet'),
        updateStrategy: desc(
          'How pods move to a new template.',
          obj({
            type: desc(
              'RollingUpdate (the controller updates pods) or OnDelete (a pod is updated only when the user deletes it). Default RollingUpdate.',
              str(),
            ),
            rollingUpdate: desc(
              'The rolling update; only with type RollingUpdate.',
              obj({
                rollingUpdateType: desc(
                  'Standard (delete the old pod, then create the new one) or InPlaceIfPossible (change the pod in place when only images changed). Default Standard.',
                  str(),
                ),
                maxUnavailable: desc(
                  'The most nodes whose pod may be unavailable during the update: a number or a percentage of the nodes, rounded up. Default 1 when neither this nor maxSurge is set.',
                  intOrString(),
                ),
                maxSurge: desc(
                  'How many nodes may run an old and a new pod at once during the update: a number or a percentage of the nodes, rounded up. Default 0 when neither this nor maxUnavailable is set.',
                  intOrString(),
                ),
                selector: desc('Only nodes with these labels are updated.', labelSelector()),
                partition: desc('How many nodes keep the old revision. Default 0 (update all).', int32()),
                paused: desc(
                  'Stops updating pods; pods are still created and deleted. Default false.',
                  bool(),
                ),
              }),
            ),
          }),
        ),
        minReadySeconds: desc(
          'Seconds a pod must have been ready before it counts as available. Default 0.',
          int32(),
        ),
        burstReplicas: desc(
          'The most pods created, and the most deleted, in one pass: a number or a percentage. Default 250.',
          intOrString(),
        ),
        revisionHistoryLimit: revisionHistoryLimit(),
        lifecycle: desc(
          'Hooks that hold a pod before it is deleted (only preDelete is allowed).',
          lifecycle(),
        ),
      },
      ['selector', 'template'],
    ),
    obj({
      currentNumberScheduled: desc('How many nodes run at least one daemon pod and should.', int32()),
      numberMisscheduled: desc('How many nodes run a daemon pod but should not.', int32()),
      desiredNumberScheduled: desc('How many nodes should run the daemon pod.', int32()),
      numberReady: desc('How many nodes run a ready daemon pod.', int32()),
      observedGeneration: observedGeneration(),
      updatedNumberScheduled: desc('How many nodes run a pod at the update revision.', int32()),
      numberAvailable: desc('How many nodes run an available daemon pod.', int32()),
      numberUnavailable: desc('How many nodes should run the daemon pod but have none available.', int32()),
      collisionCount: collisionCount(),
      conditions: conditions(),
      daemonSetHash: desc('The revision hash of the current template.', str()),
    }),
  );

// ---- SidecarSet --------------------------------------------------------------------

/** A sidecar container: every field of a Kubernetes Container plus the SidecarSet ones. */
function sidecarContainer(init: boolean): JSONSchema {
  const container = k8sDefinition('Container') as JSONSchema;
  return extendsK8s('Container', {
    ...container,
    properties: {
      ...(container.properties as Record<string, JSONSchema>),
      // Plain strings, as in OpenKruise's CRD: the webhook words the error for a bad value.
      podInjectPolicy: desc(
        `BeforeAppContainer or AfterAppContainer: where in the pod's list the container is put. Default ${init ? 'AfterAppContainer' : 'BeforeAppContainer'}.`,
        str(),
      ),
      upgradeStrategy: desc(
        'How the sidecar is upgraded.',
        obj({
          upgradeType: desc(
            'ColdUpgrade (restart the container with the new image) or HotUpgrade (start a second container and switch over). Default ColdUpgrade.',
            str(),
          ),
          hotUpgradeEmptyImage: desc(
            'With HotUpgrade, the placeholder image the idle one of the two containers runs.',
            str(),
          ),
        }),
      ),
      shareVolumePolicy: desc(
        "Whether the sidecar mounts the volumes of the pod's other containers.",
        obj({ type: desc('enabled or disabled. Default disabled.', str()) }),
      ),
      transferEnv: desc(
        'Environment variables copied into the sidecar from another container of the pod.',
        arr(
          obj({
            sourceContainerName: desc('The container to copy from.', str()),
            sourceContainerNameFrom: desc(
              'Reads the name of the container to copy from out of a pod field (a label or annotation).',
              obj({
                fieldRef: desc('The pod field that holds the container name.', k8sRef('ObjectFieldSelector')),
              }),
            ),
            envName: desc('The variable to copy.', str()),
            envNames: desc('Several variables to copy.', arr(str())),
          }),
        ),
      ),
    },
  });
}

const sidecarSet = (): JSONSchema =>
  root(
    obj({
      selector: desc('The pods to inject the sidecars into. Required and not empty.', labelSelector()),
      namespace: desc('Only pods of this namespace are injected. Not with namespaceSelector.', str()),
      namespaceSelector: desc(
        'Only pods whose namespace has these labels are injected. Not with namespace.',
        labelSelector(),
      ),
      initContainers: desc('Init containers added to each matching pod.', arr(sidecarContainer(true))),
      containers: desc('Sidecar containers added to each matching pod.', arr(sidecarContainer(false))),
      volumes: desc('Volumes added to the pod for the sidecars to mount.', arr(k8sRef('Volume'))),
      updateStrategy: desc(
        'How injected sidecars move to a new version in running pods.',
        obj({
          type: desc(
            'RollingUpdate (sidecars in running pods are updated in place) or NotUpdate (only new pods get the new version). Default RollingUpdate.',
            str(),
          ),
          paused: desc('Stops updating sidecars in running pods. Default false.', bool()),
          selector: desc('Only pods with these labels are updated.', labelSelector()),
          partition: desc(
            'How many matched pods keep the old sidecars: a number or a percentage. Default 0 (update all).',
            intOrString(),
          ),
          maxUnavailable: desc(
            'The most matched pods that may be unavailable during the update: a number or a percentage. Default 1.',
            intOrString(),
          ),
          priorityStrategy: priorityStrategy(),
          scatterStrategy: scatterStrategy(),
        }),
      ),
      injectionStrategy: desc(
        'How sidecars are injected into new pods.',
        obj({
          paused: desc('Stops injecting into new pods. Default false.', bool()),
          revision: desc(
            'Injects a recorded revision of the SidecarSet instead of the latest one.',
            obj({
              customVersion: desc(
                'The latest revision carrying this apps.kruise.io/sidecarset-custom-version label.',
                str(),
              ),
              revisionName: desc('The ControllerRevision of that name (wins over customVersion).', str()),
              policy: desc(
                'Always (every new pod gets that revision) or Partial (new pods outside updateStrategy.selector, or a partition percentage of them, get it; the rest get the latest). Default Always.',
                { ...str(), default: 'Always' },
              ),
            }),
          ),
        }),
      ),
      imagePullSecrets: desc(
        "Secrets added to the pod's imagePullSecrets, for pulling the sidecar images.",
        arr(k8sRef('LocalObjectReference')),
      ),
      revisionHistoryLimit: revisionHistoryLimit(),
      patchPodMetadata: desc(
        'Annotations written onto the injected pods.',
        arr(
          obj({
            annotations: desc('The annotations.', strMap()),
            patchPolicy: desc(
              'Retain (keep a value the pod already has), Overwrite, or MergePatchJson (merge JSON values). Default Retain.',
              str(),
            ),
          }),
        ),
      ),
    }),
    obj({
      observedGeneration: observedGeneration(),
      matchedPods: desc('How many pods the selector matches.', int32()),
      updatedPods: desc('How many matched pods run the latest sidecars.', int32()),
      readyPods: desc('How many matched pods are ready.', int32()),
      updatedReadyPods: desc('How many matched pods run the latest sidecars and are ready.', int32()),
      latestRevision: desc('The name of the latest ControllerRevision of the SidecarSet.', str()),
      collisionCount: collisionCount(),
    }),
  );

// ---- UnitedDeployment ------------------------------------------------------------

/**
 * One of `spec.template`'s members: a workload's metadata and spec. The spec requires nothing:
 * the subset workload takes its selector (and with it the labels) from the UnitedDeployment, so
 * `statefulSetTemplate.spec.selector`, required in a StatefulSet, may be left out here.
 */
const subsetTemplate = (kind: string, spec: JSONSchema): JSONSchema =>
  desc(
    `Makes each subset a ${kind}, with this metadata and spec.`,
    nestedWorkload(
      obj({
        metadata: desc("The labels and annotations of each subset's workload.", k8sRef('ObjectMeta')),
        spec: desc(`The ${kind} spec; the selector and replicas are set per subset.`, {
          ...spec,
          required: [],
        }),
      }),
    ),
  );

const unitedDeployment = (): JSONSchema =>
  root(
    obj(
      {
        replicas: desc('The number of pods wanted over all subsets. Not defaulted.', int32()),
        selector: selector('UnitedDeployment'),
        template: desc(
          'The workload each subset runs: exactly one of the four templates.',
          obj({
            statefulSetTemplate: subsetTemplate('StatefulSet (apps/v1)', k8sRef('StatefulSetSpec')),
            advancedStatefulSetTemplate: subsetTemplate(
              'StatefulSet (apps.kruise.io/v1beta1)',
              statefulSetSpec(true),
            ),
            cloneSetTemplate: subsetTemplate('CloneSet', cloneSetSpec()),
            deploymentTemplate: subsetTemplate('Deployment', k8sRef('DeploymentSpec')),
          }),
        ),
        topology: desc(
          'The subsets the pods are spread over and how replicas are scheduled into them.',
          obj({
            subsets: desc(
              'The subsets, each a workload on its own group of nodes. Their order matters to the elastic allocation.',
              arr(
                obj(
                  {
                    name: desc('The subset name: a DNS-1123 label, unique in the list.', str()),
                    nodeSelectorTerm: desc(
                      "Node requirements added to the subset's pods (only matchExpressions is used). Cannot change.",
                      k8sRef('NodeSelectorTerm'),
                    ),
                    tolerations: desc(
                      "Tolerations added after the template's. Cannot change.",
                      arr(k8sRef('Toleration')),
                    ),
                    replicas: desc(
                      'A fixed number of pods, or a percentage of spec.replicas. Unset, the subset takes a share of what the others leave.',
                      intOrString(),
                    ),
                    minReplicas: desc('The fewest pods the subset gets (elastic allocation).', intOrString()),
                    maxReplicas: desc(
                      'The most pods the subset gets (elastic allocation); unlimited when unset.',
                      intOrString(),
                    ),
                    // A RawExtension: any JSON value; whether it applies is the controller's question.
                    patch: desc("A strategic-merge patch applied to the subset workload's pod template.", {
                      'x-kubernetes-preserve-unknown-fields': true,
                    }),
                  },
                  ['name'],
                ),
              ),
            ),
            scheduleStrategy: desc(
              'How replicas move between subsets.',
              obj({
                type: desc(
                  'Fixed (replicas stay where allocated) or Adaptive (replicas move away from subsets whose pods cannot be scheduled). Default Fixed.',
                  str(),
                ),
                adaptive: desc(
                  'The settings of Adaptive.',
                  obj({
                    rescheduleCriticalSeconds: desc(
                      'Seconds a pod may stay unschedulable before its replica is moved to another subset. Default 30.',
                      int32(),
                    ),
                    unschedulableLastSeconds: desc(
                      'Seconds a subset stays marked unschedulable after that. Default 300.',
                      int32(),
                    ),
                  }),
                ),
              }),
            ),
          }),
        ),
        updateStrategy: desc(
          'How subsets move to a new template.',
          obj({
            type: desc('Manual: each subset is updated up to its partition. Default Manual.', str()),
            manualUpdate: desc(
              'The partitions of the Manual update.',
              obj({
                partitions: desc(
                  'Per subset name, how many of its pods stay at the old revision. Default 0.',
                  mapOf(int32()),
                ),
              }),
            ),
          }),
        ),
        revisionHistoryLimit: revisionHistoryLimit(),
      },
      ['selector'],
    ),
    obj({
      observedGeneration: observedGeneration(),
      readyReplicas: readyReplicas(),
      replicas: replicasStatus(),
      updatedReplicas: updatedReplicas(),
      updatedReadyReplicas: updatedReadyReplicas(),
      collisionCount: collisionCount(),
      currentRevision: desc('The revision of the current template.', str()),
      subsetReplicas: desc('Per subset name, the replicas allocated to it.', mapOf(int32())),
      conditions: conditions(),
      updateStatus: desc(
        'The update in progress.',
        obj({
          updatedRevision: desc('The revision subsets are updated to.', str()),
          currentPartitions: desc('Per subset name, the partition in force.', mapOf(int32())),
        }),
      ),
      subsetStatuses: desc(
        'The state of each subset.',
        arr(
          obj(
            {
              name: desc('The subset name.', str()),
              replicas: desc("The subset's replicas.", int32()),
              partition: desc("The subset's partition.", int32()),
              conditions: conditions(),
            },
            ['name'],
          ),
        ),
      ),
      labelSelector: labelSelectorStatus(),
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
