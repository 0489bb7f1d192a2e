// UnitedDeployment on a real kube-apiserver: 6 replicas over three zone subsets (one node per
// zone, labelled topology.kubernetes.io/zone), each subset a CloneSet whose pods land in its zone.
import { describe, expect, it } from 'vitest';
import { isReady, podsOf, realCluster, useRealTest } from './helpers/harness';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('UnitedDeployment on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;

  describe(`UnitedDeployment against ${rc.version}`, () => {
    it('spreads replicas over zone subsets, each pod in its zone', async () => {
      const ns = await t.namespace('ud');
      const zones = ['a', 'b', 'c'].map((z) => `${ns}-${z}`);
      await t.driver(zones.map((z) => ({ name: `node-${z}`, labels: { 'topology.kubernetes.io/zone': z } })));
      await t.operator();
      const r = await api(base, 'POST', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/uniteddeployments`, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'UnitedDeployment',
        metadata: { name: 'app' },
        spec: {
          replicas: 6,
          selector: { matchLabels: { app: 'ud' } },
          template: {
            cloneSetTemplate: {
              metadata: { labels: { app: 'ud' } },
              spec: {
                selector: { matchLabels: { app: 'ud' } },
                template: {
                  metadata: { labels: { app: 'ud' } },
                  spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
                },
              },
            },
          },
          topology: {
            subsets: zones.map((z, i) => ({
              name: `subset-${'abc'[i]}`,
              nodeSelectorTerm: {
                matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [z] }],
              },
            })),
          },
        },
      });
      expect(r.status).toBe(201);
      const pods = await waitFor(
        async () => {
          const p = await podsOf(base, ns, 'ud');
          return p.length === 6 && p.every(isReady) ? p : undefined;
        },
        90_000,
        '6 ready pods',
      );
      const nodeZone = new Map(zones.map((z) => [`node-${z}`, z]));
      const bySubset = new Map<string, string[]>();
      for (const p of pods) {
        const subset = p.metadata.labels['apps.kruise.io/subset-name'];
        bySubset.set(subset, [...(bySubset.get(subset) ?? []), nodeZone.get(p.spec.nodeName) ?? '?']);
      }
      // 6 over 3 subsets: 2 each, every pod in its subset's zone
      expect([...bySubset.keys()].sort()).toEqual(['subset-a', 'subset-b', 'subset-c']);
      for (const [subset, where] of bySubset) {
        expect(where).toHaveLength(2);
        expect(new Set(where)).toEqual(new Set([`${ns}-${subset.slice(-1)}`]));
      }
      await waitFor(
        async () =>
          (await api(base, 'GET', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/uniteddeployments/app`))
            .body.status?.readyReplicas === 6,
        60_000,
        'status readyReplicas 6',
      );
    });
  });
}
