// fast-check arbitraries: app pods and SidecarSets for the injection properties, and matched
// pod populations for the controller properties.
import type { PodInjectPolicyType, SidecarContainer, SidecarSet } from '@kruise-ts/api';
import fc from 'fast-check';
import type { Container, Pod, Volume } from 'kubernetes-types/core/v1';

const APP_NAMES = ['app', 'web', 'db', 'cache', 'worker'];
const SIDECAR_NAMES = ['envoy', 'filebeat', 'agent', 'proxy', 'dns', 'audit', 'metrics', 'init-a', 'init-b'];
const VOLUME_NAMES = ['data', 'logs', 'conf', 'certs', 'tmp'];

/** An app pod in namespace `default` labelled `app=web`, with unique container and volume names. */
export const appPod: fc.Arbitrary<Pod> = fc
  .record({
    containers: fc.uniqueArray(fc.constantFrom(...APP_NAMES), { minLength: 1, maxLength: 4 }),
    inits: fc.uniqueArray(fc.constantFrom('init-x', 'init-y'), { maxLength: 2 }),
    volumes: fc.uniqueArray(fc.constantFrom(...VOLUME_NAMES), { maxLength: 3 }),
    mountSeed: fc.nat(),
  })
  .map(({ containers, inits, volumes, mountSeed }) => {
    const cs: Container[] = containers.map((name, i) => ({
      name,
      image: `${name}:1`,
      env: [{ name: 'SHARED', value: name }],
      volumeMounts:
        volumes.length > 0
          ? [{ name: volumes[(mountSeed + i) % volumes.length], mountPath: `/${name}` }]
          : [],
    }));
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', labels: { app: 'web' } },
      spec: {
        initContainers: inits.map((name) => ({ name, image: 'busybox' })),
        containers: cs,
        volumes: volumes.map((name): Volume => ({ name, emptyDir: {} })),
      },
    } as Pod;
  });

const policy = fc.constantFrom<PodInjectPolicyType | undefined>(
  'BeforeAppContainer',
  'AfterAppContainer',
  undefined,
);

/**
 * 1–4 SidecarSets selecting `app=web` whose sidecar names are unique across all of them (what
 * validation V11 guarantees), with random policies, hot upgrade, shared volumes, transferEnv from
 * app containers and own volumes. `allowAppNames` lets a sidecar be named like an app container.
 */
export function sidecarSets(allowAppNames = false): fc.Arbitrary<SidecarSet[]> {
  const pool = allowAppNames ? [...SIDECAR_NAMES, ...APP_NAMES] : SIDECAR_NAMES;
  return fc
    .uniqueArray(
      fc.record({
        name: fc.constantFrom(...pool),
        init: fc.boolean(),
        policy,
        hot: fc.boolean(),
        share: fc.boolean(),
        transfer: fc.boolean(),
        ownVolume: fc.option(fc.constantFrom(...VOLUME_NAMES, 'sidecar-vol'), { nil: undefined }),
        set: fc.integer({ min: 0, max: 3 }),
      }),
      { minLength: 1, maxLength: 7, selector: (c) => c.name },
    )
    .map((cs) => {
      const sets: SidecarSet[] = [];
      for (let s = 0; s < 4; s++) {
        const mine = cs.filter((c) => c.set === s);
        if (mine.length === 0) continue;
        const toSidecar = (c: (typeof cs)[number]): SidecarContainer => ({
          name: c.name,
          image: `${c.name}:1`,
          ...(c.policy ? { podInjectPolicy: c.policy } : {}),
          ...(c.hot && !c.init
            ? { upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } }
            : {}),
          ...(c.share ? { shareVolumePolicy: { type: 'enabled' } } : {}),
          ...(c.transfer ? { transferEnv: [{ sourceContainerName: 'app', envName: 'SHARED' }] } : {}),
          ...(c.ownVolume ? { volumeMounts: [{ name: c.ownVolume, mountPath: `/sc/${c.name}` }] } : {}),
        });
        const volumes = [...new Set(mine.map((c) => c.ownVolume).filter((v): v is string => !!v))].map(
          (name): Volume => ({ name, hostPath: { path: `/${name}` } }),
        );
        sets.push({
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'SidecarSet',
          metadata: { name: `ss-${s}`, annotations: { 'kruise.io/sidecarset-hash': `h${s}` } },
          spec: {
            selector: { matchLabels: { app: 'web' } },
            initContainers: mine.filter((c) => c.init).map(toSidecar),
            containers: mine.filter((c) => !c.init).map(toSidecar),
            volumes,
          },
        });
      }
      return sets;
    });
}
