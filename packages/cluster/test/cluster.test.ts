// The Cluster facade as a controller's test drives it: actions in, time forward, objects out.
// A created pod is scheduled, pulled, started and made ready on the model's timings; the same
// seed gives the same cluster; refused writes are answered, not thrown; the clock moves only
// when asked.
import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { AdmissionChain, Cluster, createCluster } from '../src/index';

type PodObj = Pod & KubeObject;

const createPod = (name: string, image = 'nginx:1.0'): Action => ({
  verb: 'create',
  reason: 'ScaleUp',
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'main', image }] },
  },
});

const ready = (p: PodObj | undefined) =>
  p?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';

// Pull 5 s, start 1 s, readiness 2 s (the defaults): a new pod is ready 8 s after its create.
const nodes = [{ name: 'node-1' }, { name: 'node-2' }];

describe('Cluster', () => {
  it('schedules, starts and readies a created pod on the default timings', () => {
    const c = createCluster({ nodes });
    expect(c.list('Node').map((n) => n.metadata.name)).toEqual(['node-1', 'node-2']);
    const [res] = c.apply([createPod('web-0')]);
    expect(res.ok).toBe(true);
    const bound = c.get<PodObj>('Pod', 'web-0');
    expect(bound?.spec?.nodeName).toMatch(/^node-[12]$/);
    expect(bound?.status?.phase).toBe('Pending');
    c.advance(7_000);
    expect(ready(c.get<PodObj>('Pod', 'web-0'))).toBe(false);
    c.advance(1_000);
    const pod = c.get<PodObj>('Pod', 'web-0');
    expect(ready(pod)).toBe(true);
    expect(pod?.status?.phase).toBe('Running');
    expect(pod?.status?.containerStatuses?.[0]?.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:/);
    expect(c.nowMs).toBe(8_000);
    expect(c.now()).toBe('2024-01-01T00:00:08Z');
    const types = c.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['Create', 'Scheduled', 'ImagePulled', 'ContainerReady']));
    expect(types.indexOf('Scheduled')).toBeLessThan(types.indexOf('ContainerReady'));
  });

  it('gives the same cluster for the same seed and another for another seed', () => {
    const run = (seed: number) => {
      const c = createCluster({ nodes, seed, timings: { jitter: 0.5, crashProbability: 0.5 } });
      c.apply([createPod('a'), createPod('b'), createPod('c')]);
      c.advance(120_000);
      return c.events;
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it('crashes containers with the seeded probability and restarts them after the back-off', () => {
    const c = createCluster({ nodes, seed: 3, timings: { crashProbability: 1, crashWithinMs: 5_000 } });
    c.apply([createPod('web-0')]);
    c.advance(60_000);
    const pod = c.get<PodObj>('Pod', 'web-0');
    expect(pod?.status?.containerStatuses?.[0]?.restartCount).toBeGreaterThan(0);
    expect(c.events.some((e) => e.type === 'ContainerCrashed')).toBe(true);
  });

  it('answers a refused write with the API server error and never throws', () => {
    const c = createCluster({ nodes });
    const [gone] = c.apply([
      {
        verb: 'delete',
        reason: 'ScaleDown',
        target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'nope' },
      },
    ]);
    expect(gone).toMatchObject({ ok: false, code: 404 });
    expect(c.events.at(-1)?.type).toBe('ActionFailed');
  });

  it('runs the admission chain it was given', () => {
    const admission = new AdmissionChain();
    admission.register('v1', 'Pod', {
      validators: [
        (obj) =>
          obj.metadata.name === 'bad'
            ? [{ type: 'FieldValueInvalid', field: 'metadata.name', badValue: 'bad', detail: 'no' }]
            : [],
      ],
    });
    const c = createCluster({ nodes, admission });
    const [bad, good] = c.apply([createPod('bad'), createPod('good')]);
    expect(bad).toMatchObject({ ok: false, code: 422 });
    expect(good.ok).toBe(true);
    expect(c.list('Pod').map((p) => p.metadata.name)).toEqual(['good']);
  });

  it('deletes a pod gracefully: Terminating until its containers stopped, then gone', () => {
    const c = createCluster({ nodes });
    c.apply([createPod('web-0')]);
    c.advance(10_000);
    c.apply([
      {
        verb: 'delete',
        reason: 'ScaleDown',
        target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0' },
      },
    ]);
    // As the API server does: deletionTimestamp is now + the grace period (30 s by default).
    expect(c.get('Pod', 'web-0')?.metadata.deletionTimestamp).toBe('2024-01-01T00:00:40Z');
    c.advance(2_000);
    expect(c.get('Pod', 'web-0')).toBeUndefined();
  });

  it('moves the clock only when asked, and runs nothing before its time', () => {
    const c = new Cluster({ startTime: '2025-06-01T12:00:00Z' });
    expect(c.objects()).toEqual([]);
    c.addNodes(nodes);
    c.apply([createPod('web-0')]);
    expect(c.nowMs).toBe(0);
    c.advance(4_999);
    expect(c.get<PodObj>('Pod', 'web-0')?.status?.containerStatuses?.[0]?.state?.running).toBeUndefined();
    c.advance(0);
    expect(c.nowMs).toBe(4_999);
    expect(c.objects()).toHaveLength(3);
  });

  it("queues a shell's own events with the model's, in time order, and leaves them to the shell", () => {
    const c = new Cluster<{ type: 'tick'; n: number }>({ resolutionMs: 1000 });
    c.addNodes(nodes);
    c.apply([createPod('web-0')]); // its image pull is due at 5 s
    c.scheduleAt(4_200, { type: 'tick', n: 1 }); // rounded up to 5 s, after the pull
    c.scheduleAt(0, { type: 'tick', n: 0 });
    const order: string[] = [];
    for (let e = c.queue.pop(); e; e = c.queue.pop()) {
      order.push(`${e.time}:${e.payload.type}`);
      if (e.payload.type === 'tick') expect(c.handle(e.payload)).toBe(false);
      else if (e.payload.type === 'imagePulled') {
        c.clock.advanceTo(e.time);
        expect(c.handle(e.payload)).toBe(true);
        break;
      }
    }
    expect(order).toEqual(['0:tick', '5000:imagePulled']);
    expect(c.queue.pop()?.payload).toEqual({ type: 'tick', n: 1 });
  });

  it('keeps stored objects frozen when asked, and never mutates the actions it is given', () => {
    const c = createCluster({ nodes, freezeObjects: true });
    const actions = deepFreeze([createPod('web-0')]);
    c.apply(actions);
    c.advance(10_000);
    expect(Object.isFrozen(c.get('Pod', 'web-0'))).toBe(true);
  });
});
