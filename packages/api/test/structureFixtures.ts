// Valid objects of every kind checkStructure knows, with many optional fields set so that a
// one-field mutation has many places to land: pod templates with probes, resources, volumes,
// affinity and tolerations; PVC templates; statuses; observed pods, nodes and revisions.

const podSpec = () => ({
  containers: [
    {
      name: 'main',
      image: 'nginx:1.25',
      imagePullPolicy: 'IfNotPresent',
      command: ['nginx'],
      args: ['-g', 'daemon off;'],
      ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
      env: [
        { name: 'A', value: 'x' },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
      resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: 1, memory: '128Mi' } },
      readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5, failureThreshold: 3 },
      livenessProbe: { tcpSocket: { port: 'http' }, initialDelaySeconds: 10 },
      lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
      securityContext: { runAsNonRoot: true, runAsUser: 1000 },
    },
  ],
  initContainers: [{ name: 'init', image: 'busybox', command: ['true'] }],
  volumes: [
    { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
    { name: 'config', configMap: { name: 'cfg', defaultMode: 420 } },
  ],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
  affinity: {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 100,
          podAffinityTerm: {
            labelSelector: { matchLabels: { app: 'web' } },
            topologyKey: 'kubernetes.io/hostname',
          },
        },
      ],
    },
  },
  terminationGracePeriodSeconds: 30,
  restartPolicy: 'Always',
  dnsPolicy: 'ClusterFirst',
});

const template = () => ({
  metadata: { labels: { app: 'web' }, annotations: { 'example.com/note': 'x' }, creationTimestamp: null },
  spec: podSpec(),
});

const pvc = () => ({
  metadata: { name: 'data' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '1Gi' } },
    storageClassName: 'standard',
  },
});

const meta = (name: string) => ({
  name,
  namespace: 'default',
  uid: '00000000-0000-0000-0000-000000000001',
  generation: 2,
  labels: { app: 'web', 'app.kubernetes.io/name': 'web' },
  annotations: { 'kruise-ts.io/note': 'hello' },
  creationTimestamp: '2024-05-01T10:00:00Z',
});

const condition = { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' };

export const cloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: meta('web'),
  spec: {
    replicas: 3,
    selector: {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }],
    },
    template: template(),
    volumeClaimTemplates: [pvc()],
    scaleStrategy: { podsToDelete: ['web-a'], maxUnavailable: 1, disablePVCReuse: false },
    updateStrategy: {
      type: 'InPlaceIfPossible',
      partition: '20%',
      maxUnavailable: 2,
      maxSurge: '10%',
      paused: false,
      priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { tier: 'a' } } }] },
      scatterStrategy: [{ key: 'zone', value: 'a' }],
      inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
    },
    revisionHistoryLimit: 10,
    minReadySeconds: 5,
    lifecycle: { preDelete: { finalizersHandler: ['example.com/hook'], markPodNotReady: true } },
  },
  status: {
    observedGeneration: 2,
    replicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    updatedReplicas: 3,
    updatedReadyReplicas: 3,
    updateRevision: 'web-abc',
    currentRevision: 'web-abc',
    collisionCount: 0,
    conditions: [condition],
    labelSelector: 'app=web',
  },
};

export const statefulSet = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: meta('db'),
  spec: {
    replicas: 3,
    serviceName: 'db',
    selector: { matchLabels: { app: 'web' } },
    template: template(),
    volumeClaimTemplates: [pvc()],
    podManagementPolicy: 'Parallel',
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 1,
        maxUnavailable: '50%',
        podUpdatePolicy: 'InPlaceIfPossible',
        minReadySeconds: 3,
      },
    },
    reserveOrdinals: [1, '3-4'],
    scaleStrategy: { maxUnavailable: 1 },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
    ordinals: { start: 0 },
    revisionHistoryLimit: 5,
  },
  status: { replicas: 3, readyReplicas: 2, availableReplicas: 2, currentReplicas: 3, updatedReplicas: 3 },
};

export const daemonSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'DaemonSet',
  metadata: meta('agent'),
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: template(),
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0, partition: 0 },
    },
    burstReplicas: '10%',
    minReadySeconds: 0,
  },
};

export const sidecarSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'log', labels: { team: 'ops' } },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    namespace: 'default',
    containers: [
      {
        name: 'log',
        image: 'fluentbit:2',
        podInjectPolicy: 'BeforeAppContainer',
        upgradeStrategy: { upgradeType: 'ColdUpgrade' },
        shareVolumePolicy: { type: 'enabled' },
        transferEnv: [{ sourceContainerName: 'main', envName: 'A' }],
        volumeMounts: [{ name: 'logs', mountPath: '/logs' }],
      },
    ],
    volumes: [{ name: 'logs', emptyDir: {} }],
    updateStrategy: { type: 'RollingUpdate', partition: 0, maxUnavailable: '20%' },
    injectionStrategy: { revision: { policy: 'Always' } },
    imagePullSecrets: [{ name: 'reg' }],
  },
};

export const unitedDeployment = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'UnitedDeployment',
  metadata: meta('ud'),
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'web' } },
    template: {
      cloneSetTemplate: {
        metadata: { labels: { app: 'web' } },
        spec: { selector: { matchLabels: { app: 'web' } }, template: template() },
      },
    },
    topology: {
      subsets: [
        {
          name: 'a',
          nodeSelectorTerm: {
            matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }],
          },
          tolerations: [{ key: 'zone', operator: 'Exists', effect: 'NoSchedule' }],
          replicas: '50%',
          minReplicas: 1,
        },
        { name: 'b', maxReplicas: 4 },
      ],
    },
    updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 1 } } },
    revisionHistoryLimit: 10,
  },
};

export const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    ...meta('web-abcde'),
    ownerReferences: [
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'u1', controller: true },
    ],
  },
  spec: { ...podSpec(), nodeName: 'node-1' },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:05Z' }],
    podIP: '10.0.0.5',
    startTime: '2024-05-01T10:00:00Z',
    containerStatuses: [
      {
        name: 'main',
        image: 'nginx:1.25',
        imageID: 'docker.io/library/nginx@sha256:abc',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: '2024-05-01T10:00:03Z' } },
      },
    ],
  },
};

export const node = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'a' } },
  spec: { taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }], unschedulable: false },
  status: {
    capacity: { cpu: '4', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '3800m', memory: '15Gi', pods: 110 },
    conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-05-01T10:00:00Z' }],
    addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
  },
};

export const namespace = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } },
  status: { phase: 'Active' },
};

export const controllerRevision = {
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name: 'web-abc', namespace: 'default', labels: { 'controller.kubernetes.io/hash': 'abc' } },
  revision: 3,
  data: { spec: { template: { $patch: 'replace' } } },
};

/** Every fixture with the kind checkStructure is asked to check it as. */
export const validObjects: readonly { kind: string; object: Record<string, unknown> }[] = [
  { kind: 'CloneSet', object: cloneSet },
  { kind: 'StatefulSet', object: statefulSet },
  { kind: 'DaemonSet', object: daemonSet },
  { kind: 'SidecarSet', object: sidecarSet },
  { kind: 'UnitedDeployment', object: unitedDeployment },
  { kind: 'Pod', object: pod },
  { kind: 'Node', object: node },
  { kind: 'Namespace', object: namespace },
  { kind: 'ControllerRevision', object: controllerRevision },
];
