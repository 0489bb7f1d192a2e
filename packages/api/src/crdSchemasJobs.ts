// Structural openAPIV3Schema of the job-like and node-side Kruise CRDs: ImagePullJob,
// ImageListPullJob, NodeImage, ContainerRecreateRequest, BroadcastJob, AdvancedCronJob.
import {
  arr,
  bool,
  conditions,
  desc,
  enumOf,
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

/**
 * core/v1 ObjectReference, as a NodeImage tag names the jobs that asked for it:
 * `{apiVersion: apps.kruise.io/v1alpha1, kind: ImagePullJob, namespace: default, name: pull-nginx, uid: ...}`.
 */
const objectReference = (): JSONSchema =>
  obj({
    apiVersion: desc('API version of the referent.', str()),
    kind: desc('Kind of the referent.', str()),
    namespace: desc('Namespace of the referent.', str()),
    name: desc('Name of the referent.', str()),
    uid: desc('UID of the referent.', str()),
    resourceVersion: desc('Specific resourceVersion of the referent.', str()),
    fieldPath: desc('A field of the referent, when the reference is to part of an object.', str()),
  });

const startTime = (): JSONSchema => desc('When the job started.', time());
const completionTime = (): JSONSchema => desc('When the job finished.', time());
const pullTimeout = (): JSONSchema => desc('Seconds one pull attempt may take. Default 600.', int32());
const pullBackoff = (): JSONSchema => desc('How many times a failed pull is retried. Default 3.', int32());

export const completionPolicy = (): JSONSchema =>
  desc(
    'When the job ends.',
    obj({
      type: desc(
        'Always (the job ends once every target has run) or Never (it keeps running). Default Always.',
        str(),
      ),
      activeDeadlineSeconds: desc(
        'Seconds after its start the job is stopped, finished or not (only with Always).',
        int64(),
      ),
      ttlSecondsAfterFinished: desc(
        'Seconds after it finished the job is deleted (only with Always).',
        int32(),
      ),
    }),
  );

export const imagePullJobTemplate = (): Record<string, JSONSchema> => ({
  pullSecrets: desc("Names of Secrets in the job's namespace to pull with.", arr(str())),
  // A LabelSelector plus `names` (both may not be set, a rule of the webhook).
  selector: desc(
    'The nodes to pull on: by name, or by node labels (not both). All nodes when unset.',
    (() => {
      const ls = k8sDefinition('LabelSelector') as JSONSchema;
      return {
        ...ls,
        properties: {
          names: desc('Names of the nodes to pull on.', arr(str())),
          ...(ls.properties as Record<string, JSONSchema>),
        },
      };
    })(),
  ),
  podSelector: desc(
    "Pulls on the nodes running pods with these labels in the job's namespace. Not with selector.",
    labelSelector(),
  ),
  parallelism: desc('How many nodes pull at the same time; 0 pauses the job. Default 1.', intOrString()),
  pullPolicy: desc(
    'Limits of each pull on a node.',
    obj({ timeoutSeconds: pullTimeout(), backoffLimit: pullBackoff() }),
  ),
  completionPolicy: completionPolicy(),
  sandboxConfig: desc(
    'Labels and annotations of the pod sandbox the runtime creates for the pull.',
    obj({ labels: desc('Sandbox labels.', strMap()), annotations: desc('Sandbox annotations.', strMap()) }),
  ),
  imagePullPolicy: desc(
    'Always (pull even if the node has the image) or IfNotPresent. Default IfNotPresent.',
    str(),
  ),
});

export const imagePullJob = (): JSONSchema =>
  root(
    obj({ image: desc('The image to pull, e.g. nginx:1.25. Required.', str()), ...imagePullJobTemplate() }, [
      'image',
    ]),
    obj({
      startTime: startTime(),
      completionTime: completionTime(),
      desired: desc('How many nodes should pull the image.', int32()),
      active: desc('How many nodes are pulling.', int32()),
      succeeded: desc('How many nodes pulled the image.', int32()),
      failed: desc('How many nodes failed to pull it.', int32()),
      message: desc('A human-readable note on the job.', str()),
      failedNodes: desc('The nodes whose pull failed.', arr(str())),
    }),
  );

export const imageListPullJobSpec = (required: string[]): JSONSchema =>
  obj(
    {
      images: desc(
        'The images to pull (one ImagePullJob each), at most 255, no duplicates. Required.',
        arr(str()),
      ),
      ...imagePullJobTemplate(),
    },
    required,
  );

export const imageListPullJob = (): JSONSchema =>
  root(
    imageListPullJobSpec(['images']),
    obj({
      startTime: startTime(),
      completionTime: completionTime(),
      desired: desc('How many images are to be pulled.', int32()),
      active: desc('How many image jobs are running.', int32()),
      completed: desc('How many image jobs have finished.', int32()),
      succeeded: desc('How many image jobs succeeded.', int32()),
      failedImageStatuses: desc(
        'The images whose job failed.',
        arr(
          obj({
            imagePullJob: desc('The ImagePullJob of the image.', str()),
            name: desc('The image.', str()),
            message: desc('Why it failed.', str()),
          }),
        ),
      ),
    }),
  );

export const nodeImage = (): JSONSchema =>
  root(
    obj({
      images: desc(
        'The images the node should have, by image name (without tag), at most 256. Written by the image pull jobs.',
        mapOf(
          obj({
            pullSecrets: desc(
              'Secrets to pull with.',
              arr(
                obj({
                  namespace: desc('The namespace of the Secret.', str()),
                  name: desc('The name of the Secret.', str()),
                }),
              ),
            ),
            tags: desc(
              'The tags to pull.',
              arr(
                obj(
                  {
                    tag: desc('The tag.', str()),
                    createdAt: desc(
                      'When the tag was asked for. Defaults to the time of the request.',
                      time(),
                    ),
                    pullPolicy: desc(
                      'Limits of the pull.',
                      obj({
                        timeoutSeconds: pullTimeout(),
                        backoffLimit: pullBackoff(),
                        ttlSecondsAfterFinished: desc(
                          'Seconds after the pull finished the tag is removed from the spec. Required.',
                          int32(),
                        ),
                        activeDeadlineSeconds: desc('Seconds the pull may run in all.', int64()),
                      }),
                    ),
                    ownerReferences: desc('The jobs that asked for the tag.', arr(objectReference())),
                    version: desc('Raised to ask for the tag to be pulled again.', int64()),
                    imagePullPolicy: desc('Always or IfNotPresent.', str()),
                  },
                  ['tag'],
                ),
              ),
            ),
            sandboxConfig: desc(
              'Labels and annotations of the pod sandbox the runtime creates for the pull.',
              obj({
                labels: desc('Sandbox labels.', strMap()),
                annotations: desc('Sandbox annotations.', strMap()),
              }),
            ),
          }),
        ),
      ),
    }),
    obj({
      desired: desc('How many tags are to be pulled.', int32()),
      succeeded: desc('How many tags were pulled.', int32()),
      failed: desc('How many tags failed.', int32()),
      pulling: desc('How many tags are being pulled.', int32()),
      imageStatuses: desc(
        'The pulls, by image name.',
        mapOf(
          obj({
            tags: desc(
              'One entry per tag.',
              arr(
                obj(
                  {
                    tag: desc('The tag.', str()),
                    phase: desc('Waiting, Pulling, Succeeded or Failed.', str()),
                    progress: desc('Percent pulled, 0 to 100.', int32()),
                    startTime: desc('When the pull started.', time()),
                    completionTime: desc('When the pull finished.', time()),
                    version: desc('The spec version this status is for.', int64()),
                    imageID: desc('The image ID the runtime reported.', str()),
                    message: desc('Why the pull failed, if it did.', str()),
                  },
                  ['phase', 'tag'],
                ),
              ),
            ),
          }),
        ),
      ),
      firstSyncStatus: desc(
        "The node's first sync (declared, never written).",
        obj({
          syncAt: desc('When it happened.', time()),
          status: desc('Succeeded or Failed.', str()),
          message: desc('A human-readable note.', str()),
        }),
      ),
    }),
  );

// ---- ContainerRecreateRequest --------------------------------------------------------

export const containerRecreateRequest = (): JSONSchema =>
  root(
    obj(
      {
        podName: desc("The pod whose containers are recreated, in the request's namespace. Required.", str()),
        containers: desc(
          'The containers to recreate, by name; each must be running. Required.',
          arr(
            obj(
              {
                name: desc('The container name.', str()),
                preStop: desc(
                  "The container's preStop handler, copied from the pod by the webhook; not set by the user.",
                  obj({
                    exec: desc('Runs a command in the container.', k8sRef('ExecAction')),
                    httpGet: desc('Sends an HTTP GET to the container.', k8sRef('HTTPGetAction')),
                    tcpSocket: desc('Opens a TCP connection to the container.', k8sRef('TCPSocketAction')),
                  }),
                ),
                ports: desc(
                  "The container's ports, copied by the webhook for an HTTP preStop; not set by the user.",
                  arr(k8sRef('ContainerPort')),
                ),
                statusContext: desc(
                  'The container instance to recreate, recorded by the webhook; not set by the user.',
                  obj(
                    {
                      containerID: desc('The container ID, <runtime>://<id>.', str()),
                      restartCount: desc('The restart count at the time of the request.', int32()),
                    },
                    ['containerID', 'restartCount'],
                  ),
                ),
              },
              ['name'],
            ),
          ),
        ),
        strategy: desc(
          'How the containers are recreated.',
          obj({
            failurePolicy: desc(
              'Fail (stop at the first container that fails) or Ignore (go on with the others). Default Fail.',
              str(),
            ),
            orderedRecreate: desc(
              'Recreates the containers one after another, each once the previous one is back. Default false.',
              bool(),
            ),
            forceRecreate: desc(
              'Stops each container even if it has already restarted since the request was made. Default false.',
              bool(),
            ),
            terminationGracePeriodSeconds: desc(
              "Seconds a container has to stop. Default: the pod's terminationGracePeriodSeconds.",
              int64(),
            ),
            unreadyGracePeriodSeconds: desc(
              'Seconds to wait between marking the pod not ready and stopping the containers.',
              int64(),
            ),
            minStartedSeconds: desc(
              'Seconds a recreated container must have been running and ready before it counts as recreated. Default 0.',
              int32(),
            ),
          }),
        ),
        activeDeadlineSeconds: desc('Seconds the request may take in all, at least 3.', int64()),
        ttlSecondsAfterFinished: desc('Seconds after it finished the request is deleted.', int32()),
      },
      ['containers', 'podName'],
    ),
    obj({
      phase: desc('Pending, Recreating or Completed.', str()),
      completionTime: desc('When the request completed.', time()),
      message: desc('A human-readable note.', str()),
      containerRecreateStates: desc(
        'The state of each container.',
        arr(
          obj(
            {
              name: desc('The container name.', str()),
              phase: desc('Pending, Recreating, Succeeded or Failed.', str()),
              message: desc('A human-readable note.', str()),
              isKilled: desc('Whether the container has been stopped.', bool()),
            },
            ['name', 'phase'],
          ),
        ),
      ),
    }),
  );

// ---- BroadcastJob, AdvancedCronJob -----------------------------------------------------

export const broadcastJobSpec = (): JSONSchema =>
  obj(
    {
      parallelism: desc(
        'How many pods run at the same time: a number or a percentage of the nodes. Default unlimited.',
        intOrString(),
      ),
      template: desc(
        'The pod template: one pod is run from it on each eligible node.',
        k8sRef('PodTemplateSpec'),
      ),
      completionPolicy: completionPolicy(),
      paused: desc('Stops creating pods. Default false.', bool()),
      failurePolicy: desc(
        'What a failed pod does to the job.',
        obj({
          type: desc(
            'FailFast (the job fails), Continue (the job goes on) or Pause (the job pauses). Default FailFast.',
            str(),
          ),
          restartLimit: desc('How many times a failed pod may be restarted.', int32()),
        }),
      ),
    },
    ['template'],
  );

export const broadcastJob = (): JSONSchema =>
  root(
    broadcastJobSpec(),
    obj({
      conditions: conditions(),
      startTime: startTime(),
      completionTime: completionTime(),
      active: desc('How many pods are running.', int32()),
      succeeded: desc('How many pods succeeded.', int32()),
      failed: desc('How many pods failed.', int32()),
      desired: desc('How many pods should run.', int32()),
      phase: desc('Running, Completed, Failed or Paused.', str()),
    }),
  );

const objectMeta = (): JSONSchema => desc('The labels and annotations of each child.', k8sRef('ObjectMeta'));

export function advancedCronJob(v1beta1: boolean): JSONSchema {
  const template: Record<string, JSONSchema> = {
    jobTemplate: desc(
      'Makes each run a Job (batch/v1) from this template.',
      nestedWorkload(k8sRef('JobTemplateSpec')),
    ),
    broadcastJobTemplate: desc(
      'Makes each run a BroadcastJob from this template.',
      nestedWorkload(
        obj({
          metadata: objectMeta(),
          spec: desc('The BroadcastJob spec.', broadcastJobSpec()),
        }),
      ),
    ),
  };
  if (v1beta1) {
    template.imageListPullJobTemplate = desc(
      'Makes each run an ImageListPullJob from this template.',
      obj({
        metadata: objectMeta(),
        spec: desc(
          'The ImageListPullJob spec; images and completionPolicy are required.',
          imageListPullJobSpec(['completionPolicy', 'images']),
        ),
      }),
    );
  }
  return root(
    obj(
      {
        schedule: desc('When to run, in cron syntax, e.g. "*/5 * * * *". Required.', str()),
        timeZone: desc("The IANA time zone the schedule is read in. Default the controller's zone.", str()),
        startingDeadlineSeconds: desc(
          'A run that could not start within this many seconds of its time is skipped.',
          int64(),
        ),
        concurrencyPolicy: desc(
          'When a run falls due while the last one is still active: Allow (run both), Forbid (skip the new run) or Replace (replace the old run). Default Allow (Replace with an imageListPullJobTemplate).',
          enumOf(['Allow', 'Forbid', 'Replace']),
        ),
        paused: desc('Stops starting runs. Default false.', bool()),
        successfulJobsHistoryLimit: desc('How many finished successful runs are kept. Default 3.', int32()),
        failedJobsHistoryLimit: desc('How many failed runs are kept. Default 1.', int32()),
        template: desc('What each run creates: exactly one of the templates.', obj(template)),
      },
      ['schedule', 'template'],
    ),
    obj({
      type: desc('The kind each run creates: Job, BroadcastJob or ImageListPullJob.', str()),
      active: desc('The runs still active.', arr(objectReference())),
      lastScheduleTime: desc('The time of the latest run that still exists.', time()),
    }),
  );
}
