// CloneSet on a real kube-apiserver: the operator (kruise-manager's RBAC) creates, scales, updates
// in place under partition and maxUnavailable, and deletes the pods named in podsToDelete, with the
// pod driver playing the node side. The same assertions as the serve-based
// test/operator.integration.test.ts.
import { describe, expect, it } from 'vitest';
import { isReady, podsOf, realCluster, useRealTest } from './helpers/harness';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('CloneSet on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;
  const csPath = (ns: string, name = '') =>
    `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/clonesets${name ? `/${name}` : ''}`;
  const cloneSet = (name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
      ...spec,
    },
  });
  const readyReplicas = async (ns: string, name: string) =>
    (await api(base, 'GET', csPath(ns, name))).body?.status?.readyReplicas ?? 0;
  const mergePatch = (path: string, patch: unknown) =>
    api(base, 'PATCH', path, patch, 'application/merge-patch+json');

  describe(`CloneSet against ${rc.version}`, () => {
    it('creates 5 ready pods, scales to 3 and back to 6', async () => {
      const ns = await t.namespace('cs');
      await t.driver();
      const op = await t.operator();
      const created = await api(base, 'POST', csPath(ns), cloneSet('sample'));
      expect(created.status).toBe(201);
      await waitFor(async () => (await readyReplicas(ns, 'sample')) === 5, 60_000, '5 ready');
      expect(op.isLeader()).toBe(true);
      expect((await podsOf(base, ns, 'sample')).every(isReady)).toBe(true);
      expect((await mergePatch(csPath(ns, 'sample'), { spec: { replicas: 3 } })).status).toBe(200);
      await waitFor(async () => (await podsOf(base, ns, 'sample')).length === 3, 60_000, '3 pods');
      expect((await mergePatch(csPath(ns, 'sample'), { spec: { replicas: 6 } })).status).toBe(200);
      await waitFor(async () => (await readyReplicas(ns, 'sample')) === 6, 60_000, '6 ready');
      const pods = await podsOf(base, ns, 'sample');
      expect(new Set(pods.map((p) => p.metadata.name)).size).toBe(6);
      for (const p of pods) expect(p.metadata.ownerReferences?.[0]?.kind).toBe('CloneSet');
    });

    it('an image change rolls in place, honouring partition and maxUnavailable', async () => {
      const ns = await t.namespace('cs');
      await t.driver();
      await t.operator();
      await api(
        base,
        'POST',
        csPath(ns),
        cloneSet('web', { updateStrategy: { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 } }),
      );
      await waitFor(async () => (await readyReplicas(ns, 'web')) === 5, 60_000, '5 ready');
      const before = new Map((await podsOf(base, ns, 'web')).map((p) => [p.metadata.name, p.metadata.uid]));
      let maxUnavailable = 0;
      const observe = async () => {
        const pods = await podsOf(base, ns, 'web');
        maxUnavailable = Math.max(maxUnavailable, pods.filter((p) => !isReady(p)).length);
        return pods;
      };
      const patch = {
        spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      };
      expect((await mergePatch(csPath(ns, 'web'), patch)).status).toBe(200);
      const updatedReady = (pods: any[]) =>
        pods.filter((p) => p.spec.containers[0].image === 'nginx:1.27' && isReady(p)).length;
      await waitFor(async () => updatedReady(await observe()) === 3, 90_000, '3 updated (partition 2)');
      await new Promise((r) => setTimeout(r, 1000));
      expect((await observe()).filter((p) => p.spec.containers[0].image === 'nginx:1.27')).toHaveLength(3);
      await mergePatch(csPath(ns, 'web'), { spec: { updateStrategy: { partition: 0 } } });
      await waitFor(async () => updatedReady(await observe()) === 5, 90_000, 'all updated');
      const after = new Map((await podsOf(base, ns, 'web')).map((p) => [p.metadata.name, p.metadata.uid]));
      expect(after).toEqual(before);
      expect(maxUnavailable).toBeLessThanOrEqual(1);
      // the runtime restarted each container once (a new imageID), as a real in-place update does
      for (const p of await podsOf(base, ns, 'web'))
        expect(p.status.containerStatuses[0].restartCount).toBe(1);
    });

    it('deletes exactly the pods named in scaleStrategy.podsToDelete and replaces them', async () => {
      const ns = await t.namespace('cs');
      await t.driver();
      await t.operator();
      await api(base, 'POST', csPath(ns), cloneSet('pick', { replicas: 4 }));
      await waitFor(async () => (await readyReplicas(ns, 'pick')) === 4, 60_000, '4 ready');
      const victim = (await podsOf(base, ns, 'pick'))[0].metadata.name;
      await mergePatch(csPath(ns, 'pick'), { spec: { scaleStrategy: { podsToDelete: [victim] } } });
      await waitFor(
        async () => {
          const names = (await podsOf(base, ns, 'pick')).map((p) => p.metadata.name);
          return names.length === 4 && !names.includes(victim);
        },
        60_000,
        `${victim} replaced`,
      );
      await waitFor(async () => (await readyReplicas(ns, 'pick')) === 4, 60_000, '4 ready again');
    });
  });
}
