// Structural openAPIV3Schema of the job-like and node-side Kruise CRDs: ImagePullJob,
// ImageListPullJob, NodeImage, ContainerRecreateRequest, BroadcastJob, AdvancedCronJob.
import {
  arr,
  bool,
  condition,
  enumOf,
  free,
  int32,
  int64,
  intOrString,
  type JSONSchema,
  labelSelector,
  mapOf,
  obj,
  root,
  str,
  strMap,
  time,
} from './schemaDsl';
import { k8sDefinition, k8sRef, nestedWorkload } from './structure/k8sRefs';

// ---- image pull jobs, NodeImage ----------------------------------------------------

export const completionPolicy = (): JSONSchema =>
  obj({ type: str(), activeDeadlineSeconds: int64(), ttlSecondsAfterFinished: int32() });

export const imagePullJobTemplate = (): Record<string, JSONSchema> => ({
  pullSecrets: arr(str()),
  // A LabelSelector plus `names` (both may not be set, a rule of the webhook).
  selector: (() => {
    const ls = k8sDefinition('LabelSelector') as JSONSchema;
    return { ...ls, properties: { names: arr(str()), ...(ls.properties as Record<string, JSONSchema>) } };
  })(),
  podSelector: labelSelector(),
  parallelism: intOrString(),
  pullPolicy: obj({ timeoutSeconds: int32(), backoffLimit: int32() }),
  completionPolicy: completionPolicy(),
  sandboxConfig: obj({ labels: strMap(), annotations: strMap() }),
  imagePullPolicy: str(),
});

export const imagePullJob = (): JSONSchema =>
  root(
    obj({ image: str(), ...imagePullJobTemplate() }, ['image']),
    obj({
      startTime: time(),
      completionTime: time(),
      desired: int32(),
      active: int32(),
      succeeded: int32(),
      failed: int32(),
      message: str(),
      failedNodes: arr(str()),
    }),
  );

export const imageListPullJobSpec = (required: string[]): JSONSchema =>
  obj({ images: arr(str()), ...imagePullJobTemplate() }, required);

export const imageListPullJob = (): JSONSchema =>
  root(
    imageListPullJobSpec(['images']),
    obj({
      startTime: time(),
      completionTime: time(),
      desired: int32(),
      active: int32(),
      completed: int32(),
      succeeded: int32(),
      failedImageStatuses: arr(obj({ imagePullJob: str(), name: str(), message: str() })),
    }),
  );

export const nodeImage = (): JSONSchema =>
  root(
    obj({
      images: mapOf(
        obj({
          pullSecrets: arr(obj({ namespace: str(), name: str() })),
          tags: arr(
            obj(
              {
                tag: str(),
                createdAt: time(),
                pullPolicy: obj({
                  timeoutSeconds: int32(),
                  backoffLimit: int32(),
                  ttlSecondsAfterFinished: int32(),
                  activeDeadlineSeconds: int64(),
                }),
                ownerReferences: arr(free()),
                version: int64(),
                imagePullPolicy: str(),
              },
              ['tag'],
            ),
          ),
          sandboxConfig: obj({ labels: strMap(), annotations: strMap() }),
        }),
      ),
    }),
    obj({
      desired: int32(),
      succeeded: int32(),
      failed: int32(),
      pulling: int32(),
      imageStatuses: mapOf(
        obj({
          tags: arr(
            obj(
              {
                tag: str(),
                phase: str(),
                progress: int32(),
                startTime: time(),
                completionTime: time(),
                version: int64(),
                imageID: str(),
                message: str(),
              },
              ['phase', 'tag'],
            ),
          ),
        }),
      ),
      firstSyncStatus: obj({ syncAt: time(), status: str(), message: str() }),
    }),
  );

// ---- ContainerRecreateRequest --------------------------------------------------------

export const containerRecreateRequest = (): JSONSchema =>
  root(
    obj(
      {
        podName: str(),
        containers: arr(
          obj(
            {
              name: str(),
              preStop: obj({
                exec: k8sRef('ExecAction'),
                httpGet: k8sRef('HTTPGetAction'),
                tcpSocket: k8sRef('TCPSocketAction'),
              }),
              ports: arr(k8sRef('ContainerPort')),
              statusContext: obj({ containerID: str(), restartCount: int32() }, [
                'containerID',
                'restartCount',
              ]),
            },
            ['name'],
          ),
        ),
        strategy: obj({
          failurePolicy: str(),
          orderedRecreate: bool(),
          forceRecreate: bool(),
          terminationGracePeriodSeconds: int64(),
          unreadyGracePeriodSeconds: int64(),
          minStartedSeconds: int32(),
        }),
        activeDeadlineSeconds: int64(),
        ttlSecondsAfterFinished: int32(),
      },
      ['containers', 'podName'],
    ),
    obj({
      phase: str(),
      completionTime: time(),
      message: str(),
      containerRecreateStates: arr(
        obj({ name: str(), phase: str(), message: str(), isKilled: bool() }, ['name', 'phase']),
      ),
    }),
  );

// ---- BroadcastJob, AdvancedCronJob -----------------------------------------------------

export const broadcastJobSpec = (): JSONSchema =>
  obj(
    {
      parallelism: intOrString(),
      template: k8sRef('PodTemplateSpec'),
      completionPolicy: completionPolicy(),
      paused: bool(),
      failurePolicy: obj({ type: str(), restartLimit: int32() }),
    },
    ['template'],
  );

export const broadcastJob = (): JSONSchema =>
  root(
    broadcastJobSpec(),
    obj({
      conditions: arr(condition()),
      startTime: time(),
      completionTime: time(),
      active: int32(),
      succeeded: int32(),
      failed: int32(),
      desired: int32(),
      phase: str(),
    }),
  );

export function advancedCronJob(v1beta1: boolean): JSONSchema {
  const template: Record<string, JSONSchema> = {
    jobTemplate: nestedWorkload(k8sRef('JobTemplateSpec')),
    broadcastJobTemplate: nestedWorkload(obj({ metadata: k8sRef('ObjectMeta'), spec: broadcastJobSpec() })),
  };
  if (v1beta1) {
    template.imageListPullJobTemplate = obj({
      metadata: k8sRef('ObjectMeta'),
      spec: imageListPullJobSpec(['completionPolicy', 'images']),
    });
  }
  return root(
    obj(
      {
        schedule: str(),
        timeZone: str(),
        startingDeadlineSeconds: int64(),
        concurrencyPolicy: enumOf(['Allow', 'Forbid', 'Replace']),
        paused: bool(),
        successfulJobsHistoryLimit: int32(),
        failedJobsHistoryLimit: int32(),
        template: obj(template),
      },
      ['schedule', 'template'],
    ),
    obj({ type: str(), active: arr(free()), lastScheduleTime: time() }),
  );
}
