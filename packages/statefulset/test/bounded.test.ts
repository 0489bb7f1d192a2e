// A reconcile's work is bounded by what it observed and by its burst of creates and deletes,
// never by `spec.replicas`, a reserved range or a partition (docs/architecture.md principle 6;
// README "Differences"): 2,147,483,647 replicas give at most `burstReplicas` creates and a
// requeue at once (`requeueAfterSeconds: 0`), and the pods left over come in later reconciles.
import type { StatefulSet } from '@kruise-ts/api';
import { type Action, DEFAULT_BURST_REPLICAS } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileStatefulSet } from '../src/reconcile';
import { NOW, type PodSpec, type Scene, scene } from './scene';

const INT32_MAX = 2147483647;

function reconcile(s: Scene, burstReplicas?: number) {
  return reconcileStatefulSet(
    deepFreeze({ statefulSet: s.set, pods: s.pods, revisions: [s.oldRev, s.newRev], pvcs: s.pvcs, now: NOW }),
    burstReplicas === undefined ? {} : { burstReplicas },
  );
}

const podCreates = (actions: readonly Action[]) =>
  actions.filter((a) => a.verb === 'create' && a.object.kind === 'Pod') as Extract<
    Action,
    { verb: 'create' }
  >[];
const podDeletes = (actions: readonly Action[]) =>
  actions.filter((a) => a.verb === 'delete' && a.target.kind === 'Pod') as Extract<
    Action,
    { verb: 'delete' }
  >[];

function pods(n: number, spec: Omit<PodSpec, 'ordinal'> = {}): PodSpec[] {
  return Array.from({ length: n }, (_, ordinal) => ({ ordinal, ...spec }));
}

describe('Advanced StatefulSet: bounded work per reconcile', () => {
  it('Parallel, 2,147,483,647 replicas, no pods: the burst of creates (ordinals 0–499) and a requeue at once', () => {
    const s = scene({ replicas: INT32_MAX, podManagementPolicy: 'Parallel' }, [], { currentIsNew: true });
    const r = reconcile(s);
    const created = podCreates(r.actions).map((a) => a.object.metadata.name);
    expect(created).toHaveLength(DEFAULT_BURST_REPLICAS);
    expect(created[0]).toBe('foo-0');
    expect(created[DEFAULT_BURST_REPLICAS - 1]).toBe(`foo-${DEFAULT_BURST_REPLICAS - 1}`);
    expect(r.requeueAfterSeconds).toBe(0);
    expect(r.errors).toEqual([]);
    // creates, their events, the revision and the status: nothing grows with the replicas
    expect(r.actions.length).toBeLessThanOrEqual(2 * DEFAULT_BURST_REPLICAS + 2);
  });

  it('the burst is an option: 7 creates, then the next 7 once they exist', () => {
    const s = scene({ replicas: 20, podManagementPolicy: 'Parallel' }, [], { currentIsNew: true });
    const r1 = reconcile(s, 7);
    expect(podCreates(r1.actions).map((a) => a.object.metadata.name)).toEqual(
      Array.from({ length: 7 }, (_, i) => `foo-${i}`),
    );
    expect(r1.requeueAfterSeconds).toBe(0);
    const s2 = scene({ replicas: 20, podManagementPolicy: 'Parallel' }, pods(7, { phase: 'Pending' }), {
      currentIsNew: true,
    });
    const r2 = reconcile(s2, 7);
    expect(podCreates(r2.actions).map((a) => a.object.metadata.name)).toEqual(
      Array.from({ length: 7 }, (_, i) => `foo-${i + 7}`),
    );
    // the last 6 fit in the burst: no requeue at once
    const s3 = scene({ replicas: 20, podManagementPolicy: 'Parallel' }, pods(14, { phase: 'Pending' }), {
      currentIsNew: true,
    });
    const r3 = reconcile(s3, 7);
    expect(podCreates(r3.actions)).toHaveLength(6);
    expect(r3.requeueAfterSeconds).toBeUndefined();
  });

  it('OrderedReady, 2,147,483,647 replicas: one create per round, as always', () => {
    const s = scene({ replicas: INT32_MAX }, [], { currentIsNew: true });
    const r = reconcile(s);
    expect(podCreates(r.actions).map((a) => a.object.metadata.name)).toEqual(['foo-0']);
    expect(r.requeueAfterSeconds).toBeUndefined();
  });

  it('a reserved range of two billion ordinals is one interval: the replicas start after it', () => {
    const s = scene(
      { replicas: 3, podManagementPolicy: 'Parallel', reserveOrdinals: [5, '0-2000000000'] },
      [],
      { currentIsNew: true },
    );
    const r = reconcile(s);
    expect(podCreates(r.actions).map((a) => a.object.metadata.name)).toEqual([
      'foo-2000000001',
      'foo-2000000002',
      'foo-2000000003',
    ]);
  });

  it('huge replicas, a reserved range to the int32 limit and a huge partition: bounded, observed pods kept', () => {
    const set: Partial<StatefulSet['spec']> = {
      replicas: INT32_MAX,
      podManagementPolicy: 'Parallel',
      reserveOrdinals: ['10-2147483647'],
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: INT32_MAX - 1, maxUnavailable: '100%', unorderedUpdate: {} },
      },
    };
    const s = scene(set, pods(5, { rev: 'old' }));
    const r = reconcile(s);
    expect(r.errors).toEqual([]);
    expect(podCreates(r.actions).length).toBeLessThanOrEqual(DEFAULT_BURST_REPLICAS);
    expect(
      podCreates(r.actions)
        .map((a) => a.object.metadata.name)
        .slice(0, 5),
    ).toEqual(['foo-5', 'foo-6', 'foo-7', 'foo-8', 'foo-9']);
    // the partition keeps every observed pod at the old revision
    expect(podDeletes(r.actions)).toEqual([]);
    expect(r.requeueAfterSeconds).toBe(0);
  });

  it('Parallel scale-in of 600 condemned pods: 500 deleted, highest ordinals first, then the other 100', () => {
    const s = scene({ replicas: 0, podManagementPolicy: 'Parallel' }, pods(600), { currentIsNew: true });
    const r = reconcile(s);
    const deleted = podDeletes(r.actions).map((a) => a.target.name);
    expect(deleted).toHaveLength(500);
    expect(deleted[0]).toBe('foo-599');
    expect(deleted[499]).toBe('foo-100');
    expect(r.requeueAfterSeconds).toBe(0);
    const rest = scene({ replicas: 0, podManagementPolicy: 'Parallel' }, pods(100), { currentIsNew: true });
    const r2 = reconcile(rest);
    expect(podDeletes(r2.actions)).toHaveLength(100);
    expect(r2.requeueAfterSeconds).toBeUndefined();
  });

  it('a ReCreate update of 600 pods with maxUnavailable 100%: 500 recreated now, the rest count as taken down', () => {
    const s = scene(
      {
        replicas: 600,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '100%' } },
      },
      pods(600, { rev: 'old' }),
    );
    const r = reconcile(s);
    const deleted = podDeletes(r.actions);
    expect(deleted).toHaveLength(500);
    expect(deleted.every((a) => a.reason === 'RecreateUpdate')).toBe(true);
    expect(r.requeueAfterSeconds).toBe(0);
  });

  it('the burst counts creates and deletes together', () => {
    // replicas 300 of 600 reserved away: 300 to create (ordinals 600–899), 300 condemned
    const s = scene(
      { replicas: 300, podManagementPolicy: 'Parallel', reserveOrdinals: ['0-299'] },
      pods(300),
      { currentIsNew: true },
    );
    const r = reconcile(s);
    expect(podCreates(r.actions).length + podDeletes(r.actions).length).toBe(DEFAULT_BURST_REPLICAS);
    expect(podCreates(r.actions)).toHaveLength(300);
    expect(r.requeueAfterSeconds).toBe(0);
  });

  it('an observed pod at a huge ordinal does not widen the work', () => {
    const far: Pod[] = scene(
      { replicas: INT32_MAX, podManagementPolicy: 'Parallel' },
      [{ ordinal: 2000000000 }],
      {
        currentIsNew: true,
      },
    ).pods;
    const s = scene({ replicas: INT32_MAX, podManagementPolicy: 'Parallel' }, [], { currentIsNew: true });
    const r = reconcile({ ...s, pods: far });
    expect(podCreates(r.actions)).toHaveLength(DEFAULT_BURST_REPLICAS);
    expect(r.status.replicas).toBe(1);
  });
});
