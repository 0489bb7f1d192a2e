// Advanced StatefulSet on a real kube-apiserver: reserveOrdinals skips the reserved ordinals, and
// the v1alpha1 <-> v1beta1 conversion runs through the operator's /convert webhook, which the
// operator registers in the CRD itself (docs/reference/operator.md W2.14) and the real API server
// calls over TLS. The same assertions as test/conversion.integration.test.ts against serve.
import { describe, expect, it } from 'vitest';
import { isReady, podsOf, realCluster, useRealTest } from './helpers/harness';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('Advanced StatefulSet on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;
  const path = (version: string, ns: string, name = '') =>
    `/apis/apps.kruise.io/${version}/namespaces/${ns}/statefulsets${name ? `/${name}` : ''}`;
  const statefulSet = (version: string, name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: `apps.kruise.io/${version}`,
    kind: 'StatefulSet',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 3,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
      ...spec,
    },
  });

  describe(`Advanced StatefulSet against ${rc.version}`, () => {
    it('reserveOrdinals: 3 replicas with ordinals 1 and 3 reserved are 0, 2 and 4', async () => {
      const ns = await t.namespace('asts');
      await t.driver();
      await t.operator();
      const r = await api(
        base,
        'POST',
        path('v1beta1', ns),
        statefulSet('v1beta1', 'web', { reserveOrdinals: [1, 3] }),
      );
      expect(r.status).toBe(201);
      const pods = await waitFor(
        async () => {
          const p = await podsOf(base, ns, 'web');
          return p.length === 3 && p.every(isReady) ? p : undefined;
        },
        90_000,
        '3 ready pods',
      );
      expect(pods.map((p) => p.metadata.name).sort()).toEqual(['web-0', 'web-2', 'web-4']);
      await waitFor(
        async () => (await api(base, 'GET', path('v1beta1', ns, 'web'))).body?.status?.readyReplicas === 3,
        30_000,
        'status readyReplicas 3',
      );
    });

    it('a v1alpha1 object is converted by the operator webhook, stored at v1beta1 and readable at both versions', async () => {
      const ns = await t.namespace('asts');
      await t.driver();
      const op = await t.operator();
      const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/statefulsets.apps.kruise.io';
      await waitFor(
        async () =>
          (await api(base, 'GET', crdPath)).body?.spec?.conversion?.webhook?.clientConfig?.url ===
          `https://127.0.0.1:${op.ports.webhook}/convert`,
        30_000,
        'the CRD pointing at this operator',
      );
      // kube-apiserver picks up a CRD's new conversion settings a moment after the update, so a
      // write right after the switch may still reach the previous replica's (stopped) webhook
      const created = await waitFor(
        async () => {
          const r = await api(
            base,
            'POST',
            path('v1alpha1', ns),
            statefulSet('v1alpha1', 'old', {
              replicas: 2,
              updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
            }),
          );
          if (r.status === 500 && /conversion webhook/.test(r.body?.message ?? '')) return undefined;
          return r;
        },
        30_000,
        'a write converted by this operator',
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
      await waitFor(
        async () =>
          (await api(base, 'GET', path('v1beta1', ns, 'old'))).body?.status?.updatedReadyReplicas === 2,
        90_000,
        'status written by the operator',
      );
      const alpha = (await api(base, 'GET', path('v1alpha1', ns, 'old'))).body;
      const beta = (await api(base, 'GET', path('v1beta1', ns, 'old'))).body;
      expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
      expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
      expect(alpha.status.readyReplicas).toBe(2);
      expect('updatedReadyReplicas' in alpha.status).toBe(false); // v1beta1 only (statefulset.md §2.3)
      const crd = (await api(base, 'GET', crdPath)).body;
      expect(crd.status.storedVersions).toContain('v1beta1');
      const m = await op.metrics.webhookRequests.get();
      expect(
        m.values.find((v) => v.labels.path === '/convert' && v.labels.allowed === 'true')?.value ?? 0,
      ).toBeGreaterThan(0);
      expect(
        m.values.find((v) => v.labels.path === '/convert' && v.labels.allowed === 'false')?.value ?? 0,
      ).toBe(0);
    });
  });
}
