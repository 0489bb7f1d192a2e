// Property (docs/reference/uniteddeployment.md §4.4, §5): under Adaptive scheduling, replicas move away from a
// subset whose pods stay unschedulable, and flow back (up to its minimum) once it recovers. Runs the
// reconcile in a tiny world: a CloneSet-like workload controller and a per-zone capacity scheduler.
import type { KubeObject } from '@kruise-ts/api';
import { applyActions } from '@kruise-ts/core/apply';
import fc from 'fast-check';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  LABEL_SUBSET_NAME,
  reconcileUnitedDeployment,
  type UnitedDeploymentControllerState,
  type UnitedDeploymentObject,
} from '../src/index';
import { APP, at } from './fixtures';

const RC = 10;
const UL = 100;
const TICK = 5;

interface World {
  objects: KubeObject[];
  capacity: Record<string, number>;
  state?: UnitedDeploymentControllerState;
  seq: number;
}

const isPod = (o: KubeObject) => o.kind === 'Pod';
const podsOf = (w: World, owner: KubeObject) =>
  w.objects.filter((o) => isPod(o) && o.metadata.ownerReferences?.[0]?.uid === owner.metadata.uid) as Pod[];
const isRunning = (p: Pod) => p.status?.phase === 'Running';

function ud(total: number, minA: number, maxA: number | undefined): UnitedDeploymentObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'web', namespace: 'ns', uid: 'ud-uid', generation: 1 },
    spec: {
      replicas: total,
      selector: { matchLabels: APP },
      template: {
        cloneSetTemplate: {
          metadata: { labels: APP },
          spec: {
            template: {
              metadata: { labels: APP },
              spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
            },
          },
        },
      },
      topology: {
        scheduleStrategy: {
          type: 'Adaptive',
          adaptive: { rescheduleCriticalSeconds: RC, unschedulableLastSeconds: UL },
        },
        subsets: [
          { name: 'a', minReplicas: minA, ...(maxA === undefined ? {} : { maxReplicas: maxA }) },
          { name: 'b', minReplicas: 0 },
        ],
      },
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'Manual', manualUpdate: {} },
    },
  };
}

/** The workload controllers and the scheduler: pods follow spec.replicas (unready first out), bind per zone capacity. */
function runWorld(w: World, now: string): void {
  const workloads = w.objects.filter((o) => o.kind === 'CloneSet');
  let objects = w.objects;
  for (const wl of workloads) {
    const zone = wl.metadata.labels?.[LABEL_SUBSET_NAME] ?? '';
    const pods = podsOf(w, wl);
    const want = (wl.spec as { replicas: number }).replicas;
    let keep = [...pods].sort((x, y) => Number(isRunning(y)) - Number(isRunning(x)));
    if (keep.length > want) {
      const drop = new Set(keep.slice(want).map((p) => p.metadata?.name));
      objects = objects.filter((o) => !drop.has(o.metadata.name));
      keep = keep.slice(0, want);
    }
    const template = (wl.spec as any).template;
    for (let i = keep.length; i < want; i++) {
      w.seq++;
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${zone}-pod-${w.seq}`,
          namespace: 'ns',
          uid: `pod-${w.seq}`,
          creationTimestamp: now,
          labels: { ...template.metadata.labels },
          ownerReferences: [
            {
              apiVersion: wl.apiVersion,
              kind: wl.kind,
              name: wl.metadata.name!,
              uid: wl.metadata.uid!,
              controller: true,
            },
          ],
        },
        spec: { containers: template.spec.containers },
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
      };
      objects = [...objects, pod as KubeObject];
    }
  }
  // scheduler: per zone, bind pending pods while capacity remains
  const running: Record<string, number> = {};
  for (const o of objects)
    if (isPod(o) && isRunning(o as Pod))
      running[o.metadata.labels![LABEL_SUBSET_NAME]] =
        (running[o.metadata.labels![LABEL_SUBSET_NAME]] ?? 0) + 1;
  objects = objects.map((o) => {
    if (!isPod(o) || isRunning(o as Pod)) return o;
    const zone = o.metadata.labels![LABEL_SUBSET_NAME];
    if ((running[zone] ?? 0) >= (w.capacity[zone] ?? Number.POSITIVE_INFINITY)) return o;
    running[zone] = (running[zone] ?? 0) + 1;
    return {
      ...o,
      spec: { ...(o.spec as object), nodeName: `${zone}-node` },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    };
  });
  w.objects = objects;
  // workload status
  w.objects = w.objects.map((o) => {
    if (o.kind !== 'CloneSet') return o;
    const pods = podsOf(w, o);
    return { ...o, status: { replicas: pods.length, readyReplicas: pods.filter(isRunning).length } };
  });
}

function reconcile(w: World, now: string): UnitedDeploymentObject {
  for (let i = 0; i < 6; i++) {
    const u = w.objects.find((o) => o.kind === 'UnitedDeployment') as UnitedDeploymentObject;
    const r = reconcileUnitedDeployment({
      unitedDeployment: u,
      subsets: w.objects.filter((o) => o.kind === 'CloneSet'),
      pods: w.objects.filter(isPod) as Pod[],
      revisions: w.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as ControllerRevision[],
      now,
      controllerState: w.state,
    });
    w.state = r.controllerState;
    const writes = r.actions.filter((a) => a.verb !== 'event');
    if (writes.length === 0) return u;
    w.seq++;
    w.objects = applyActions(w.objects, writes, now, { seed: w.seq }).filter((o) => o.kind !== 'Event');
  }
  return w.objects.find((o) => o.kind === 'UnitedDeployment') as UnitedDeploymentObject;
}

function advance(w: World, from: number, to: number): UnitedDeploymentObject {
  let u = w.objects[0] as UnitedDeploymentObject;
  for (let t = from; t <= to; t += TICK) {
    u = reconcile(w, at(t));
    runWorld(w, at(t));
  }
  return u;
}

describe('Adaptive moves replicas away from an unschedulable subset and back when it recovers (§4.4)', () => {
  it('property over totals, bounds and the squeezed capacity', () => {
    const input = fc
      .record({
        total: fc.integer({ min: 3, max: 16 }),
        minA: fc.integer({ min: 1, max: 16 }),
        extra: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        cap: fc.nat(),
      })
      .filter(({ total, minA }) => minA <= total)
      .map(({ total, minA, extra, cap }) => ({
        total,
        minA,
        maxA: extra === undefined ? undefined : minA + extra,
        capA: cap % minA,
      }));
    fc.assert(
      fc.property(input, ({ total, minA, maxA, capA }) => {
        const w: World = { objects: [ud(total, minA, maxA) as KubeObject], capacity: { a: capA }, seq: 0 };
        const initialA = Math.min(maxA ?? total, total);
        // Phase 1: zone a holds only capA pods; after RC its pending pods time out.
        let u = advance(w, 0, 40);
        const alloc1 = u.status!.subsetReplicas!;
        expect(alloc1.a + alloc1.b).toBe(total);
        expect(alloc1.a).toBeLessThanOrEqual(capA);
        expect(alloc1.b).toBeGreaterThanOrEqual(total - initialA + (initialA - capA));
        expect(u.status!.subsetStatuses!.find((s) => s.name === 'a')!.conditions![0]).toMatchObject({
          status: 'False',
          reason: 'reschedule',
        });
        expect(w.objects.filter((o) => isPod(o) && !isRunning(o as Pod))).toHaveLength(0);
        // Phase 2: capacity returns; after the unschedulable window a gets back to its minimum.
        w.capacity.a = Number.POSITIVE_INFINITY;
        u = advance(w, 45, 40 + UL + 40);
        const alloc2 = u.status!.subsetReplicas!;
        expect(alloc2.a + alloc2.b).toBe(total);
        expect(alloc2.a).toBeGreaterThanOrEqual(minA);
        expect(u.status!.subsetStatuses!.find((s) => s.name === 'a')!.conditions![0]).toMatchObject({
          status: 'True',
          reason: 'recover',
        });
        const runningA = w.objects.filter(
          (o) => isPod(o) && isRunning(o as Pod) && o.metadata.labels![LABEL_SUBSET_NAME] === 'a',
        );
        expect(runningA).toHaveLength(alloc2.a);
      }),
      { numRuns: 25 },
    );
  });
});
