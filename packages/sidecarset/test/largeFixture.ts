// Large inputs for the bounded-work tests: 10 000 app pods and 5 SidecarSets that all match them
// (injection), and a SidecarSet rolling a new sidecar image over 10 000 injected pods
// (controller), plus a single-pass baseline over the same pods.
import type { SidecarSet } from '@kruise-ts/api';
import { extend, fnv32a } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1';
import { defaultSidecarSetThenHash, injectSidecars } from '../src/index';
import type { ReconcileSidecarSetInput } from '../src/types';

const NOW = '2025-01-01T00:00:00Z';

/** Five SidecarSets selecting `app=web`: Before/After sidecars, an init container, hot upgrade, shared volumes. */
export function fiveSidecarSets(image = 'v1'): SidecarSet[] {
  const mk = (name: string, spec: Partial<SidecarSet['spec']>) =>
    defaultSidecarSetThenHash({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name, resourceVersion: '1', generation: 1 },
      spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    });
  return [
    mk('envoy', {
      initContainers: [{ name: 'mesh-init', image: `mesh-init:${image}` }],
      containers: [{ name: 'envoy', image: `envoy:${image}`, podInjectPolicy: 'BeforeAppContainer' }],
    }),
    mk('logs', {
      containers: [
        {
          name: 'filebeat',
          image: `filebeat:${image}`,
          podInjectPolicy: 'AfterAppContainer',
          shareVolumePolicy: { type: 'enabled' },
          volumeMounts: [{ name: 'filebeat-conf', mountPath: '/etc/filebeat' }],
        },
      ],
      volumes: [{ name: 'filebeat-conf', configMap: { name: 'filebeat' } }],
      imagePullSecrets: [{ name: 'registry' }],
    }),
    mk('metrics', {
      containers: [
        {
          name: 'exporter',
          image: `exporter:${image}`,
          podInjectPolicy: 'AfterAppContainer',
          transferEnv: [{ sourceContainerName: 'app', envNames: ['POD_NAME', 'REGION'] }],
        },
      ],
    }),
    mk('proxy', {
      containers: [
        {
          name: 'proxy',
          image: `proxy:${image}`,
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'proxy:empty' },
        },
      ],
    }),
    mk('dns', {
      containers: [{ name: 'dns', image: `dns:${image}` }],
      patchPodMetadata: [{ patchPolicy: 'Retain', annotations: { 'dns.example.com/enabled': 'true' } }],
    }),
  ];
}

/** `n` app pods (`app=web`) with two containers, env and a volume. */
export function appPods(n: number): Pod[] {
  const pods: Pod[] = [];
  for (let i = 0; i < n; i++) {
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `web-${i}`,
        namespace: 'default',
        uid: `uid-${i}`,
        labels: { app: 'web', shard: String(i % 7) },
      },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'app:1',
            env: [
              { name: 'POD_NAME', value: `web-${i}` },
              { name: 'REGION', value: 'eu' },
            ],
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
          { name: 'helper', image: 'helper:1' },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
      },
    });
  }
  return pods;
}

function imageId(image: string): string {
  return `docker-pullable://${image.replace(/[:@].*$/, '')}@sha256:${fnv32a(image).toString(16)}`;
}

/** A reconcile input: `n` pods injected with one SidecarSet at v1, the SidecarSet now at v2. */
export function reconcileInput(n: number): ReconcileSidecarSetInput {
  const v1 = fiveSidecarSets('v1')[1];
  const v2 = fiveSidecarSets('v2')[1];
  const pods = appPods(n).map((p) => {
    const injected = injectSidecars(p, [v1], { now: NOW }).pod;
    // extend, not a spread: a spread gaining `status` gives each pod a hidden class of its own and
    // makes every read of the 10k pods megamorphic (core's objects.ts), which no real pod list has.
    return extend(injected, {
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: injected.spec!.containers.map((c) => ({
          name: c.name,
          image: c.image ?? '',
          imageID: imageId(c.image ?? ''),
          ready: true,
          restartCount: 0,
        })),
      },
    }) as Pod;
  });
  return {
    sidecarSet: {
      ...v2,
      spec: { ...v2.spec, updateStrategy: { ...v2.spec.updateStrategy, maxUnavailable: '10%' } },
    },
    pods,
    now: NOW,
  };
}

/**
 * The single-pass baseline: one loop over the pods that reads what the controller must read at
 * least once per pod (labels, the injected list, the pod's hash entry, readiness) and counts.
 */
export function singlePassBaseline(input: ReconcileSidecarSetInput): number {
  const name = input.sidecarSet.metadata.name ?? '';
  let n = 0;
  for (const p of input.pods) {
    const ann = p.metadata?.annotations ?? {};
    if (p.metadata?.labels?.app !== 'web') continue;
    if (!(ann['kruise.io/sidecarset-injected-list'] ?? '').split(',').includes(name)) continue;
    const hash = JSON.parse(ann['kruise.io/sidecarset-hash'] ?? '{}')[name]?.hash;
    if (hash && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) n++;
  }
  return n;
}
