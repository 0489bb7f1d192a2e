// The simulator's apps/v1 approximations: ReplicaSet, Deployment and the native StatefulSet
// conversion, pure functions first, then end to end in a simulation.
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileDeployment, resolveFenceposts } from '../src/kinds/deployment';
import { fromAdvancedResult, toAdvancedStatefulSet } from '../src/kinds/nativeStatefulSet';
import { deleteFirst, reconcileReplicaSet } from '../src/kinds/replicaset';
import { runScenario } from '../src/scenario/run';

const NOW = '2024-01-01T00:01:00Z';
const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
};
const rs = (
  name: string,
  replicas: number,
  available: number,
  created = '2024-01-01T00:00:00Z',
  tmpl = template,
): ReplicaSet => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: created },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: tmpl },
  status: { replicas, availableReplicas: available },
});
const readyPod = (name: string, since: string, extra: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name, namespace: 'default', creationTimestamp: since, ...extra },
  spec: { nodeName: 'n1', containers: [] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] },
});

describe('ReplicaSet (approximation)', () => {
  it('creates the missing pods from its template with a controller reference', () => {
    const r = reconcileReplicaSet(deepFreeze(rs('web-a', 3, 0)), [], NOW);
    const creates = r.actions.filter((a) => a.verb === 'create');
    expect(creates).toHaveLength(3);
    const pod = creates[0]!.verb === 'create' ? creates[0]!.object : undefined;
    expect(pod?.metadata.generateName).toBe('web-a-');
    expect(pod?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'ReplicaSet',
      uid: 'uid-web-a',
      controller: true,
    });
  });

  it('deletes the surplus in Kubernetes order: unscheduled, then not ready, then ready for less time', () => {
    const unscheduled: Pod = {
      metadata: { name: 'p-unsched' },
      spec: { containers: [] },
      status: { phase: 'Pending' },
    };
    const old = readyPod('p-old', '2024-01-01T00:00:00Z');
    const young = readyPod('p-young', '2024-01-01T00:00:30Z');
    const notReady: Pod = { ...old, metadata: { name: 'p-notready' }, status: { phase: 'Running' } };
    expect([old, young, notReady, unscheduled].sort(deleteFirst).map((p) => p.metadata?.name)).toEqual([
      'p-unsched',
      'p-notready',
      'p-young',
      'p-old',
    ]);
    const r = reconcileReplicaSet(deepFreeze(rs('web-a', 1, 0)), deepFreeze([old, young]), NOW);
    expect(
      r.actions.filter((a) => a.verb === 'delete').map((a) => (a.verb === 'delete' ? a.target.name : '')),
    ).toEqual(['p-young']);
  });

  it('counts available pods with minReadySeconds and requeues until the next one becomes available', () => {
    const set = {
      ...rs('web-a', 2, 0),
      spec: { ...rs('web-a', 2, 0).spec, minReadySeconds: 30 },
    } as ReplicaSet;
    // ready since 00:00:00 (60 s > 30 s: available) and since 00:00:50 (10 s: not yet; 20 s left).
    const r = reconcileReplicaSet(
      deepFreeze(set),
      deepFreeze([readyPod('a', '2024-01-01T00:00:00Z'), readyPod('b', '2024-01-01T00:00:50Z')]),
      NOW,
    );
    expect(r.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 1 });
    expect(r.requeueAfterSeconds).toBe(21);
  });
});

describe('Deployment (approximation)', () => {
  const deployment = (
    replicas: number,
    surge: number | string,
    unavail: number | string,
    tmpl = template,
  ): Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'd1', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: tmpl,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavail } },
    },
  });
  const v2 = { ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } };

  it('fenceposts: 10 replicas with 25 %/25 % → surge 3 (rounded up), unavailable 2 (rounded down); 0/0 → unavailable 1', () => {
    expect(resolveFenceposts(deployment(10, '25%', '25%'))).toEqual({ maxSurge: 3, maxUnavailable: 2 });
    expect(resolveFenceposts(deployment(10, 0, 0))).toEqual({ maxSurge: 0, maxUnavailable: 1 });
  });

  it('a first reconcile creates the ReplicaSet at full size with revision 1 and the pod-template-hash', () => {
    const r = reconcileDeployment(
      deepFreeze({ deployment: deployment(4, 1, 0), replicaSets: [], pods: [], now: NOW }),
    );
    const c = r.actions.find((a) => a.verb === 'create');
    const created = c?.verb === 'create' ? (c.object as unknown as ReplicaSet) : undefined;
    expect(created?.spec?.replicas).toBe(4);
    const hash = created?.metadata?.labels?.['pod-template-hash'];
    expect(created?.metadata?.name).toBe(`web-${hash}`);
    expect(created?.spec?.selector?.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(created?.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
  });

  it('rolling update, replicas 4, maxSurge 1, maxUnavailable 0: new RS 1, then old 3 once it is available', () => {
    const d = deployment(4, 1, 0, v2);
    const r1 = reconcileDeployment(
      deepFreeze({ deployment: d, replicaSets: [rs('web-old', 4, 4)], pods: [], now: NOW }),
    );
    const created = r1.actions.find((a) => a.verb === 'create');
    expect(created?.verb === 'create' ? (created.object as unknown as ReplicaSet).spec?.replicas : -1).toBe(
      1,
    );
    expect(r1.actions.some((a) => a.verb === 'patch')).toBe(false);
    // The new RS (1 available) exists: 5 pods, min available 4 → old RS scales to 3.
    const newRs = rs('web-new', 1, 1, '2024-01-01T00:00:30Z', v2);
    const r2 = reconcileDeployment(
      deepFreeze({ deployment: d, replicaSets: [rs('web-old', 4, 4), newRs], pods: [], now: NOW }),
    );
    const patch = r2.actions.find((a) => a.verb === 'patch');
    expect(patch).toMatchObject({ target: { name: 'web-old' }, patch: { spec: { replicas: 3 } } });
  });

  it('runs end to end in the simulator: rollout with surge 1 / unavailable 0 and scale-down', () => {
    const r = runScenario({
      apiVersion: 'sim.kruise-ts.io/v1alpha1',
      kind: 'Scenario',
      metadata: { name: 'deploy' },
      spec: {
        seed: 3,
        invariants: [],
        steps: [
          {
            waitFor: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
              condition: 'Available',
              timeout: '2m',
            },
          },
          {
            setImage: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
              container: 'c',
              image: 'nginx:2',
            },
          },
          {
            waitFor: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
              fields: { 'status.updatedReplicas': 4, 'status.replicas': 4, 'status.availableReplicas': 4 },
              timeout: '3m',
            },
          },
          { scale: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', replicas: 2 } },
          {
            waitFor: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
              condition: 'Available',
              timeout: '2m',
            },
          },
        ],
        manifests: [deployment(4, 1, 0)],
      },
    });
    expect(r.status).toBe('passed');
    const sim = r.sim!;
    const live = sim.list('Pod').filter((p) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(2);
    expect(live.every((p) => (p.spec as Pod['spec'])?.containers[0]?.image === 'nginx:2')).toBe(true);
    // maxUnavailable 0: available pods never drop below 4 during the rollout (sampled after each step).
    expect(sim.list('ReplicaSet')).toHaveLength(2);
  });
});

describe('apps/v1 StatefulSet (Advanced StatefulSet restricted to native fields)', () => {
  const native = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default', uid: 's1', generation: 1 },
    spec: {
      replicas: 3,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'c', image: 'busybox:1' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      reserveOrdinals: [1],
    },
  };

  it('converts to the ASTS shape: native fields only, partition kept, ReCreate with maxUnavailable 1', () => {
    const a = toAdvancedStatefulSet(deepFreeze(native) as never);
    expect(a.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect((a.spec as unknown as Record<string, unknown>).reserveOrdinals).toBeUndefined();
    expect(a.spec?.updateStrategy?.rollingUpdate).toMatchObject({
      partition: 1,
      maxUnavailable: 1,
      podUpdatePolicy: 'ReCreate',
    });
  });

  it('converts the result back: owner references, targets and status name the apps/v1 object', () => {
    const back = fromAdvancedResult(
      {
        actions: [
          {
            verb: 'create',
            reason: 'ScaleUp',
            object: {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: {
                name: 'db-0',
                ownerReferences: [
                  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db', uid: 's1' },
                ],
              },
            },
          },
          {
            verb: 'updateStatus',
            reason: 'UpdateStatus',
            target: {
              apiVersion: 'apps.kruise.io/v1beta1',
              kind: 'StatefulSet',
              namespace: 'default',
              name: 'db',
            },
            status: { replicas: 1, updatedAvailableReplicas: 1, labelSelector: 'app=db' },
          },
        ],
        status: { replicas: 1, labelSelector: 'app=db' },
        errors: [],
      },
      'db',
    );
    const [create, status] = back.actions;
    expect(create?.verb === 'create' && create.object.metadata.ownerReferences?.[0]?.apiVersion).toBe(
      'apps/v1',
    );
    expect(status).toMatchObject({ target: { apiVersion: 'apps/v1' }, status: { replicas: 1 } });
    expect(status?.verb === 'updateStatus' && status.status).toEqual({ replicas: 1 });
    expect(back.status).toEqual({ replicas: 1 });
  });

  it('runs end to end: OrderedReady creation, then a recreate rollout from the highest ordinal', () => {
    const r = runScenario({
      apiVersion: 'sim.kruise-ts.io/v1alpha1',
      kind: 'Scenario',
      metadata: { name: 'sts' },
      spec: {
        seed: 1,
        steps: [
          {
            waitFor: {
              apiVersion: 'apps/v1',
              kind: 'StatefulSet',
              name: 'db',
              condition: 'Ready',
              timeout: '2m',
            },
          },
          {
            setImage: {
              apiVersion: 'apps/v1',
              kind: 'StatefulSet',
              name: 'db',
              container: 'c',
              image: 'busybox:2',
            },
          },
          {
            waitFor: {
              apiVersion: 'apps/v1',
              kind: 'StatefulSet',
              name: 'db',
              fields: { 'status.updatedReplicas': 3, 'status.readyReplicas': 3 },
              timeout: '3m',
            },
          },
        ],
        manifests: [
          { ...native, spec: { ...native.spec, updateStrategy: undefined, reserveOrdinals: undefined } },
        ],
      },
    });
    expect(r.status).toBe('passed');
    const log = r.sim!.log.toJSONLines().split('\n');
    const deletes = log.filter((l) => l.includes('"RecreateUpdate"')).map((l) => JSON.parse(l).object);
    expect(deletes).toEqual(['Pod/default/db-2', 'Pod/default/db-1', 'Pod/default/db-0']);
    const pod = r.sim!.list('Pod').find((p) => p.metadata.name === 'db-0');
    expect(pod?.metadata.ownerReferences?.[0]).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      name: 'db',
    });
  });
});
