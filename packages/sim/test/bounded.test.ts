// A scenario with workloads of 2,147,483,647 replicas ends, with a bounded number of pods: each
// controller creates at most a burst (500) of pods per reconcile and asks to run again at once
// (`requeueAfterSeconds: 0`), the loop runs such a key again at the next step rather than in the
// same one, and the pods beyond the cluster's capacity (3 nodes × 110) stay Pending. Counts are
// asserted, not times.
import { DEFAULT_BURST_REPLICAS } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/scenario/run';
import { Simulation } from '../src/simulation';

const INT32_MAX = 2147483647;
const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image: 'app:v1' }] },
});

function scenario(manifests: Record<string, unknown>[], wait: string): Record<string, unknown> {
  return {
    apiVersion: 'sim.kruise-ts.io/v1alpha1',
    kind: 'Scenario',
    metadata: { name: 'huge' },
    spec: { seed: 3, manifests, steps: [{ wait }] },
  };
}

const podsOf = (pods: Pod[], app: string) => pods.filter((p) => p.metadata?.labels?.app === app);

describe('the simulator with workloads of 2,147,483,647 replicas', () => {
  it('a CloneSet: the run ends, one burst of pods per step, the pods beyond capacity Pending', () => {
    const r = runScenario(
      scenario(
        [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            metadata: { name: 'huge' },
            spec: {
              replicas: INT32_MAX,
              selector: { matchLabels: { app: 'huge' } },
              template: template('huge'),
            },
          },
        ],
        '5s',
      ),
      { logLevel: 'summary' },
    );
    expect(r.status).toBe('passed');
    const sim = r.sim!;
    const pods = sim.list('Pod') as unknown as Pod[];
    // one burst when the manifest is applied, then one per step
    expect(pods.length).toBeGreaterThan(DEFAULT_BURST_REPLICAS);
    expect(pods.length).toBeLessThanOrEqual(DEFAULT_BURST_REPLICAS * (sim.stats.steps + 1));
    const bound = pods.filter((p) => p.spec?.nodeName);
    expect(bound).toHaveLength(3 * 110);
    const pending = pods.filter((p) => !p.spec?.nodeName);
    expect(
      pending.every((p) =>
        p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable'),
      ),
    ).toBe(true);
    const status = sim.get('CloneSet', 'huge')?.status as { replicas?: number } | undefined;
    expect(status?.replicas).toBeGreaterThan(0);
  });

  it('an Advanced StatefulSet (Parallel), a Deployment and a Job next to each other: each a burst per step', () => {
    const r = runScenario(
      scenario(
        [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'StatefulSet',
            metadata: { name: 'sts' },
            spec: {
              replicas: INT32_MAX,
              podManagementPolicy: 'Parallel',
              serviceName: 'sts',
              selector: { matchLabels: { app: 'sts' } },
              template: template('sts'),
            },
          },
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'deploy' },
            spec: {
              replicas: INT32_MAX,
              selector: { matchLabels: { app: 'deploy' } },
              template: template('deploy'),
            },
          },
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: { name: 'job' },
            spec: {
              parallelism: INT32_MAX,
              completions: INT32_MAX,
              template: { ...template('job'), spec: { ...template('job').spec, restartPolicy: 'Never' } },
            },
          },
        ],
        '3s',
      ),
      { logLevel: 'summary' },
    );
    expect(r.status).toBe('passed');
    const sim = r.sim!;
    const pods = sim.list('Pod') as unknown as Pod[];
    const bound = DEFAULT_BURST_REPLICAS * (sim.stats.steps + 1);
    for (const app of ['sts', 'deploy', 'job']) {
      const n = podsOf(pods, app).length;
      expect(n, app).toBeGreaterThan(0);
      expect(n, app).toBeLessThanOrEqual(bound);
    }
  });

  it('pods beyond capacity cost nothing per step: the scheduler does not look at them again', () => {
    const sim = new Simulation({ seed: 5, nodes: [{ name: 'small', capacity: { pods: 10 } }] });
    sim.apply({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'big', namespace: 'default' },
      spec: { replicas: 3000, selector: { matchLabels: { app: 'big' } }, template: template('big') },
    });
    sim.runUntil(10_000);
    expect(sim.list('Pod')).toHaveLength(3000);
    // All 3,000 exist and 2,990 wait: ten more seconds of steps look up a handful of objects.
    let lookups = 0;
    const store = sim.store as unknown as { getByKey: (key: string) => unknown };
    const getByKey = store.getByKey.bind(sim.store);
    store.getByKey = (key: string) => {
      lookups++;
      return getByKey(key);
    };
    sim.runUntil(20_000);
    expect(lookups).toBeLessThan(100);
  });
});
