// Advanced DaemonSet on a real kube-apiserver: one pod per Node object, each pinned to its node by
// required node affinity (the daemon pod's own scheduling rule), and a new node gets its pod.
import { describe, expect, it } from 'vitest';
import { isReady, podsOf, realCluster, useRealTest } from './helpers/harness';
import { registerNodes } from './helpers/podDriver';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('Advanced DaemonSet on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;

  describe(`Advanced DaemonSet against ${rc.version}`, () => {
    it('runs one pod on every node that matches, and on a node added later', async () => {
      const ns = await t.namespace('ads');
      const pool = `pool-${ns}`;
      const nodes = ['1', '2', '3'].map((i) => ({ name: `${pool}-${i}`, labels: { pool } }));
      await t.driver(nodes);
      await t.operator();
      const r = await api(base, 'POST', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/daemonsets`, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'DaemonSet',
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: { nodeSelector: { pool }, containers: [{ name: 'agent', image: 'busybox:1.36' }] },
          },
        },
      });
      expect(r.status).toBe(201);
      const onNodes = async (n: number) => {
        const pods = await podsOf(base, ns, 'agent');
        return pods.length === n && pods.every(isReady) ? pods : undefined;
      };
      const explain = async () =>
        JSON.stringify(
          {
            pods: (await api(base, 'GET', `/api/v1/namespaces/${ns}/pods`)).body.items?.map((p: any) => ({
              name: p.metadata.name,
              node: p.spec.nodeName,
              deleting: p.metadata.deletionTimestamp,
              conditions: p.status?.conditions?.map((c: any) => `${c.type}=${c.status}`),
            })),
            status: (
              await api(base, 'GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/daemonsets/agent`)
            ).body.status,
          },
          null,
          1,
        );
      const pods = await waitFor(() => onNodes(3), 60_000, 'a ready pod per node', explain);
      expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(nodes.map((n) => n.name));
      await registerNodes(base, [{ name: `${pool}-4`, labels: { pool } }]);
      const more = await waitFor(() => onNodes(4), 60_000, 'a pod on the new node', explain);
      expect(more.map((p) => p.spec.nodeName)).toContain(`${pool}-4`);
      await waitFor(
        async () => {
          const s = (
            await api(base, 'GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/daemonsets/agent`)
          ).body.status;
          return s?.desiredNumberScheduled === 4 && s?.numberReady === 4;
        },
        60_000,
        'status desired 4, ready 4',
      );
    });
  });
}
