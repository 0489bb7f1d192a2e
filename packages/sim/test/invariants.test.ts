// The invariant checker catches a controller that takes down too many pods,
// and does not blame the controller for pods that crash on their own.
import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { ControllerRegistry } from '../src/controllers';
import { cloneSetBudget, cloneSetPodAvailable } from '../src/invariants';
import { runScenario } from '../src/scenario/run';
import { Simulation } from '../src/simulation';

/** A careless "CloneSet" controller: keeps replicas pods and updates every pod's image at once. */
const greedy = new ControllerRegistry().register({
  kind: 'CloneSet',
  apiVersion: 'apps.kruise.io/v1alpha1',
  reconcile: (store, obj) => {
    const spec = obj.spec as {
      replicas: number;
      template: { spec: { containers: { name: string; image: string }[] } };
    };
    const pods = store.listOwnedBy(obj.metadata.uid!).filter((p) => p.kind === 'Pod') as (Pod & KubeObject)[];
    const actions: Action[] = [];
    for (let i = pods.length; i < spec.replicas; i++)
      actions.push({
        verb: 'create',
        reason: 'ScaleUp',
        object: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `greedy-${i}`,
            namespace: 'default',
            ownerReferences: [
              {
                apiVersion: obj.apiVersion,
                kind: 'CloneSet',
                name: obj.metadata.name!,
                uid: obj.metadata.uid!,
                controller: true,
              },
            ],
          },
          spec: { containers: spec.template.spec.containers },
        },
      });
    for (const p of pods)
      if (p.spec?.containers[0].image !== spec.template.spec.containers[0].image)
        actions.push({
          verb: 'patch',
          patchType: 'merge',
          reason: 'InPlaceUpdate',
          target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: p.metadata.name! },
          patch: { spec: { containers: spec.template.spec.containers } },
        });
    return { actions, status: {}, errors: [] };
  },
});

const cs = (image: string): KubeObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'greedy', namespace: 'default' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'g' } },
    template: { metadata: { labels: { app: 'g' } }, spec: { containers: [{ name: 'main', image }] } },
    updateStrategy: { maxUnavailable: 1 },
  },
});

describe('invariants', () => {
  it('maxUnavailable: reports a controller that takes down 4 pods with a budget of 1, with the time and the pods', () => {
    const sim = new Simulation({ registry: greedy, invariants: ['maxUnavailable'] });
    sim.apply(cs('app:v1'));
    sim.advance(60_000);
    sim.apply(cs('app:v2'));
    sim.advance(60_000);
    const [rep] = sim.invariantResults();
    expect(rep.violations.length).toBeGreaterThan(0);
    const v = rep.violations[0];
    expect(v).toMatchObject({
      t: 60,
      time: '2024-01-01T00:01:00Z',
      invariant: 'maxUnavailable',
      object: 'CloneSet/default/greedy',
    });
    expect(v.message).toBe(
      'the controller has 4 pod(s) down (4 unavailable) but may take down at most 1 (maxUnavailable 1)',
    );
    expect(v.pods).toEqual([
      'Pod/default/greedy-0',
      'Pod/default/greedy-1',
      'Pod/default/greedy-2',
      'Pod/default/greedy-3',
    ]);
    expect(sim.events.filter((e) => e.type === 'InvariantViolation').length).toBe(rep.violations.length);
  });

  it("maxUnavailable: pods crashing on their own are not the controller's doing", () => {
    const sim = new Simulation({
      registry: greedy,
      invariants: ['maxUnavailable'],
      timings: { crashBackoffMs: 30_000 },
    });
    sim.apply(cs('app:v1'));
    sim.advance(60_000);
    for (let i = 0; i < 4; i++) sim.crashPod(`greedy-${i}`);
    sim.advance(5_000);
    expect(
      sim.list('Pod').every((p) => !cloneSetPodAvailable(p as Pod, 0, Date.parse(sim.clock.now()))),
    ).toBe(true);
    expect(sim.invariantResults()[0].violations).toEqual([]);
  });

  it('maxUnavailable: is judged when the controller takes pods down, not when the user later shrinks the budget', () => {
    // Found by the property test (FC_SEED=99): R=7, maxUnavailable "50%" → 4 pods updated in place
    // at once; the user then scales to 4 (budget "50%" of 4 = 2) while those 4 are still updating.
    const r = runScenario({
      apiVersion: 'sim.kruise-ts.io/v1alpha1',
      kind: 'Scenario',
      metadata: { name: 'shrink' },
      spec: {
        seed: 1659494028,
        cluster: {
          nodes: [
            { name: 'node-1', capacity: { cpu: '10', memory: '58Gi', pods: 50 } },
            { name: 'node-2', capacity: { cpu: '9', memory: '50Gi', pods: 34 } },
            { name: 'node-3', capacity: { cpu: '10', memory: '56Gi', pods: 110 } },
          ],
          timings: {
            imagePull: '19s',
            containerStart: '0s',
            readinessDelay: '2s',
            termination: '3s',
            jitter: 0.3,
          },
          failures: [{ at: '27s', crash: { selector: 'app=g', count: 1 } }],
        },
        invariants: ['maxUnavailable'],
        manifests: [
          {
            ...cs('app:v1'),
            spec: {
              ...(cs('app:v1').spec as object),
              replicas: 7,
              template: {
                metadata: { labels: { app: 'g' } },
                spec: {
                  containers: [
                    {
                      name: 'main',
                      image: 'app:v1',
                      resources: { requests: { cpu: '500m', memory: '64Mi' } },
                    },
                  ],
                },
              },
              updateStrategy: { type: 'InPlaceOnly', partition: '0%', maxUnavailable: '50%', maxSurge: 0 },
            },
          },
        ],
        steps: [
          { waitFor: { kind: 'CloneSet', name: 'greedy', condition: 'Available', timeout: '30m' } },
          { setImage: { kind: 'CloneSet', name: 'greedy', container: 'main', image: 'app:v2' } },
          { scale: { kind: 'CloneSet', name: 'greedy', replicas: 4 } },
          { wait: '30s' },
          { waitFor: { kind: 'CloneSet', name: 'greedy', condition: 'RolledOut', timeout: '60m' } },
        ],
      },
    });
    expect(r.failure).toBeUndefined();
    expect(r.invariants[0].checks).toBeGreaterThan(0);
  });

  it('maxSurge: reports pods created beyond replicas + maxSurge', () => {
    const surge = new ControllerRegistry().register({
      kind: 'CloneSet',
      apiVersion: 'apps.kruise.io/v1alpha1',
      reconcile: (store, obj) => {
        const n = store.listOwnedBy(obj.metadata.uid!).length;
        const actions: Action[] =
          n > 0
            ? []
            : [0, 1, 2, 3, 4, 5].map((i) => ({
                verb: 'create' as const,
                reason: 'ScaleUp',
                object: {
                  apiVersion: 'v1',
                  kind: 'Pod',
                  metadata: {
                    name: `s-${i}`,
                    namespace: 'default',
                    ownerReferences: [
                      {
                        apiVersion: obj.apiVersion,
                        kind: 'CloneSet',
                        name: obj.metadata.name!,
                        uid: obj.metadata.uid!,
                        controller: true,
                      },
                    ],
                  },
                  spec: { containers: [{ name: 'c', image: 'x' }] },
                },
              }));
        return { actions, status: {}, errors: [] };
      },
    });
    const sim = new Simulation({ registry: surge, invariants: ['maxSurge'] });
    sim.apply(cs('app:v1'));
    const [rep] = sim.invariantResults();
    expect(rep.violations[0].message).toBe(
      '6 pods exist after the controller created pods, more than replicas 4 + maxSurge 0',
    );
  });

  it('resolves the budget as CloneSet does (cloneset.md §5.1): R=5 "30%" → 2 without surge, 1 with maxSurge 1', () => {
    const mk = (maxSurge: number) => ({
      apiVersion: 'x',
      kind: 'CloneSet',
      metadata: {},
      spec: { replicas: 5, updateStrategy: { maxUnavailable: '30%', maxSurge } },
    });
    expect(cloneSetBudget(mk(0))).toMatchObject({ maxUnavailable: 2, maxSurge: 0 });
    expect(cloneSetBudget(mk(1))).toMatchObject({ maxUnavailable: 1, maxSurge: 1 });
  });
});
