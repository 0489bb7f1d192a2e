// The workload descriptors read through a tiny in-memory ObjectReader over deep-frozen objects:
// the registry's list and lookups, each descriptor's input building (the same answer as calling the
// controller's reconcile with a hand-built input), its enqueue mapping, read set and admission hooks.
import type { CloneSet, KubeObject } from '@kruise-ts/api';
import { cloneSetDescriptor, reconcileCloneSet } from '@kruise-ts/cloneset';
import { driverOf, NODE, POD, type ReconcileEnv } from '@kruise-ts/core';
import { daemonSetDescriptor } from '@kruise-ts/daemonset';
import { sidecarSetDescriptor } from '@kruise-ts/sidecarset';
import { statefulSetDescriptor } from '@kruise-ts/statefulset';
import { unitedDeploymentDescriptor } from '@kruise-ts/uniteddeployment';
import { describe, expect, it } from 'vitest';
import { allDescriptors, descriptorForKind, descriptorNamed, workloadDescriptors } from '../src/index';
import { deepFreeze, memoryReader } from './memoryReader';

const NOW = '2024-01-01T00:00:00Z';
const ENV: ReconcileEnv = deepFreeze({
  featureGates: {},
  seed: 7,
  kruiseNamespace: 'kruise-system',
  scalingExcludePreparingDelete: false,
});

const labels = { app: 'web' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } };

function cloneSet(replicas = 2): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'default', uid: 'cs-uid', generation: 1 },
    spec: { replicas, selector: { matchLabels: labels }, template },
  } as CloneSet;
}

function pod(name: string, owner?: { kind: string; apiVersion: string; name: string; uid: string }) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `${name}-uid`,
      labels,
      ...(owner ? { ownerReferences: [{ ...owner, controller: true }] } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'nginx:1' }] },
  };
}

const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `${name}-uid` } });

describe('the registry', () => {
  it('lists the five workload controllers once each, by their operator.md §3.5 names', () => {
    expect(workloadDescriptors.map((d) => d.name)).toEqual([
      'cloneset-controller',
      'statefulset-controller',
      'daemonset-controller',
      'uniteddeployment-controller',
      'sidecarset-controller',
    ]);
    expect(Object.isFrozen(workloadDescriptors)).toBe(true);
  });

  it('finds a descriptor by API group and kind, any version of the group', () => {
    expect(descriptorForKind('apps.kruise.io/v1alpha1', 'StatefulSet')).toBe(statefulSetDescriptor);
    expect(descriptorForKind('apps.kruise.io/v1beta1', 'StatefulSet')).toBe(statefulSetDescriptor);
    expect(descriptorForKind('apps/v1', 'StatefulSet')).toBeUndefined();
    expect(descriptorForKind('apps.kruise.io/v1alpha1', 'CloneSet')).toBe(cloneSetDescriptor);
    expect(descriptorForKind('apps/v1', 'DaemonSet')).toBeUndefined();
  });

  it('finds a descriptor by its name or its --controllers word', () => {
    expect(descriptorNamed('daemonset')).toBe(daemonSetDescriptor);
    expect(descriptorNamed('sidecarset-controller')).toBe(sidecarSetDescriptor);
    expect(descriptorNamed('deployment')).toBeUndefined();
  });
});

describe('CloneSet descriptor', () => {
  const cs = cloneSet();
  const owner = { apiVersion: cs.apiVersion, kind: 'CloneSet', name: 'web', uid: 'cs-uid' };
  const objects = [cs, pod('web-a', owner), pod('other'), node('n1')];

  it('reconciles the owned pods and every node: the same result as a hand-built input', () => {
    const reader = memoryReader(objects);
    const viaDescriptor = cloneSetDescriptor.reconcile(cs, reader, NOW, undefined, ENV);
    const direct = reconcileCloneSet(
      {
        cloneSet: cs,
        pods: [pod('web-a', owner)] as never,
        revisions: [],
        pvcs: [],
        nodes: [node('n1')] as never,
        now: NOW,
      },
      { featureGates: {}, seed: 7, scalingExcludePreparingDelete: false },
    );
    expect(viaDescriptor).toEqual(direct);
    expect(viaDescriptor.actions.filter((a) => a.verb === 'create' && a.object.kind === 'Pod')).toHaveLength(
      1,
    );
  });

  it('gives the same answer with the cache it creates as without one', () => {
    const reader = memoryReader(objects);
    const cache = cloneSetDescriptor.createCache?.();
    expect(cache).toBeDefined();
    expect(cloneSetDescriptor.reconcile(cs, reader, NOW, undefined, ENV, cache)).toEqual(
      cloneSetDescriptor.reconcile(cs, reader, NOW, undefined, ENV),
    );
  });

  it('reads the CloneSet and what it owns, not the namespace’s other pods', () => {
    const names = cloneSetDescriptor.readSet(cs, memoryReader(objects)).map((o) => o.metadata?.name);
    expect(names).toEqual(['web', 'web-a']);
  });

  it('defaults without touching the frozen input, and validates with the namespace’s pods', () => {
    const env = {
      operation: 'CREATE' as const,
      featureGates: {},
      reader: memoryReader([]),
      now: NOW,
      kruiseNamespace: 'kruise-system',
    };
    const input = deepFreeze(cloneSet());
    const out = cloneSetDescriptor.admission?.default?.(input, env);
    expect(out).not.toBe(input);
    expect(out?.spec.updateStrategy?.type).toBe('ReCreate');
    expect(cloneSetDescriptor.admission?.validate?.(out as CloneSet, env)).toEqual([]);
    const bad = deepFreeze({ ...cloneSet(), spec: { ...cloneSet().spec, replicas: -1 } }) as CloneSet;
    const errors = cloneSetDescriptor.admission?.validate?.(bad, env) ?? [];
    expect(errors.map((e) => e.field)).toContain('spec.replicas');
  });
});

describe('enqueue mappings', () => {
  const ds = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid' },
    spec: { selector: { matchLabels: labels }, template },
  };

  it('DaemonSet: a node change concerns every DaemonSet; a pod change only its owner (the shells’ default)', () => {
    const reader = memoryReader([ds, node('n1')]);
    expect(daemonSetDescriptor.enqueueFor?.(node('n2') as KubeObject, reader)).toEqual([ds]);
    expect(daemonSetDescriptor.enqueueFor?.(pod('p') as KubeObject, reader)).toEqual([]);
  });

  it('UnitedDeployment: a pod change concerns the UnitedDeployment owning its workload', () => {
    const ud = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: { name: 'ud', namespace: 'default', uid: 'ud-uid' },
      spec: { selector: { matchLabels: labels }, template: {} },
    };
    const subset = {
      ...cloneSet(),
      metadata: {
        name: 'ud-a',
        namespace: 'default',
        uid: 'sub-uid',
        ownerReferences: [
          {
            apiVersion: ud.apiVersion,
            kind: 'UnitedDeployment',
            name: 'ud',
            uid: 'ud-uid',
            controller: true,
          },
        ],
      },
    };
    const p = pod('ud-a-x', {
      apiVersion: subset.apiVersion,
      kind: 'CloneSet',
      name: 'ud-a',
      uid: 'sub-uid',
    });
    const reader = memoryReader([ud, subset, p]);
    expect(unitedDeploymentDescriptor.enqueueFor?.(p as KubeObject, reader)).toEqual([ud]);
    expect(unitedDeploymentDescriptor.enqueueFor?.(pod('lonely') as KubeObject, reader)).toEqual([]);
    expect(unitedDeploymentDescriptor.enqueueFor?.(node('n1') as KubeObject, reader)).toEqual([]);
  });

  it('SidecarSet: a pod change concerns the SidecarSets in its injected list (SS-5.9)', () => {
    const ss = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'log', uid: 'ss-uid' },
      spec: { selector: { matchLabels: labels }, containers: [{ name: 'log', image: 'busybox' }] },
    };
    const injected = {
      ...pod('p'),
      metadata: { ...pod('p').metadata, annotations: { 'kruise.io/sidecarset-injected-list': 'log' } },
      spec: { containers: [...pod('p').spec.containers, { name: 'log', image: 'busybox' }] },
    };
    const reader = memoryReader([ss]);
    expect(sidecarSetDescriptor.enqueueFor?.(injected as KubeObject, reader)).toEqual([ss]);
    expect(sidecarSetDescriptor.enqueueFor?.(pod('plain') as KubeObject, reader)).toEqual([]);
    expect(sidecarSetDescriptor.enqueueFor?.(injected as KubeObject, memoryReader([]))).toEqual([]);
  });
});

describe('SidecarSet admission', () => {
  const ss = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log', uid: 'ss-uid' },
    spec: { selector: { matchLabels: labels }, containers: [{ name: 'log', image: 'busybox' }] },
  };
  const envWith = (objects: object[], operation: 'CREATE' | 'UPDATE' = 'CREATE') => ({
    operation,
    featureGates: {},
    reader: memoryReader(objects),
    now: NOW,
    kruiseNamespace: 'kruise-system',
  });

  it('injects the matching SidecarSets’ containers into a pod at CREATE, leaving the frozen pod as it was', () => {
    const input = deepFreeze(pod('p'));
    const defaulted = sidecarSetDescriptor.admission?.default?.(deepFreeze(ss) as never, envWith([]));
    const r = sidecarSetDescriptor.admission?.mutatePod?.(input as never, envWith([defaulted as object]));
    expect(r?.errors).toEqual([]);
    expect(r?.pod.spec?.containers.map((c) => c.name)).toEqual(['log', 'app']);
    expect(input.spec.containers).toHaveLength(1);
  });

  it('returns the pod itself when nothing can be injected or on UPDATE', () => {
    const input = deepFreeze(pod('p'));
    expect(sidecarSetDescriptor.admission?.mutatePod?.(input as never, envWith([]))?.pod).toBe(input);
    expect(sidecarSetDescriptor.admission?.mutatePod?.(input as never, envWith([ss], 'UPDATE'))?.pod).toBe(
      input,
    );
  });
});

describe('every descriptor', () => {
  const objects: Record<string, KubeObject> = {
    'cloneset-controller': cloneSet() as KubeObject,
    'statefulset-controller': {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default', uid: 'sts-uid', generation: 1 },
      spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: labels }, template },
    },
    'daemonset-controller': {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid', generation: 1 },
      spec: { selector: { matchLabels: labels }, template },
    },
    'uniteddeployment-controller': {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: { name: 'ud', namespace: 'default', uid: 'ud-uid', generation: 1 },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          cloneSetTemplate: { metadata: { labels }, spec: { selector: { matchLabels: labels }, template } },
        },
        topology: { subsets: [{ name: 'a' }] },
      },
    },
    'sidecarset-controller': {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'log', uid: 'ss-uid', generation: 1 },
      spec: { selector: { matchLabels: labels }, containers: [{ name: 'log', image: 'busybox' }] },
    },
  };

  for (const d of workloadDescriptors) {
    it(`${d.name}: reconciles its defaulted object from frozen inputs, deterministically`, () => {
      const env = {
        operation: 'CREATE' as const,
        featureGates: {},
        reader: memoryReader([]),
        now: NOW,
        kruiseNamespace: 'kruise-system',
      };
      // The registry holds each descriptor with its types hidden: core's driver runs it on KubeObjects.
      const driver = driverOf(d);
      const obj = deepFreeze(driver.admission?.default?.(objects[d.name], env) ?? objects[d.name]);
      expect(driver.admission?.validate?.(obj, env)).toEqual([]);
      const reader = memoryReader([obj, node('n1'), pod('stray')]);
      const first = (driver.makeReconcile?.() ?? driver.reconcile)(obj, reader, NOW, undefined, ENV);
      expect(first.errors).toEqual([]);
      expect(first.actions.length).toBeGreaterThan(0);
      expect(driver.reconcile(obj, reader, NOW, undefined, ENV)).toEqual(first);
      expect(driver.readSet(obj, reader)[0]).toBe(obj);
      expect(d.secondary.map((r) => r.kind)).toContain(POD.kind);
    });
  }

  for (const d of allDescriptors) {
    it(`${d.name}: an object without metadata gets field errors or no work, never a throw`, () => {
      const driver = driverOf(d);
      const bare = deepFreeze({
        apiVersion: d.primary.apiVersion,
        kind: d.primary.kind,
      }) as unknown as KubeObject;
      const reader = memoryReader([node('n1'), pod('stray')]);
      const r = driver.reconcile(bare, reader, NOW, undefined, ENV);
      expect(r.errors.length > 0 || r.actions.length === 0).toBe(true);
      expect(() => driver.readSet(bare, reader)).not.toThrow();
      expect(() => driver.enqueueFor?.(bare, reader)).not.toThrow();
      const env = {
        operation: 'CREATE' as const,
        featureGates: {},
        reader,
        now: NOW,
        kruiseNamespace: 'kruise-system',
      };
      expect(() => driver.admission?.default?.(bare, env)).not.toThrow();
      expect(() => driver.admission?.validate?.(bare, env)).not.toThrow();
    });
  }

  it('the DaemonSet reads every node', () => {
    expect(daemonSetDescriptor.secondary).toContain(NODE);
  });
});
