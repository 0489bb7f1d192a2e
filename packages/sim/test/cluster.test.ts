// Scheduler, kubelet and node lifecycle models.
import type { KubeObject } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { ControllerRegistry } from '../src/controllers';
import { Simulation } from '../src/simulation';

type PodObj = Pod & KubeObject;
const noControllers = () => new ControllerRegistry();

function podManifest(name: string, spec: Partial<Pod['spec']> = {}, image = 'nginx:1.0'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'x' } },
    spec: { containers: [{ name: 'main', image }], ...spec },
  };
}
const getPod = (sim: Simulation, name: string) => sim.get<PodObj>('Pod', name);
const cond = (p: PodObj | undefined, type: string) => p?.status?.conditions?.find((c) => c.type === type);

describe('scheduler', () => {
  it('binds by resource requests, nodeSelector and required node affinity', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [
        { name: 'small', capacity: { cpu: '1' }, labels: { disk: 'hdd' } },
        { name: 'big', capacity: { cpu: '8' }, labels: { disk: 'ssd' } },
      ],
    });
    sim.apply(
      podManifest('cpu', {
        containers: [{ name: 'main', image: 'x', resources: { requests: { cpu: '2' } } }],
      }),
    );
    sim.apply(podManifest('sel', { nodeSelector: { disk: 'hdd' } }));
    sim.apply(
      podManifest('aff', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }],
            },
          },
        },
      }),
    );
    expect(getPod(sim, 'cpu')?.spec?.nodeName).toBe('big');
    expect(getPod(sim, 'sel')?.spec?.nodeName).toBe('small');
    expect(getPod(sim, 'aff')?.spec?.nodeName).toBe('big');
    expect(cond(getPod(sim, 'cpu'), 'PodScheduled')?.status).toBe('True');
  });

  it('honours taints and tolerations', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'tainted', taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }],
    });
    sim.apply(podManifest('plain'));
    sim.apply(
      podManifest('tolerant', {
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
      }),
    );
    expect(getPod(sim, 'plain')?.spec?.nodeName).toBeUndefined();
    expect(getPod(sim, 'tolerant')?.spec?.nodeName).toBe('tainted');
  });

  it('leaves a pod that fits nowhere Pending with PodScheduled=False, reason Unschedulable, and retries when capacity frees', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [1, 2, 3].map((i) => ({ name: `n${i}`, capacity: { cpu: '1' } })),
    });
    sim.apply(
      podManifest('huge', {
        containers: [{ name: 'main', image: 'x', resources: { requests: { cpu: '2' } } }],
      }),
    );
    const p = getPod(sim, 'huge');
    expect(p?.status?.phase).toBe('Pending');
    expect(cond(p, 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
    });
    // A bigger node joins: the pod is retried and bound.
    sim.apply({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n4' },
      status: {
        capacity: { cpu: '4' },
        allocatable: { cpu: '4' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
    expect(getPod(sim, 'huge')?.spec?.nodeName).toBe('n4');
  });

  it('counts pods against the node pod capacity ("Too many pods")', () => {
    const sim = new Simulation({ registry: noControllers(), nodes: [{ name: 'n1', capacity: { pods: 1 } }] });
    sim.apply(podManifest('a'));
    sim.apply(podManifest('b'));
    expect(cond(getPod(sim, 'b'), 'PodScheduled')?.message).toBe('0/1 nodes are available: 1 Too many pods.');
  });
});

describe('kubelet', () => {
  it('pulls an image once per node: the second pod on the node skips the pull', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'n1' }],
      timings: {
        imagePull: { defaultMs: 10_000, images: {} },
        containerStartMs: 1000,
        readinessDelayMs: 1000,
      },
    });
    sim.apply(podManifest('first'));
    sim.runUntil((s) => cond(getPod(s, 'first'), 'Ready')?.status === 'True', { timeoutMs: 60_000 });
    expect(sim.nowMs).toBe(12_000);
    sim.apply(podManifest('second'));
    const t0 = sim.nowMs;
    sim.runUntil((s) => cond(getPod(s, 'second'), 'Ready')?.status === 'True', { timeoutMs: 60_000 });
    expect(sim.nowMs - t0).toBe(2000);
  });

  it('uses the per-image pull time', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'n1' }],
      timings: {
        imagePull: { defaultMs: 1000, images: { 'big:1': 30_000 } },
        containerStartMs: 0,
        readinessDelayMs: 0,
      },
    });
    sim.apply(podManifest('p', {}, 'big:1'));
    sim.runUntil((s) => getPod(s, 'p')?.status?.phase === 'Running', { timeoutMs: 60_000 });
    expect(sim.nowMs).toBe(30_000);
  });

  it('recomputes Ready from readiness gates', () => {
    const sim = new Simulation({ registry: noControllers(), nodes: [{ name: 'n1' }] });
    sim.apply(podManifest('g', { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] }));
    sim.advance(60_000);
    expect(cond(getPod(sim, 'g'), 'ContainersReady')?.status).toBe('True');
    expect(cond(getPod(sim, 'g'), 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
    });
    const p = getPod(sim, 'g')!;
    sim.act({
      verb: 'updateStatus',
      reason: 'test',
      target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'g' },
      status: {
        ...p.status,
        conditions: [...(p.status?.conditions ?? []), { type: 'InPlaceUpdateReady', status: 'True' }],
      },
    });
    expect(cond(getPod(sim, 'g'), 'Ready')?.status).toBe('True');
  });

  it('honours terminationGracePeriodSeconds: a container that needs 60 s to stop is killed after the 5 s grace period', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'n1' }],
      timings: { terminationMs: 60_000 },
    });
    sim.apply(podManifest('p', { terminationGracePeriodSeconds: 5 }));
    sim.advance(30_000);
    sim.deletePod('p');
    const t0 = sim.nowMs;
    expect(getPod(sim, 'p')?.metadata.deletionTimestamp).toBeDefined();
    sim.runUntil((s) => getPod(s, 'p') === undefined, { timeoutMs: 200_000 });
    expect(sim.nowMs - t0).toBe(5000);
  });

  it('crashes a container and restarts it after the back-off (restartCount 1)', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'n1' }],
      timings: { crashBackoffMs: 10_000 },
    });
    sim.apply(podManifest('p'));
    sim.advance(30_000);
    expect(sim.crashPod('p')).toBe(true);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('False');
    sim.runUntil((s) => cond(getPod(s, 'p'), 'Ready')?.status === 'True', { timeoutMs: 200_000 });
    expect(getPod(sim, 'p')?.status?.containerStatuses?.[0].restartCount).toBe(1);
    expect(sim.events.some((e) => e.type === 'ContainerCrashed')).toBe(true);
  });

  it('crashes containers with a seeded probability, reproducibly', () => {
    const run = () => {
      const sim = new Simulation({
        registry: noControllers(),
        seed: 11,
        timings: { crashProbability: 0.5, crashWithinMs: 20_000 },
      });
      for (let i = 0; i < 10; i++) sim.apply(podManifest(`p${i}`));
      sim.advance(120_000);
      return sim.events.filter((e) => e.type === 'ContainerCrashed').map((e) => `${e.t}:${e.object}`);
    };
    const a = run();
    expect(a.length).toBeGreaterThan(0);
    expect(run()).toEqual(a);
  });
});

describe('scheduled failures', () => {
  it('fails readiness of a pod at 30 s for 20 s, then it is ready again', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'n1' }],
      failures: [{ atMs: 30_000, type: 'unready', pod: 'p', durationMs: 20_000 }],
    });
    sim.apply(podManifest('p'));
    sim.runUntil(30_000);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('False');
    expect(getPod(sim, 'p')?.status?.containerStatuses?.[0].restartCount).toBe(0);
    sim.runUntil(49_000);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('False');
    sim.runUntil(50_000);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('True');
  });

  it('crashes pods chosen by selector (seeded) and fails a node on schedule', () => {
    const sim = new Simulation({
      registry: noControllers(),
      nodes: [{ name: 'n1' }, { name: 'n2' }],
      failures: [
        { atMs: 20_000, type: 'crash', selector: 'app=x', count: 2 },
        { atMs: 25_000, type: 'failNode', node: 'n2' },
      ],
    });
    for (const n of ['a', 'b', 'c']) sim.apply(podManifest(n));
    sim.runUntil(30_000);
    expect(sim.events.filter((e) => e.type === 'ContainerCrashed')).toHaveLength(2);
    expect(sim.events.some((e) => e.type === 'NodeFailed' && e.object === 'Node/n2' && e.t === 25)).toBe(
      true,
    );
  });
});

describe('node lifecycle', () => {
  it('a failed node turns NotReady after 40 s with its pods NotReady, and evicts them after 300 s', () => {
    const sim = new Simulation({ registry: noControllers(), nodes: [{ name: 'n1' }, { name: 'n2' }] });
    sim.apply(podManifest('p', { nodeSelector: { 'kubernetes.io/hostname': 'n1' } }));
    sim.advance(30_000);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('True');
    const failedAt = sim.nowMs;
    sim.failNode('n1');
    sim.runUntil(failedAt + 39_000);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('True');
    sim.runUntil(failedAt + 40_000);
    expect(cond(getPod(sim, 'p'), 'Ready')?.status).toBe('False');
    expect(sim.get('Node', 'n1')?.spec).toMatchObject({
      taints: [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      ],
    });
    sim.runUntil(failedAt + 340_000);
    expect(getPod(sim, 'p')?.metadata.deletionTimestamp).toBeDefined();
    expect(sim.events.some((e) => e.type === 'PodEvicted' && e.object === 'Pod/default/p')).toBe(true);
    // The kubelet of the dead node cannot confirm termination: the pod stays Terminating until it recovers.
    sim.advance(60_000);
    expect(getPod(sim, 'p')).toBeDefined();
    sim.recoverNode('n1');
    sim.advance(60_000);
    expect(getPod(sim, 'p')).toBeUndefined();
  });
});
