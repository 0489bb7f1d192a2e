// fast-check arbitraries of partial Kruise objects, for the defaulting properties.
import fc from 'fast-check';

export function opt<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<Partial<T>> {
  return fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Partial<T>>;
}
export const ios = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom('20%', '50%', '1', '0%'));
export const image = fc.constantFrom(
  'nginx',
  'nginx:1.25',
  'nginx:latest',
  'reg:5000/app',
  `a@sha256:${'b'.repeat(64)}`,
  '',
);
export const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'zone'), fc.constantFrom('a', 'b', ''), {
  maxKeys: 2,
});
export const selector = opt({ matchLabels: labels });

export const probe = opt({
  httpGet: fc.record(
    { port: fc.integer({ min: 1, max: 9000 }), path: fc.constantFrom('/', '/healthz') },
    {
      requiredKeys: ['port'],
    },
  ),
  tcpSocket: fc.record({ port: fc.integer({ min: 1, max: 9000 }) }),
  periodSeconds: fc.integer({ min: 1, max: 30 }), // 0 means unset (Go zero)
  failureThreshold: fc.integer({ min: 1, max: 5 }),
});
export const containerFields = {
  name: fc.constantFrom('a', 'b', 'c'),
  image,
  imagePullPolicy: fc.constantFrom('Always', 'Never', 'IfNotPresent'),
  terminationMessagePolicy: fc.constantFrom('File', 'FallbackToLogsOnError'),
  ports: fc.array(
    fc.record(
      { containerPort: fc.integer({ min: 1, max: 9000 }), protocol: fc.constantFrom('TCP', 'UDP') },
      {
        requiredKeys: ['containerPort'],
      },
    ),
    { maxLength: 2 },
  ),
  env: fc.array(
    fc.oneof(
      fc.record({ name: fc.constant('A'), value: fc.constant('x') }),
      fc.record({
        name: fc.constant('B'),
        valueFrom: fc.record({
          fieldRef: opt({ fieldPath: fc.constant('metadata.name'), apiVersion: fc.constant('v1') }),
        }),
      }),
    ),
    { maxLength: 2 },
  ),
  livenessProbe: probe,
  readinessProbe: probe,
  lifecycle: opt({
    preStop: opt({
      httpGet: fc.record({ port: fc.constant(80) }),
      exec: fc.record({ command: fc.constant(['sh']) }),
    }),
  }),
};
export const container = fc.record(containerFields, { requiredKeys: ['name'] });
export const volume = fc.record(
  {
    name: fc.constantFrom('v1', 'v2'),
    secret: opt({ secretName: fc.constant('s'), defaultMode: fc.integer({ min: 0, max: 511 }) }),
    configMap: opt({ name: fc.constant('c') }),
    hostPath: fc.record(
      { path: fc.constant('/x'), type: fc.constantFrom('Directory', '') },
      { requiredKeys: ['path'] },
    ),
    emptyDir: opt({ medium: fc.constant('Memory') }),
  },
  { requiredKeys: ['name'] },
);
export const podSpec = opt({
  containers: fc.array(container, { maxLength: 2 }),
  initContainers: fc.array(container, { maxLength: 1 }),
  volumes: fc.array(volume, { maxLength: 2 }),
  restartPolicy: fc.constantFrom('Always', 'OnFailure', 'Never', ''),
  terminationGracePeriodSeconds: fc.integer({ min: 0, max: 100 }),
  dnsPolicy: fc.constantFrom('ClusterFirst', 'Default'),
  schedulerName: fc.constantFrom('default-scheduler', 'other'),
});
export const template = opt({ metadata: opt({ labels }), spec: podSpec });
export const pvc = opt({
  metadata: opt({ name: fc.constant('data') }),
  spec: opt({ volumeMode: fc.constantFrom('Block', 'Filesystem') }),
});
export const hook = opt({
  labelsHandler: labels,
  finalizersHandler: fc.array(fc.constant('f'), { maxLength: 1 }),
  markPodNotReady: fc.boolean(),
});
export const lifecycle = opt({ preDelete: hook, inPlaceUpdate: hook, preNormal: hook });
export const meta = opt({
  name: fc.constant('x'),
  namespace: fc.constant('default'),
  finalizers: fc.array(fc.constantFrom('a', 'apps.kruise.io/deletion-protection'), { maxLength: 2 }),
});
export const obj = (
  apiVersion: fc.Arbitrary<string>,
  kind: string,
  spec: fc.Arbitrary<unknown>,
  extra = {},
) => fc.record({ apiVersion, kind: fc.constant(kind), metadata: meta, spec, ...extra });
export const v1alpha1 = fc.constant('apps.kruise.io/v1alpha1');
export const jobTemplateFields = {
  pullSecrets: fc.array(fc.constant('s'), { maxLength: 1 }),
  parallelism: ios,
  pullPolicy: opt({
    timeoutSeconds: fc.integer({ min: 0, max: 900 }),
    backoffLimit: fc.integer({ min: 0, max: 5 }),
  }),
  completionPolicy: opt({
    type: fc.constantFrom('Always', 'Never', ''),
    activeDeadlineSeconds: fc.nat(1000),
  }),
  imagePullPolicy: fc.constantFrom('Always', 'IfNotPresent'),
};

export const cloneSet = obj(
  v1alpha1,
  'CloneSet',
  opt({
    replicas: fc.integer({ min: 0, max: 10 }),
    selector,
    template,
    volumeClaimTemplates: fc.array(pvc, { maxLength: 2 }),
    scaleStrategy: opt({ podsToDelete: fc.array(fc.constant('p'), { maxLength: 1 }), maxUnavailable: ios }),
    updateStrategy: opt({
      type: fc.constantFrom('ReCreate', 'InPlaceIfPossible', 'InPlaceOnly', ''),
      partition: ios,
      maxUnavailable: ios,
      maxSurge: ios,
      paused: fc.boolean(),
      inPlaceUpdateStrategy: opt({ gracePeriodSeconds: fc.integer({ min: 0, max: 60 }) }),
    }),
    revisionHistoryLimit: fc.integer({ min: 0, max: 20 }),
    minReadySeconds: fc.integer({ min: 0, max: 20 }),
    lifecycle,
  }),
);
export const statefulSet = obj(
  fc.constantFrom('apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1'),
  'StatefulSet',
  opt({
    replicas: fc.integer({ min: 0, max: 10 }),
    selector,
    template,
    volumeClaimTemplates: fc.array(pvc, { maxLength: 1 }),
    podManagementPolicy: fc.constantFrom('OrderedReady', 'Parallel', ''),
    updateStrategy: opt({
      type: fc.constantFrom('RollingUpdate', 'OnDelete', ''),
      rollingUpdate: opt({
        partition: fc.integer({ min: 0, max: 5 }),
        maxUnavailable: ios,
        podUpdatePolicy: fc.constantFrom('ReCreate', 'InPlaceIfPossible', ''),
        minReadySeconds: fc.integer({ min: 0, max: 300 }),
      }),
    }),
    persistentVolumeClaimRetentionPolicy: opt({
      whenDeleted: fc.constantFrom('Retain', 'Delete'),
      whenScaled: fc.constantFrom('Retain', 'Delete'),
    }),
    volumeClaimUpdateStrategy: opt({ type: fc.constantFrom('OnDelete', 'OnPodRollingUpdate') }),
    revisionHistoryLimit: fc.integer({ min: 0, max: 20 }),
    lifecycle,
  }),
);
export const daemonSet = obj(
  v1alpha1,
  'DaemonSet',
  opt({
    selector,
    template,
    burstReplicas: ios,
    minReadySeconds: fc.nat(10),
    updateStrategy: opt({
      type: fc.constantFrom('RollingUpdate', 'OnDelete', ''),
      rollingUpdate: opt({
        rollingUpdateType: fc.constantFrom('Standard', 'InPlaceIfPossible', 'Surging', ''),
        maxUnavailable: ios,
        maxSurge: ios,
        partition: fc.nat(5),
      }),
    }),
    revisionHistoryLimit: fc.nat(20),
  }),
);
export const sidecarContainer = fc.record(
  {
    ...containerFields,
    podInjectPolicy: fc.constantFrom('BeforeAppContainer', 'AfterAppContainer', ''),
    upgradeStrategy: opt({
      upgradeType: fc.constantFrom('ColdUpgrade', 'HotUpgrade', ''),
      hotUpgradeEmptyImage: fc.constant('empty'),
    }),
    shareVolumePolicy: opt({ type: fc.constantFrom('enabled', 'disabled', '') }),
    transferEnv: fc.array(
      opt({
        envName: fc.constant('E'),
        sourceContainerNameFrom: opt({ fieldRef: opt({ fieldPath: fc.constant('metadata.name') }) }),
      }),
      { maxLength: 1 },
    ),
  },
  { requiredKeys: ['name'] },
);
export const sidecarSet = obj(
  v1alpha1,
  'SidecarSet',
  opt({
    selector,
    containers: fc.array(sidecarContainer, { maxLength: 2 }),
    initContainers: fc.array(sidecarContainer, { maxLength: 1 }),
    volumes: fc.array(volume, { maxLength: 2 }),
    updateStrategy: opt({
      type: fc.constantFrom('RollingUpdate', 'NotUpdate', ''),
      partition: ios,
      maxUnavailable: ios,
    }),
    injectionStrategy: opt({
      paused: fc.boolean(),
      revision: opt({ customVersion: fc.constant('v1'), policy: fc.constantFrom('Always', 'Partial', '') }),
    }),
    patchPodMetadata: fc.array(
      opt({ annotations: labels, patchPolicy: fc.constantFrom('Retain', 'Overwrite', '') }),
      { maxLength: 2 },
    ),
    revisionHistoryLimit: fc.nat(20),
  }),
);
export const workloadTemplate = opt({
  metadata: opt({ labels }),
  spec: opt({ selector, template, volumeClaimTemplates: fc.array(pvc, { maxLength: 1 }) }),
});
export const unitedDeployment = obj(
  v1alpha1,
  'UnitedDeployment',
  opt({
    replicas: fc.nat(10),
    selector,
    template: opt({
      statefulSetTemplate: workloadTemplate,
      advancedStatefulSetTemplate: workloadTemplate,
      cloneSetTemplate: workloadTemplate,
      deploymentTemplate: workloadTemplate,
    }),
    topology: opt({
      subsets: fc.array(
        fc.record(
          { name: fc.constantFrom('a', 'b'), replicas: ios, minReplicas: ios, maxReplicas: ios },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 3 },
      ),
    }),
    updateStrategy: opt({
      type: fc.constantFrom('Manual', ''),
      manualUpdate: opt({ partitions: fc.dictionary(fc.constantFrom('a', 'b'), fc.nat(3)) }),
    }),
    revisionHistoryLimit: fc.nat(20),
  }),
);
export const imagePullJob = obj(
  v1alpha1,
  'ImagePullJob',
  fc.record({ image, ...jobTemplateFields }, { requiredKeys: [] }),
);
export const imageListPullJob = obj(
  fc.constantFrom('apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1'),
  'ImageListPullJob',
  fc.record({ images: fc.array(image, { maxLength: 2 }), ...jobTemplateFields }, { requiredKeys: [] }),
);
export const tagSpec = fc.record(
  {
    tag: fc.constantFrom('v1', 'v2', 'latest', '1.0'),
    createdAt: fc.constant('2023-01-01T00:00:00Z'),
    version: fc.nat(3),
    pullPolicy: opt({
      timeoutSeconds: fc.nat(900),
      backoffLimit: fc.nat(5),
      ttlSecondsAfterFinished: fc.nat(100),
    }),
  },
  { requiredKeys: ['tag'] },
);
export const nodeImage = obj(
  v1alpha1,
  'NodeImage',
  opt({
    images: fc.dictionary(
      fc.constantFrom('nginx', 'redis'),
      fc.record({ tags: fc.array(tagSpec, { maxLength: 3 }) }),
    ),
  }),
  {
    status: opt({
      desired: fc.nat(3),
      imageStatuses: fc.dictionary(
        fc.constantFrom('nginx'),
        fc.record({
          tags: fc.array(
            fc.record({ tag: fc.constantFrom('v1', 'v2'), phase: fc.constantFrom('Pulling', 'Failed') }),
            { maxLength: 2 },
          ),
        }),
      ),
    }),
  },
);
export const crr = obj(
  v1alpha1,
  'ContainerRecreateRequest',
  opt({
    podName: fc.constant('p'),
    containers: fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'zz') }), { maxLength: 2 }),
    strategy: opt({
      failurePolicy: fc.constantFrom('Fail', 'Ignore', ''),
      terminationGracePeriodSeconds: fc.nat(60),
      orderedRecreate: fc.boolean(),
    }),
  }),
);
export const crrPod = fc.record({
  apiVersion: fc.constant('v1'),
  kind: fc.constant('Pod'),
  metadata: fc.record({ name: fc.constant('p'), uid: fc.constantFrom('u1', 'u2') }),
  spec: fc.record({ nodeName: fc.constant('n1'), containers: fc.array(container, { maxLength: 2 }) }),
  status: fc.record({
    containerStatuses: fc.array(
      fc.record({
        name: fc.constantFrom('a', 'b'),
        containerID: fc.constant('containerd://x'),
        restartCount: fc.nat(3),
      }),
      { maxLength: 2 },
    ),
  }),
});
export const broadcastJobSpec = opt({
  template,
  parallelism: ios,
  completionPolicy: opt({ type: fc.constantFrom('Always', 'Never', '') }),
  failurePolicy: opt({ type: fc.constantFrom('FailFast', 'Continue', ''), restartLimit: fc.nat(3) }),
});
export const broadcastJob = obj(
  fc.constantFrom('apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1'),
  'BroadcastJob',
  broadcastJobSpec,
);
export const advancedCronJob = obj(
  fc.constantFrom('apps.kruise.io/v1alpha1', 'apps.kruise.io/v1beta1'),
  'AdvancedCronJob',
  opt({
    schedule: fc.constantFrom('* * * * *', '0 0 * * *'),
    concurrencyPolicy: fc.constantFrom('Allow', 'Forbid', 'Replace', ''),
    paused: fc.boolean(),
    successfulJobsHistoryLimit: fc.nat(5),
    failedJobsHistoryLimit: fc.nat(5),
    template: opt({
      jobTemplate: opt({ spec: opt({ template }) }),
      broadcastJobTemplate: opt({ spec: broadcastJobSpec }),
      imageListPullJobTemplate: opt({
        spec: fc.record(
          { images: fc.array(image, { maxLength: 2 }), ...jobTemplateFields },
          { requiredKeys: [] },
        ),
      }),
    }),
  }),
);

export const gates = opt({
  TemplateNoDefaults: fc.boolean(),
  StatefulSetAutoDeletePVC: fc.boolean(),
  StatefulSetAutoResizePVCGate: fc.boolean(),
});
