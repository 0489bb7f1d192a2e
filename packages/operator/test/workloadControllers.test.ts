// The workload controllers the operator builds from @kruise-ts/registry's descriptors: one per
// descriptor, in §3.5 order among the node-side ones, informer events mapped to work-queue keys
// (the controller owner, plus the descriptor's own mapping; a cluster-scoped primary's key is its
// name), the reconcile fed the runner's Date clock as RFC 3339 text.
import type { KubeObject } from '@kruise-ts/api';
import { reconcileCloneSet } from '@kruise-ts/cloneset';
import { resolveFeatureGates } from '@kruise-ts/core';
import { workloadDescriptors } from '@kruise-ts/registry';
import { describe, expect, it } from 'vitest';
import { allControllers, controllerFor, shortName, workloadControllers } from '../src/controllers/index';
import { review } from '../src/webhook/handlers';
import { env, fakeCache } from './helpers/nodeopsFixtures';

const labels = { app: 'web' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } };
const byName = (name: string) => {
  const c = workloadControllers.find((w) => w.name === name);
  if (!c) throw new Error(name);
  return c;
};

const cloneSet: KubeObject = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default', uid: 'cs-uid', generation: 1 },
  spec: { replicas: 2, selector: { matchLabels: labels }, template },
};
const owned = (
  name: string,
  owner: { apiVersion: string; kind: string; name: string; uid: string },
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    uid: `${name}-uid`,
    labels,
    ownerReferences: [{ ...owner, controller: true }],
  },
  spec: template.spec,
});

describe('workload controllers from descriptors', () => {
  it('one per registry descriptor, placed in §3.5 registration order', () => {
    expect(workloadControllers.map((c) => c.name)).toEqual(workloadDescriptors.map((d) => d.name));
    expect(allControllers.map(shortName)).toEqual([
      'advancedcronjob',
      'cloneset',
      'containerrecreaterequest',
      'daemonset',
      'nodeimage',
      'nodeimage',
      'imagepulljob',
      'sidecarset',
      'statefulset',
      'uniteddeployment',
      'imagelistpulljob',
    ]);
  });

  it('maps a pod to its controller owner of the primary kind, and a node to nothing (CloneSet)', () => {
    const c = byName('cloneset-controller');
    const cache = fakeCache([cloneSet]);
    const p = owned('web-a', {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'CloneSet',
      name: 'web',
      uid: 'cs-uid',
    });
    expect(c.keysFor?.(p, cache)).toEqual(['default/web']);
    expect(c.keysFor?.({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, cache)).toEqual([]);
  });

  it('adds the descriptor’s own mapping: a node change enqueues every DaemonSet', () => {
    const ds = {
      ...cloneSet,
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system', uid: 'ds' },
    };
    const keys = byName('daemonset-controller').keysFor?.(
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
      fakeCache([ds]),
    );
    expect(keys).toEqual(['kube-system/agent']);
  });

  it('keys a cluster-scoped primary by its name alone (SidecarSet)', () => {
    const ss: KubeObject = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'log', uid: 'ss-uid' },
      spec: { selector: { matchLabels: labels }, containers: [{ name: 'log', image: 'busybox' }] },
    };
    const rev = owned('log-rev', {
      apiVersion: ss.apiVersion,
      kind: 'SidecarSet',
      name: 'log',
      uid: 'ss-uid',
    });
    expect(
      byName('sidecarset-controller').keysFor?.(
        { ...rev, metadata: { ...rev.metadata, namespace: 'kruise-system' } },
        fakeCache([ss]),
      ),
    ).toEqual(['log']);
  });

  it('reconciles with the runner’s Date as RFC 3339 text and the flags’ environment', () => {
    const c = controllerFor(workloadDescriptors[0]);
    const p = owned('web-a', {
      apiVersion: cloneSet.apiVersion,
      kind: 'CloneSet',
      name: 'web',
      uid: 'cs-uid',
    });
    const cache = fakeCache([cloneSet, p]);
    const now = new Date('2024-01-01T00:00:00.500Z');
    const got = c.reconcile(cloneSet, cache, now, undefined, { ...env, scalingExcludePreparingDelete: true });
    const want = reconcileCloneSet(
      { cloneSet: cloneSet as never, pods: [p] as never, revisions: [], pvcs: [], nodes: [], now },
      { featureGates: env.featureGates, seed: env.seed, scalingExcludePreparingDelete: true },
    );
    expect(got).toEqual(want);
    expect(c.readSet(cloneSet, cache).map((o) => o.metadata?.name)).toEqual(['web', 'web-a']);
  });
});

describe('workload admission through the descriptors', () => {
  const ctx = {
    cache: fakeCache([]),
    featureGates: resolveFeatureGates({}),
    kruiseNamespace: 'kruise-system',
    now: () => new Date('2024-01-01T00:00:00Z'),
  };
  const call = async (path: string, request: Record<string, unknown>) =>
    (
      (await review(
        path,
        { apiVersion: 'admission.k8s.io/v1', request: { uid: 'u1', ...request } },
        ctx,
      )) as {
        response: { allowed: boolean; status?: { code: number; message: string }; patch?: string };
      }
    ).response;
  const patchOps = (patch?: string) =>
    JSON.parse(Buffer.from(patch ?? 'W10=', 'base64').toString()) as {
      op: string;
      path: string;
      value: unknown;
    }[];

  it('CloneSet: defaults as a JSONPatch, and a negative replicas refused with 422', async () => {
    const mutated = await call('/mutate-apps-kruise-io-v1alpha1-cloneset', {
      operation: 'CREATE',
      object: cloneSet,
    });
    expect(mutated.allowed).toBe(true);
    const spec = patchOps(mutated.patch).find((o) => o.path === '/spec')?.value as {
      updateStrategy?: { type?: string };
    };
    expect(spec.updateStrategy?.type).toBe('ReCreate');
    const bad = { ...cloneSet, spec: { ...(cloneSet.spec as object), replicas: -1 } };
    const refused = await call('/validate-apps-kruise-io-v1alpha1-cloneset', {
      operation: 'CREATE',
      object: bad,
    });
    expect(refused.allowed).toBe(false);
    expect(refused.status?.code).toBe(422);
    expect(refused.status?.message).toContain('spec.replicas');
  });

  it('SidecarSet: the mutating webhook sets the defaults and the hash annotations, as the simulator’s chain does', async () => {
    const ss = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'log' },
      spec: { selector: { matchLabels: labels }, containers: [{ name: 'log', image: 'busybox' }] },
    };
    const r = await call('/mutate-apps-kruise-io-v1alpha1-sidecarset', { operation: 'CREATE', object: ss });
    const metadata = patchOps(r.patch).find((o) => o.path === '/metadata')?.value as {
      annotations?: Record<string, string>;
    };
    expect(Object.keys(metadata.annotations ?? {})).toContain('kruise.io/sidecarset-hash');
  });

  it('/mutate-pod injects through the SidecarSet descriptor, a pod without a namespace in the request’s', async () => {
    const ss: KubeObject = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'log', uid: 'ss-uid' },
      spec: {
        namespace: 'team',
        selector: { matchLabels: labels },
        containers: [{ name: 'log', image: 'busybox' }],
      },
    };
    const withCache = { ...ctx, cache: fakeCache([ss]) };
    const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels }, spec: template.spec };
    const inTeam = (await review(
      '/mutate-pod',
      {
        apiVersion: 'admission.k8s.io/v1',
        request: { uid: 'u2', operation: 'CREATE', namespace: 'team', object: p },
      },
      withCache,
    )) as { response: { patch?: string } };
    const spec = patchOps(inTeam.response.patch).find((o) => o.path === '/spec')?.value as {
      containers: { name: string }[];
    };
    expect(spec.containers.map((c) => c.name).sort()).toEqual(['app', 'log']);
    const elsewhere = (await review(
      '/mutate-pod',
      {
        apiVersion: 'admission.k8s.io/v1',
        request: { uid: 'u3', operation: 'CREATE', namespace: 'other', object: p },
      },
      withCache,
    )) as { response: { allowed: boolean; patch?: string } };
    expect(elsewhere.response).toMatchObject({ allowed: true });
    expect(elsewhere.response.patch).toBeUndefined();
  });

  it('DELETE: a DaemonSet is not a protected workload here, so its deletion is allowed', async () => {
    const r = await call('/validate-apps-kruise-io-v1alpha1-daemonset', {
      operation: 'DELETE',
      oldObject: cloneSet,
    });
    expect(r.allowed).toBe(true);
  });
});
