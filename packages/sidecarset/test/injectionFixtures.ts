// Shared fixtures of the injection tests: the pod and SidecarSets of docs/reference/sidecarset.md §4.8.
import type { SidecarSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { injectSidecars } from '../src/index';
import { pod, sidecarSet } from './helpers';

export const NOW = '2025-03-04T05:06:07Z';
export const T = NOW;

export function webPod(): Pod {
  return pod(
    'web-0',
    'shop',
    { app: 'web' },
    {
      initContainers: [{ name: 'init-db', image: 'busybox' }],
      containers: [
        {
          name: 'app-a',
          image: 'app:1',
          env: [{ name: 'DB_URL', value: 'db:5432' }],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
        { name: 'app-b', image: 'app:1' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
  );
}

export const aLogging = sidecarSet(
  'a-logging',
  {
    selector: { matchLabels: { app: 'web' } },
    containers: [
      {
        name: 'filebeat',
        image: 'filebeat:8',
        podInjectPolicy: 'AfterAppContainer',
        shareVolumePolicy: { type: 'enabled' },
        transferEnv: [{ sourceContainerName: 'app-a', envName: 'DB_URL' }],
        volumeMounts: [{ name: 'log-config', mountPath: '/etc/filebeat' }],
      },
    ],
    volumes: [
      { name: 'log-config', configMap: { name: 'filebeat' } },
      { name: 'unused', emptyDir: {} },
    ],
    imagePullSecrets: [{ name: 'registry' }],
  },
  {
    annotations: { 'kruise.io/sidecarset-hash': 'h-log', 'kruise.io/sidecarset-hash-without-image': 'n-log' },
  },
);

export const bMesh = sidecarSet(
  'b-mesh',
  {
    selector: { matchLabels: { app: 'web' } },
    initContainers: [{ name: 'mesh-init', image: 'mesh-init:1', podInjectPolicy: 'AfterAppContainer' }],
    containers: [{ name: 'envoy', image: 'envoy:1', podInjectPolicy: 'BeforeAppContainer' }],
  },
  {
    annotations: {
      'kruise.io/sidecarset-hash': 'h-mesh',
      'kruise.io/sidecarset-hash-without-image': 'n-mesh',
    },
  },
);

export const zAudit = sidecarSet(
  'z-audit',
  {
    namespace: 'shop',
    selector: { matchLabels: { app: 'web' } },
    containers: [
      { name: 'auditor', image: 'auditor:1', podInjectPolicy: 'BeforeAppContainer' },
      {
        name: 'proxy',
        image: 'proxy:3',
        podInjectPolicy: 'BeforeAppContainer',
        upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'proxy:empty' },
      },
    ],
  },
  { annotations: { 'kruise.io/sidecarset-hash': 'h-audit' } },
);

export const inject = (
  p: Pod,
  sets: SidecarSet[],
  extra: Partial<Parameters<typeof injectSidecars>[2]> = {},
) => injectSidecars(deepFreeze(p), deepFreeze(sets), { now: NOW, ...extra });
