// Simulation.runToward: the same run as runUntil, cut into slices at any piece of work — a kubelet
// sync, a scheduler run, one reconcile — as a shell running in real time cuts it to keep its event
// loop free. Pausing after every piece gives the same event log, objects and counters as one
// runUntil, byte for byte; and a controller that stopped at its burst still runs once per step.
import type { KubeObject } from '@kruise-ts/api';
import { DEFAULT_BURST_REPLICAS } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../src/simulation';

function cloneSet(replicas: number, image = 'app:v1'): KubeObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image }] } },
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '50%' },
    },
  };
}

/** A cluster of 12 nodes (1,320 pods) with a CloneSet of 1,200 replicas: three bursts. */
function start(): Simulation {
  const sim = new Simulation({
    seed: 11,
    nodes: Array.from({ length: 12 }, (_, i) => ({ name: `node-${i}` })),
    timings: { imagePull: { defaultMs: 2000, images: {} } },
  });
  sim.apply(cloneSet(1200));
  return sim;
}

const snapshot = (sim: Simulation) =>
  JSON.stringify({ events: sim.events, objects: sim.store.all(), stats: sim.stats, now: sim.nowMs });

describe('Simulation.runToward', () => {
  it('paused after every piece of work, it ends where runUntil does, byte for byte', () => {
    const whole = start();
    whole.runUntil(20_000);
    whole.apply(cloneSet(1200, 'app:v2'));
    whole.runUntil(60_000);

    const sliced = start();
    let calls = 0;
    const run = (ms: number) => {
      while (!sliced.runToward(ms, () => true)) calls++;
    };
    run(20_000);
    sliced.apply(cloneSet(1200, 'app:v2'));
    run(60_000);

    // it did pause, many times
    expect(calls).toBeGreaterThan(50);
    expect(snapshot(sliced)).toBe(snapshot(whole));
    expect(whole.list('Pod')).toHaveLength(1200);
  });

  it('a CloneSet stopped at its burst creates one burst per step, not one per change of its pods', () => {
    const sim = start();
    // applying settles at t=0: one burst
    expect(sim.list('Pod')).toHaveLength(DEFAULT_BURST_REPLICAS);
    sim.step();
    expect(sim.list('Pod')).toHaveLength(2 * DEFAULT_BURST_REPLICAS);
  });
});
