// SidecarSet on a real kube-apiserver: the operator's pod mutating webhook, registered in the
// real admission chain, injects the sidecar into every matching pod a CloneSet creates, and the
// SidecarSet's status counts them.
import { describe, expect, it } from 'vitest';
import { podsOf, realCluster, useRealTest } from './helpers/harness';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('SidecarSet on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;

  describe(`SidecarSet against ${rc.version}`, () => {
    it('injects the sidecar through the real admission chain', async () => {
      const ns = await t.namespace('ss');
      await t.driver();
      const op = await t.operator();
      const name = `logger-${ns}`;
      const ss = await api(base, 'POST', '/apis/apps.kruise.io/v1alpha1/sidecarsets', {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name },
        spec: {
          selector: { matchLabels: { app: 'withsidecar' } },
          namespace: ns,
          containers: [{ name: 'log-agent', image: 'busybox:1.36' }],
        },
      });
      expect(ss.status).toBe(201);
      // the webhook answers from the operator's informer cache: wait until it has the SidecarSet
      await waitFor(
        async () =>
          op.cache
            .list({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' })
            .some((o) => o.metadata?.name === name),
        10_000,
        'the SidecarSet in the cache',
      );
      await api(base, 'POST', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/clonesets`, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'withsidecar' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'withsidecar' } },
          template: {
            metadata: { labels: { app: 'withsidecar' } },
            spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
          },
        },
      });
      const pods = await waitFor(
        async () => {
          const p = await podsOf(base, ns, 'withsidecar');
          return p.length === 3 ? p : undefined;
        },
        60_000,
        '3 pods',
      );
      for (const p of pods) {
        // podInjectPolicy defaults to BeforeAppContainer (sidecarset.md): the sidecar comes first
        expect(p.spec.containers.map((c: { name: string }) => c.name)).toEqual(['log-agent', 'main']);
        expect(p.metadata.annotations?.['kruise.io/sidecarset-hash']).toContain(name);
      }
      await waitFor(
        async () => {
          const s = (await api(base, 'GET', `/apis/apps.kruise.io/v1alpha1/sidecarsets/${name}`)).body.status;
          return s?.matchedPods === 3 && s?.readyPods === 3;
        },
        60_000,
        'SidecarSet status matchedPods 3, readyPods 3',
      );
      const m = await op.metrics.webhookRequests.get();
      expect(m.values.some((v) => v.labels.path === '/mutate-pod' && v.value >= 3)).toBe(true);
    });
  });
}
