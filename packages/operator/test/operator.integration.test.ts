// Integration tests against `kruise-ts serve --controllers none` (the simulator's Kubernetes API,
// its kubelet model still running pods): the operator alone reconciles, and the server calls the
// operator's webhooks over HTTPS.
import { describe, expect, it } from 'vitest';
import { api, CS_PATH, isReady, podsOf, sampleCloneSet, useCluster, waitFor } from './helpers/cluster';

const cluster = useCluster();

async function readyCount(base: string, name: string): Promise<number> {
  const cs = await api(base, 'GET', `${CS_PATH}/${name}`);
  return cs.body?.status?.readyReplicas ?? 0;
}

describe('operator against kruise-ts serve --controllers none', () => {
  it("the seed's CloneSet reaches 5 ready pods through the operator", async () => {
    const server = await cluster.start();
    const op = await cluster.operator();
    expect((await api(server.url, 'POST', CS_PATH, sampleCloneSet())).status).toBe(201);
    await waitFor(async () => (await readyCount(server.url, 'sample')) === 5, 30_000, '5 ready');
    const pods = await podsOf(server.url, 'sample');
    expect(pods).toHaveLength(5);
    expect(pods.every(isReady)).toBe(true);
    expect(op.isLeader()).toBe(true);
  });

  it('an image change rolls in place, honouring partition and maxUnavailable', async () => {
    const server = await cluster.start();
    const base = server.url;
    await cluster.operator();
    await api(
      base,
      'POST',
      CS_PATH,
      sampleCloneSet('web', {
        updateStrategy: { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 },
      }),
    );
    await waitFor(async () => (await readyCount(base, 'web')) === 5, 30_000, '5 ready');
    const before = new Map((await podsOf(base, 'web')).map((p) => [p.metadata.name, p.metadata.uid]));
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    expect((await api(base, 'PATCH', `${CS_PATH}/web`, patch, 'application/merge-patch+json')).status).toBe(
      200,
    );
    let maxUnavailable = 0;
    const images = async () => {
      const pods = await podsOf(base, 'web');
      maxUnavailable = Math.max(maxUnavailable, pods.filter((p) => !isReady(p)).length);
      return pods;
    };
    // partition 2: exactly 3 of 5 pods move to the new image
    await waitFor(
      async () => {
        const pods = await images();
        const updated = pods.filter((p) => p.spec.containers[0].image === 'nginx:1.27' && isReady(p));
        return updated.length === 3 && pods.length === 5;
      },
      40_000,
      '3 updated',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await images()).filter((p) => p.spec.containers[0].image === 'nginx:1.27')).toHaveLength(3);
    await api(
      base,
      'PATCH',
      `${CS_PATH}/web`,
      { spec: { updateStrategy: { partition: 0 } } },
      'application/merge-patch+json',
    );
    await waitFor(
      async () =>
        (await images()).filter((p) => p.spec.containers[0].image === 'nginx:1.27' && isReady(p)).length ===
        5,
      40_000,
      'all updated',
    );
    // in place: the same pods (names and uids), never more than maxUnavailable = 1 down at once
    const after = new Map((await podsOf(base, 'web')).map((p) => [p.metadata.name, p.metadata.uid]));
    expect(after).toEqual(before);
    expect(maxUnavailable).toBeLessThanOrEqual(1);
  });

  it('a SidecarSet is injected through the operator webhook, called by the server over HTTPS', async () => {
    const server = await cluster.start();
    const base = server.url;
    const op = await cluster.operator();
    const ss = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'logger' },
      spec: {
        selector: { matchLabels: { app: 'withsidecar' } },
        containers: [{ name: 'log-agent', image: 'busybox:1.36' }],
      },
    };
    expect((await api(base, 'POST', '/apis/apps.kruise.io/v1alpha1/sidecarsets', ss)).status).toBe(201);
    await waitFor(
      async () => op.cache.list({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' }).length === 1,
      5000,
      'cache',
    );
    await api(base, 'POST', CS_PATH, sampleCloneSet('withsidecar'));
    const pods = await waitFor(
      async () => {
        const p = await podsOf(base, 'withsidecar');
        return p.length === 5 ? p : undefined;
      },
      30_000,
      'pods',
    );
    for (const p of pods)
      expect(p.spec.containers.map((c: { name: string }) => c.name)).toContain('log-agent');
    const m = await op.metrics.webhookRequests.get();
    expect(m.values.some((v) => v.labels.path === '/mutate-pod' && v.value >= 5)).toBe(true);
  });

  it('with the ResourcesDeletionProtection gate on, a namespace labelled Always cannot be deleted (M1)', async () => {
    const server = await cluster.start();
    const base = server.url;
    await cluster.operator('replica-a', {
      featureGates: { ResourcesDeletionProtection: true },
    });
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'keep-me', labels: { 'policy.kruise.io/delete-protection': 'Always' } },
    };
    expect((await api(base, 'POST', '/api/v1/namespaces', ns)).status).toBe(201);
    const del = await api(base, 'DELETE', '/api/v1/namespaces/keep-me');
    expect(del.status).toBe(403);
    expect(del.body.message).toContain(
      'admission webhook "vnamespace.kb.io" denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always',
    );
    expect((await api(base, 'GET', '/api/v1/namespaces/keep-me')).status).toBe(200);
    // an unlabelled namespace is not protected
    await api(base, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'scratch' },
    });
    expect((await api(base, 'DELETE', '/api/v1/namespaces/scratch')).status).toBeLessThan(300);
  });
});
