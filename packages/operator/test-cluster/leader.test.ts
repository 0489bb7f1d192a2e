// Two operator replicas on a real kube-apiserver: one Lease (coordination.k8s.io/v1,
// kruise-system/kruise-manager) elects one leader, only the leader reconciles, and when it stops
// the other takes over and finishes the work.
import { describe, expect, it } from 'vitest';
import { isReady, podsOf, realCluster, useRealTest } from './helpers/harness';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('leader election on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;

  describe(`leader election against ${rc.version}`, () => {
    it('one leader reconciles; after it stops the standby takes the Lease and carries on', async () => {
      const ns = await t.namespace('lead');
      await t.driver();
      // Only one replica serves the webhooks (each would point the configurations at its own
      // local URL), and it must outlive the fail-over: the first leader runs without them.
      const first = await t.operator('replica-b', { webhook: { enabled: false } as never });
      await waitFor(async () => first.isLeader(), 30_000, 'replica-b to lead');
      const second = await t.operator('replica-a');
      await new Promise((r) => setTimeout(r, 1000));
      expect(second.isLeader()).toBe(false);
      const lease = (
        await api(base, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager')
      ).body;
      expect(lease.spec.holderIdentity).toBe('replica-b');
      const csPath = `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/clonesets`;
      const cloneSet = (replicas: number) => ({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'ha' },
        spec: {
          replicas,
          selector: { matchLabels: { app: 'ha' } },
          template: {
            metadata: { labels: { app: 'ha' } },
            spec: { containers: [{ name: 'c', image: 'nginx:alpine' }] },
          },
        },
      });
      await api(base, 'POST', csPath, cloneSet(2));
      await waitFor(
        async () => (await podsOf(base, ns, 'ha')).filter(isReady).length === 2,
        60_000,
        '2 ready',
      );
      await t.stopOperator(first);
      await waitFor(async () => second.isLeader(), 30_000, 'the standby to lead');
      await api(base, 'PATCH', `${csPath}/ha`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
      await waitFor(
        async () => (await podsOf(base, ns, 'ha')).filter(isReady).length === 4,
        60_000,
        '4 ready',
      );
      const holder = (
        await api(base, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager')
      ).body.spec.holderIdentity;
      expect(holder).toBe('replica-a');
    });
  });
}
