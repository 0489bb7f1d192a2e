// The controller loop, work queue, requeues and controller memory, with a tiny fake controller.
import type { KubeObject } from '@kruise-ts/api';
import { EventQueue } from '@kruise-ts/cluster';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { ControllerRegistry } from '../src/controllers';
import { Simulation } from '../src/simulation';
import { WorkQueue } from '../src/workqueue';
import { type FakeSet, fakeRegistry, fakeSet, fakeSetController } from './fakeController';

type PodObj = Pod & KubeObject;
const ready = (p: Pod) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const fs = (sim: Simulation) => sim.get<FakeSet>('FakeSet', 'web', 'default', 'test.kruise.io/v1');

describe('work queue and event queue', () => {
  it('coalesces keys: add(a), add(b), add(a) drains a, b', () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect([q.next(), q.next(), q.next()]).toEqual(['a', 'b', undefined]);
  });

  it('orders events by (time, sequence): A@5000, B@1000, C@1000 pop B, C, A', () => {
    const q = new EventQueue<string>();
    q.push(5000, 'A');
    q.push(1000, 'B');
    q.push(1000, 'C');
    expect([q.pop()?.payload, q.pop()?.payload, q.pop()?.payload, q.pop()]).toEqual([
      'B',
      'C',
      'A',
      undefined,
    ]);
  });
});

describe('simulation loop with a fake controller', () => {
  it('creates, schedules, starts and readies pods (pull 5s + start 1s + ready 2s = 8s)', () => {
    const sim = new Simulation({ registry: fakeRegistry(), freezeObjects: true, seed: 7 });
    sim.apply(fakeSet('web', 3));
    expect(sim.runUntil((s) => fs(s)?.status?.readyReplicas === 3, { timeoutMs: 60_000 })).toBe(true);
    const pods = sim.list<PodObj>('Pod');
    expect(pods).toHaveLength(3);
    expect(pods.every(ready)).toBe(true);
    expect(new Set(pods.map((p) => p.spec?.nodeName)).size).toBe(3);
    expect(sim.nowMs).toBe(8000);
  });

  it('passes each reconcile the controllerState the previous one returned', () => {
    const sim = new Simulation({ registry: fakeRegistry(), seed: 1 });
    sim.apply(fakeSet('web', 1));
    sim.runUntil(20_000);
    const key = 'test.kruise.io/FakeSet/default/web';
    // The fake counts its reconciles in controllerState.
    expect(sim.store.getControllerState(key)).toBe(sim.stats.reconciles);
    expect(sim.stats.reconciles).toBeGreaterThan(1);
  });

  it('schedules a reconcile after requeueAfterSeconds', () => {
    const seen: number[] = [];
    const reg = new ControllerRegistry().register({
      ...fakeSetController,
      reconcile: (store, obj, now, state, env) => {
        seen.push(Date.parse(now));
        return fakeSetController.reconcile(store, obj, now, state, env);
      },
    });
    const sim = new Simulation({ registry: reg, seed: 1, nodes: [] });
    sim.apply(fakeSet('web', 0, 'nginx:1.0', { requeueSeconds: 30 }));
    sim.runUntil(65_000);
    const start = Date.parse('2024-01-01T00:00:00Z');
    const times = [...new Set(seen.map((t) => (t - start) / 1000))];
    expect(times).toEqual([0, 30, 60]);
  });

  it('updates an image in place: only that container restarts and reports a new imageID', () => {
    const sim = new Simulation({ registry: fakeRegistry(), seed: 3 });
    sim.apply(fakeSet('web', 2, 'nginx:1.0'));
    sim.runUntil((s) => fs(s)?.status?.readyReplicas === 2, { timeoutMs: 60_000 });
    const before = sim
      .list<PodObj>('Pod')
      .map((p) => ({ uid: p.metadata.uid, id: p.status?.containerStatuses?.[0].imageID }));
    sim.apply(fakeSet('web', 2, 'nginx:2.0'));
    expect(
      sim.runUntil((s) => fs(s)?.status?.updated === 2 && fs(s)?.status?.readyReplicas === 2, {
        timeoutMs: 120_000,
      }),
    ).toBe(true);
    const after = sim.list<PodObj>('Pod');
    expect(after.map((p) => p.metadata.uid)).toEqual(before.map((b) => b.uid));
    for (const p of after) {
      const cs = p.status?.containerStatuses?.[0];
      expect(cs?.image).toBe('nginx:2.0');
      expect(cs?.restartCount).toBe(1);
      expect(before.map((b) => b.id)).not.toContain(cs?.imageID);
    }
  });

  it('defers a key reconciled too often in one step (hot loop guard)', () => {
    let n = 0;
    const reg = new ControllerRegistry().register({
      kind: 'FakeSet',
      apiVersion: 'test.kruise.io/v1',
      reconcile: (_s, obj, now) => ({
        actions: [
          {
            verb: 'updateStatus',
            reason: 'Tick',
            target: { apiVersion: obj.apiVersion, kind: obj.kind, namespace: 'default', name: 'web' },
            status: { at: now, n: n++ },
          },
        ],
        status: {},
        errors: [],
      }),
    });
    const sim = new Simulation({ registry: reg, seed: 1, nodes: [], maxReconcilesPerStep: 5 });
    // A status write by another source re-enqueues the object; our fake writes a changing status every time.
    sim.store.watch((c) => {
      if (c.verb === 'updateStatus' && c.object.kind === 'FakeSet')
        sim.store.patch(
          { apiVersion: 'test.kruise.io/v1', kind: 'FakeSet', namespace: 'default', name: 'web' },
          'merge',
          { metadata: { labels: { t: String(sim.stats.reconciles) } } },
          'user',
        );
    });
    sim.apply(fakeSet('web', 0));
    expect(sim.events.some((e) => e.type === 'ReconcileLoop')).toBe(true);
  });
});
