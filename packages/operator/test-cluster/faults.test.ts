// Faults on a real control plane of this file's own (the shared one is never broken): kube-apiserver
// killed and restarted mid-rollout (every watch breaks, and resuming from the old
// resourceVersion meets a new watch cache: 410 Gone and a relist), etcd compacted to its head, and
// the operator's webhook server down with failurePolicy Fail and then Ignore. The rollout converges
// with no pod lost and none created twice.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane } from '../../../scripts/real-cluster/controlPlane.mjs';
import type { RunningOperator } from '../src/index';
import { startOperator } from '../test/helpers/cluster';
import { rememberServer } from '../test/helpers/serverAccess';
import { isReady, podsOf, realCluster } from './helpers/harness';
import { type PodDriver, registerNodes, startPodDriver } from './helpers/podDriver';
import { prepareCluster } from './helpers/prepare';
import { api, waitFor } from './helpers/rest';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const shared = realCluster('faults on a real kube-apiserver');
if (shared) {
  let cp: Awaited<ReturnType<typeof startControlPlane>>;
  let operatorKubeconfig = '';
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-real-faults-'));
    cp = await startControlPlane({ dir });
    rememberServer(cp.url, { token: cp.token, caCert: cp.caCert });
    operatorKubeconfig = await prepareCluster(
      { url: cp.url, token: cp.token, caCert: cp.caCert },
      cp.kubeconfigPath,
      dir,
    );
  });
  afterAll(async () => {
    await cp?.stop();
  });

  const cloneSet = (name: string, image: string) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image }] } },
    },
  });

  describe('faults on a real control plane', () => {
    it('an in-place rollout converges through a kube-apiserver crash and restart and an etcd compaction', async () => {
      const base = cp.url;
      await registerNodes(base, [{ name: 'node-1' }, { name: 'node-2' }]);
      const driver: PodDriver = startPodDriver(base);
      const op: RunningOperator = await startOperator(operatorKubeconfig, 'replica-a');
      try {
        const csPath = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
        expect((await api(base, 'POST', csPath, cloneSet('faulty', 'nginx:alpine'))).status).toBe(201);
        await waitFor(
          async () => (await podsOf(base, 'default', 'faulty')).filter(isReady).length === 5,
          60_000,
          '5 ready',
        );
        const before = new Map(
          (await podsOf(base, 'default', 'faulty')).map((p) => [p.metadata.name, p.metadata.uid]),
        );
        const patch = {
          spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
        };
        expect(
          (await api(base, 'PATCH', `${csPath}/faulty`, patch, 'application/merge-patch+json')).status,
        ).toBe(200);
        await sleep(300);
        await cp.restartApiServer(1500); // a crash mid-rollout: connections reset, then refused
        const revision = await cp.compactEtcd();
        expect(revision).toBeGreaterThan(0);
        let maxPods = 0;
        await waitFor(
          async () => {
            const pods = await podsOf(base, 'default', 'faulty');
            maxPods = Math.max(maxPods, pods.length);
            return (
              pods.length === 5 &&
              pods.every((p) => p.spec.containers[0].image === 'nginx:1.27' && isReady(p))
            );
          },
          120_000,
          'rollout converged',
        );
        await waitFor(
          async () => (await api(base, 'GET', `${csPath}/faulty`)).body.status?.updatedReadyReplicas === 5,
          60_000,
          'status',
        );
        const after = new Map(
          (await podsOf(base, 'default', 'faulty')).map((p) => [p.metadata.name, p.metadata.uid]),
        );
        expect(after).toEqual(before); // no pod lost, none recreated
        expect(maxPods).toBeLessThanOrEqual(5);
        // every informer relisted after its watch broke
        const stats = op.cache.all().map((i) => i.stats);
        expect(stats.reduce((s, x) => s + x.watches, 0)).toBeGreaterThan(stats.length);
      } finally {
        await op.stop();
        await driver.stop();
      }
    });

    it('webhook server down: failurePolicy Fail refuses pods, Ignore admits them uninjected', async () => {
      const base = cp.url;
      const pod = (name: string) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name },
        spec: { containers: [{ name: 'c', image: 'nginx:alpine' }] },
      });
      // no operator runs now: the configurations point at the last one's stopped server
      const refused = await api(base, 'POST', '/api/v1/namespaces/default/pods', pod('while-down'));
      expect(refused.status).toBe(500);
      expect(refused.body.message).toMatch(
        /^Internal error occurred: failed calling webhook "mpod\.kb\.io": /,
      );
      const cfgPath =
        '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/kruise-mutating-webhook-configuration';
      const cfg = (await api(base, 'GET', cfgPath)).body;
      const i = cfg.webhooks.findIndex((w: { name: string }) => w.name === 'mpod.kb.io');
      expect(i).toBeGreaterThanOrEqual(0);
      const jsonPatch = [{ op: 'replace', path: `/webhooks/${i}/failurePolicy`, value: 'Ignore' }];
      expect((await api(base, 'PATCH', cfgPath, jsonPatch, 'application/json-patch+json')).status).toBe(200);
      // kube-apiserver picks up a changed webhook configuration a moment after the update
      const admitted = await waitFor(
        async () => {
          const r = await api(base, 'POST', '/api/v1/namespaces/default/pods', pod('while-ignored'));
          return r.status === 500 ? undefined : r;
        },
        20_000,
        'the Ignore policy to take effect',
      );
      expect(admitted.status).toBe(201);
      expect(admitted.body.spec.containers.map((c: { name: string }) => c.name)).toEqual(['c']);
    });
  });
}
