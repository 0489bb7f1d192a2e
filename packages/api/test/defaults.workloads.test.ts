// setDefaults* of the workload kinds, one `it` per defaulting rule of the specs, with frozen inputs.
import { describe, expect, it } from 'vitest';
import {
  type CloneSet,
  type DaemonSet,
  type SidecarSet,
  type StatefulSet,
  setDefaultsCloneSet,
  setDefaultsDaemonSet,
  setDefaultsSidecarSet,
  setDefaultsStatefulSet,
  setDefaultsUnitedDeployment,
  type UnitedDeployment,
} from '../src/index';
import { containerDefaults, meta, podDefaults, selector, template } from './fixtures';
import { deepFreeze } from './helpers';

const cloneSet = (spec: Record<string, unknown> = {}): CloneSet =>
  deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: meta,
    spec: { selector, template: template(), ...spec },
  }) as CloneSet;

describe('setDefaultsCloneSet (docs/reference/cloneset.md §2.1)', () => {
  it('§2.1 webhook defaults: replicas 1, ReCreate, partition 0, maxUnavailable "20%", maxSurge 0, history 10', () => {
    const input = cloneSet();
    const out = setDefaultsCloneSet(input);
    expect(out).not.toBe(input);
    expect(out.spec.replicas).toBe(1);
    expect(out.spec.updateStrategy).toEqual({
      type: 'ReCreate',
      partition: 0,
      maxUnavailable: '20%',
      maxSurge: 0,
    });
    expect(out.spec.revisionHistoryLimit).toBe(10);
    expect(input.spec.replicas).toBeUndefined();
  });

  it('§2.1 explicit values are kept (replicas 0, partition "30%", maxUnavailable 2)', () => {
    const out = setDefaultsCloneSet(
      cloneSet({
        replicas: 0,
        updateStrategy: { partition: '30%', maxUnavailable: 2 },
        revisionHistoryLimit: 3,
      }),
    );
    expect(out.spec.replicas).toBe(0);
    expect(out.spec.updateStrategy).toMatchObject({ partition: '30%', maxUnavailable: 2, maxSurge: 0 });
    expect(out.spec.revisionHistoryLimit).toBe(3);
  });

  it('§2.1 inPlaceUpdateStrategy {} only for the in-place types', () => {
    expect(setDefaultsCloneSet(cloneSet()).spec.updateStrategy?.inPlaceUpdateStrategy).toBeUndefined();
    for (const type of ['InPlaceIfPossible', 'InPlaceOnly'] as const) {
      const out = setDefaultsCloneSet(cloneSet({ updateStrategy: { type } }));
      expect(out.spec.updateStrategy?.inPlaceUpdateStrategy).toEqual({});
    }
    const keep = setDefaultsCloneSet(
      cloneSet({
        updateStrategy: { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } },
      }),
    );
    expect(keep.spec.updateStrategy?.inPlaceUpdateStrategy).toEqual({ gracePeriodSeconds: 10 });
  });

  it('§2.1 pod template defaults are injected on create', () => {
    const out = setDefaultsCloneSet(cloneSet());
    expect(out.spec.template.spec).toMatchObject(podDefaults);
    expect(out.spec.template.spec!.containers[0]).toEqual({
      name: 'main',
      image: 'nginx:1.25',
      ...containerDefaults,
    });
  });

  it('§2.1 volumeClaimTemplates get the PVC defaults (volumeMode Filesystem)', () => {
    const out = setDefaultsCloneSet(
      cloneSet({
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      }),
    );
    expect(out.spec.volumeClaimTemplates![0].spec!.volumeMode).toBe('Filesystem');
  });

  it('§15 TemplateNoDefaults: no template defaults, the other defaults still apply', () => {
    const out = setDefaultsCloneSet(cloneSet(), { featureGates: { TemplateNoDefaults: true } });
    expect(out.spec.template).toEqual(template());
    expect(out.spec.replicas).toBe(1);
  });

  it('§2.1 on update, template defaults only when the template changed', () => {
    const old = cloneSet();
    const same = setDefaultsCloneSet(cloneSet({ replicas: 3 }), { old });
    expect(same.spec.template).toEqual(template());
    const changedTemplate = { ...template(), spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } };
    const changed = setDefaultsCloneSet(cloneSet({ template: changedTemplate }), { old });
    expect(changed.spec.template.spec).toMatchObject(podDefaults);
  });
});

const sts = (apiVersion: string, spec: Record<string, unknown> = {}): StatefulSet =>
  deepFreeze({
    apiVersion,
    kind: 'StatefulSet',
    metadata: meta,
    spec: { selector, template: template(), ...spec },
  }) as StatefulSet;

describe('setDefaultsStatefulSet (docs/reference/statefulset.md §2.1)', () => {
  it('§2.1 v1beta1 defaults: OrderedReady, RollingUpdate {partition 0, maxUnavailable 1, ReCreate, minReadySeconds 0}', () => {
    const out = setDefaultsStatefulSet(sts('apps.kruise.io/v1beta1'));
    expect(out.spec.podManagementPolicy).toBe('OrderedReady');
    expect(out.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 },
    });
    expect(out.spec.replicas).toBe(1);
    expect(out.spec.revisionHistoryLimit).toBe(10);
    expect(out.spec.template.spec).toMatchObject(podDefaults);
  });

  it('§2.1 persistentVolumeClaimRetentionPolicy Retain/Retain with StatefulSetAutoDeletePVC (default on)', () => {
    const on = setDefaultsStatefulSet(sts('apps.kruise.io/v1beta1'));
    expect(on.spec.persistentVolumeClaimRetentionPolicy).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    const off = setDefaultsStatefulSet(sts('apps.kruise.io/v1beta1'), {
      featureGates: { StatefulSetAutoDeletePVC: false },
    });
    expect(off.spec.persistentVolumeClaimRetentionPolicy).toBeUndefined();
    const partial = setDefaultsStatefulSet(
      sts('apps.kruise.io/v1beta1', { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } }),
    );
    expect(partial.spec.persistentVolumeClaimRetentionPolicy).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Delete',
    });
  });

  it('§2.1 OnDelete: no rollingUpdate is created', () => {
    const out = setDefaultsStatefulSet(
      sts('apps.kruise.io/v1beta1', { updateStrategy: { type: 'OnDelete' } }),
    );
    expect(out.spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('§2.1 volumeClaimUpdateStrategy OnDelete only with StatefulSetAutoResizePVCGate', () => {
    expect(
      setDefaultsStatefulSet(sts('apps.kruise.io/v1beta1')).spec.volumeClaimUpdateStrategy,
    ).toBeUndefined();
    const on = setDefaultsStatefulSet(sts('apps.kruise.io/v1beta1'), {
      featureGates: { StatefulSetAutoResizePVCGate: true },
    });
    expect(on.spec.volumeClaimUpdateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('§2.3 v1alpha1 gets no v1beta1-only fields', () => {
    const out = setDefaultsStatefulSet(sts('apps.kruise.io/v1alpha1'), {
      featureGates: { StatefulSetAutoResizePVCGate: true },
    });
    expect(out.spec.persistentVolumeClaimRetentionPolicy).toBeUndefined();
    expect(out.spec.volumeClaimUpdateStrategy).toBeUndefined();
    expect(out.spec.updateStrategy?.rollingUpdate?.maxUnavailable).toBe(1);
  });
});

const ads = (spec: Record<string, unknown> = {}): DaemonSet =>
  deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    metadata: meta,
    spec: { selector, template: template(), ...spec },
  }) as DaemonSet;

describe('setDefaultsDaemonSet (docs/reference/daemonset.md §1.2)', () => {
  it('§1.2 items 1-4: burstReplicas 250, RollingUpdate Standard, maxUnavailable 1, maxSurge 0, history 10', () => {
    const out = setDefaultsDaemonSet(ads());
    expect(out.spec.burstReplicas).toBe(250);
    expect(out.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 },
    });
    expect(out.spec.revisionHistoryLimit).toBe(10);
  });

  it('§1.2 item 3: Surging becomes Standard with maxSurge 1 and maxUnavailable 0', () => {
    const out = setDefaultsDaemonSet(
      ads({ updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging' } } }),
    );
    expect(out.spec.updateStrategy?.rollingUpdate).toEqual({
      rollingUpdateType: 'Standard',
      maxSurge: 1,
      maxUnavailable: 0,
    });
  });

  it('§1.2 item 3: one of maxUnavailable/maxSurge set leaves the other unset', () => {
    const out = setDefaultsDaemonSet(ads({ updateStrategy: { rollingUpdate: { maxSurge: '10%' } } }));
    expect(out.spec.updateStrategy?.rollingUpdate).toEqual({
      rollingUpdateType: 'Standard',
      maxSurge: '10%',
    });
  });

  it('§1.2 InPlaceIfPossible is kept; OnDelete gets no rollingUpdate', () => {
    const ip = setDefaultsDaemonSet(
      ads({ updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible' } } }),
    );
    expect(ip.spec.updateStrategy?.rollingUpdate?.rollingUpdateType).toBe('InPlaceIfPossible');
    const od = setDefaultsDaemonSet(ads({ updateStrategy: { type: 'OnDelete' } }));
    expect(od.spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });
});

const ss = (spec: Record<string, unknown>): SidecarSet =>
  deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 's' },
    spec,
  }) as SidecarSet;

describe('setDefaultsSidecarSet (docs/reference/sidecarset.md §1.2)', () => {
  it('SS-1.2.1 updateStrategy RollingUpdate, maxUnavailable 1, partition 0', () => {
    expect(setDefaultsSidecarSet(ss({ selector })).spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      maxUnavailable: 1,
      partition: 0,
    });
  });

  it('SS-1.2.2/SS-1.2.3/SS-2.5 the defaulted dns-f container of TestMutatingSidecarSetFn', () => {
    const out = setDefaultsSidecarSet(ss({ selector, containers: [{ name: 'dns-f', image: 'dns:1.0' }] }));
    expect(out.spec.containers![0]).toEqual({
      name: 'dns-f',
      image: 'dns:1.0',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
      podInjectPolicy: 'BeforeAppContainer',
      upgradeStrategy: { upgradeType: 'ColdUpgrade' },
      shareVolumePolicy: { type: 'disabled' },
    });
  });

  it('SS-1.2.2 init containers default to AfterAppContainer; explicit policies kept', () => {
    const out = setDefaultsSidecarSet(
      ss({
        initContainers: [{ name: 'init', image: 'busybox' }],
        containers: [
          {
            name: 'c',
            image: 'x',
            podInjectPolicy: 'AfterAppContainer',
            upgradeStrategy: { upgradeType: 'HotUpgrade' },
          },
        ],
      }),
    );
    expect(out.spec.initContainers![0].podInjectPolicy).toBe('AfterAppContainer');
    expect(out.spec.initContainers![0].imagePullPolicy).toBe('Always');
    expect(out.spec.containers![0].podInjectPolicy).toBe('AfterAppContainer');
    expect(out.spec.containers![0].upgradeStrategy).toEqual({ upgradeType: 'HotUpgrade' });
  });

  it('SS-1.2.3 ports TCP, env and transferEnv fieldRef apiVersion v1, probe defaults', () => {
    const out = setDefaultsSidecarSet(
      ss({
        containers: [
          {
            name: 'c',
            image: 'x:latest',
            ports: [{ containerPort: 80 }],
            env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            transferEnv: [
              { sourceContainerNameFrom: { fieldRef: { fieldPath: 'metadata.labels[x]' } }, envName: 'E' },
            ],
            livenessProbe: { httpGet: { port: 80 } },
          },
        ],
      }),
    );
    const c = out.spec.containers![0];
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.ports![0].protocol).toBe('TCP');
    expect(c.env![0].valueFrom!.fieldRef!.apiVersion).toBe('v1');
    expect(c.transferEnv![0].sourceContainerNameFrom!.fieldRef!.apiVersion).toBe('v1');
    expect(c.livenessProbe).toEqual({
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
  });

  it('SS-1.2.4 volumes: no source → emptyDir, secret defaultMode 420, hostPath type ""', () => {
    const out = setDefaultsSidecarSet(
      ss({
        volumes: [
          { name: 'a' },
          { name: 'b', secret: { secretName: 's' } },
          { name: 'c', hostPath: { path: '/x' } },
        ],
      }),
    );
    expect(out.spec.volumes).toEqual([
      { name: 'a', emptyDir: {} },
      { name: 'b', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'c', hostPath: { path: '/x', type: '' } },
    ]);
  });

  it('SS-1.2.5/SS-1.2.6/SS-1.2.7 history 10, patchPolicy Retain, revision policy Always', () => {
    const out = setDefaultsSidecarSet(
      ss({
        patchPodMetadata: [{ annotations: { a: 'b' } }],
        injectionStrategy: { revision: { customVersion: 'v1' } },
      }),
    );
    expect(out.spec.revisionHistoryLimit).toBe(10);
    expect(out.spec.patchPodMetadata![0].patchPolicy).toBe('Retain');
    expect(out.spec.injectionStrategy!.revision!.policy).toBe('Always');
    expect(setDefaultsSidecarSet(ss({})).spec.injectionStrategy).toBeUndefined();
  });
});

const ud = (spec: Record<string, unknown>): UnitedDeployment =>
  deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: meta,
    spec,
  }) as unknown as UnitedDeployment;

describe('setDefaultsUnitedDeployment (docs/reference/uniteddeployment.md §1.3)', () => {
  it('§1.3 items 1-2: history 10, Manual with manualUpdate {}; replicas not defaulted', () => {
    const out = setDefaultsUnitedDeployment(ud({ selector }));
    expect(out.spec.revisionHistoryLimit).toBe(10);
    expect(out.spec.updateStrategy).toEqual({ type: 'Manual', manualUpdate: {} });
    expect(out.spec.replicas).toBeUndefined();
  });

  it('§1.3 item 3: pod-template defaults inside the workload template', () => {
    const out = setDefaultsUnitedDeployment(
      ud({
        selector,
        template: {
          cloneSetTemplate: {
            metadata: { labels: { app: 'demo' } },
            spec: { selector, template: template() },
          },
        },
      }),
    );
    expect(out.spec.template!.cloneSetTemplate!.spec.template.spec).toMatchObject(podDefaults);
    const off = setDefaultsUnitedDeployment(
      ud({ selector, template: { deploymentTemplate: { spec: { selector, template: template() } } } }),
      { featureGates: { TemplateNoDefaults: true } },
    );
    expect(off.spec.template!.deploymentTemplate!.spec.template).toEqual(template());
  });

  it('§1.3 item 4: min/max without replicas → unset minReplicas become 0', () => {
    const out = setDefaultsUnitedDeployment(
      ud({ selector, replicas: 4, topology: { subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b' }] } }),
    );
    expect(out.spec.topology!.subsets).toEqual([
      { name: 'a', maxReplicas: 2, minReplicas: 0 },
      { name: 'b', minReplicas: 0 },
    ]);
  });

  it('§1.3 item 4: not when some subset sets replicas', () => {
    const out = setDefaultsUnitedDeployment(
      ud({
        selector,
        topology: {
          subsets: [
            { name: 'a', maxReplicas: 2 },
            { name: 'b', replicas: 1 },
          ],
        },
      }),
    );
    expect(out.spec.topology!.subsets).toEqual([
      { name: 'a', maxReplicas: 2 },
      { name: 'b', replicas: 1 },
    ]);
  });
});
