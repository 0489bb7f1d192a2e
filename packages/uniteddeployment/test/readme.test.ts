// The README's snippet, kept runnable.
import { describe, expect, it } from 'vitest';
import { reconcileUnitedDeployment } from '../src/index';

describe('README example', () => {
  it('a new UnitedDeployment (10 replicas, zone-a 40%) creates a revision, two CloneSets (4 + 6) and its status', () => {
    const unitedDeployment = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: { name: 'web', namespace: 'default', uid: 'u1', generation: 1 },
      spec: {
        replicas: 10,
        selector: { matchLabels: { app: 'web' } },
        template: {
          cloneSetTemplate: {
            metadata: { labels: { app: 'web' } },
            spec: {
              template: {
                metadata: { labels: { app: 'web' } },
                spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
              },
            },
          },
        },
        topology: {
          subsets: [
            {
              name: 'zone-a',
              replicas: '40%',
              nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
            },
            { name: 'zone-b' },
          ],
        },
        revisionHistoryLimit: 10,
      },
    };
    const result = reconcileUnitedDeployment({
      unitedDeployment,
      subsets: [],
      pods: [],
      now: '2024-01-01T00:00:00Z',
    });
    expect(result.actions.map((a) => `${a.verb} ${a.reason}`)).toEqual([
      'create CreateRevision',
      'create CreateSubset',
      'create CreateSubset',
      'updateStatus UpdateStatus',
    ]);
    expect(result.status.subsetReplicas).toEqual({ 'zone-a': 4, 'zone-b': 6 });
  });
});
