// docs/reference/daemonset.md §10 status and §11 requeue.
import type { DaemonSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileDaemonSet } from '../src';
import { iso, makeDaemonSet, makeNode, makePod } from './helpers';

const T = 10_000;

function status(ds: DaemonSet, nodes: Node[], pods: Pod[]) {
  return reconcileDaemonSet(deepFreeze({ daemonSet: ds, nodes, pods, now: iso(T) }));
}

function hashOf(ds: DaemonSet): string {
  return reconcileDaemonSet({ daemonSet: ds, nodes: [], pods: [], now: iso(T) }).status.daemonSetHash;
}

describe('§10 status fields', () => {
  const ds = makeDaemonSet({ updateStrategy: { type: 'OnDelete' }, minReadySeconds: 10, generation: 7 });
  const H = hashOf(ds);
  const nodes = [
    makeNode('a'),
    makeNode('b'),
    makeNode('c'),
    makeNode('d'),
    makeNode('t', {}, [{ key: 'x', effect: 'NoSchedule' }]), // not desired, keeps its pod
    makeNode('e', { other: 'x' }),
  ];
  const pods = [
    makePod(ds, 'a1', 'a', H, { ready: true, readySince: 1, created: 1 }), // ready, available, updated
    makePod(ds, 'b1', 'b', 'old', { ready: true, readySince: T - 5, created: 1 }), // ready, not yet available
    makePod(ds, 'c1', 'c', 'old', { ready: false, created: 1 }), // oldest on c: not ready
    makePod(ds, 'c2', 'c', H, { ready: true, readySince: 1, created: 2 }), // surge-like second pod: not inspected
    makePod(ds, 't1', 't', H, { ready: true, readySince: 1, created: 1 }), // misscheduled (no shouldRun)
  ];
  const r = status(ds, nodes, pods);

  it('desiredNumberScheduled = nodes with shouldRun (a, b, c, d, e → e only if no selector; here 5)', () =>
    expect(r.status.desiredNumberScheduled).toBe(5));
  it('currentNumberScheduled = desired nodes with ≥ 1 pod (d gets its pod created in this sync too)', () =>
    expect(r.status.currentNumberScheduled).toBe(5));
  it('numberMisscheduled = non-desired nodes with a pod (tainted node t)', () =>
    expect(r.status.numberMisscheduled).toBe(1));
  it('numberReady counts the oldest pod only (a, b; not c whose oldest is not ready)', () =>
    expect(r.status.numberReady).toBe(2));
  it('numberAvailable = oldest ready and daemon-available (only a: b is ready for 5 s < 10 s)', () =>
    expect(r.status.numberAvailable).toBe(1));
  it('updatedNumberScheduled = desired nodes whose oldest pod is updated (a, and the new pods on d and e)', () =>
    expect(r.status.updatedNumberScheduled).toBe(3));
  it('numberUnavailable = desired − available', () => expect(r.status.numberUnavailable).toBe(4));
  it('daemonSetHash = H and observedGeneration = generation', () => {
    expect(r.status.daemonSetHash).toBe(H);
    expect(r.status.observedGeneration).toBe(7);
  });
  it('§10: numberReady != numberAvailable with minReadySeconds > 0 → requeue after minReadySeconds', () =>
    expect(r.requeueAfterSeconds).toBe(10));
  it('the status is written as an updateStatus action', () => {
    expect(r.actions.at(-1)).toMatchObject({
      verb: 'updateStatus',
      status: r.status,
      reason: 'UpdateStatus',
    });
  });
});

describe('§10 daemon-available and write condition', () => {
  it('a pod with the InPlaceUpdateReady gate and that condition False is ready but not daemon-available', () => {
    const ds = makeDaemonSet({ updateStrategy: { type: 'OnDelete' } });
    const H = hashOf(ds);
    const pod = makePod(ds, 'a1', 'a', H, { ready: true, readySince: 1, created: 1 });
    pod.spec!.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    pod.status!.conditions!.push({ type: 'InPlaceUpdateReady', status: 'False' });
    // An in-place update still in flight (the container still runs the old image id), so the
    // §8.3 refresh leaves the condition False.
    pod.metadata!.annotations = {
      'apps.kruise.io/inplace-update-state': JSON.stringify({
        revision: H,
        updateTimestamp: iso(1),
        lastContainerStatuses: { main: { imageID: 'id-1' } },
      }),
    };
    pod.status!.containerStatuses = [
      { name: 'main', image: 'old', imageID: 'id-1', ready: true, restartCount: 0, containerID: 'c1' } as any,
    ];
    const r = status(ds, [makeNode('a')], [pod]);
    expect([r.status.numberReady, r.status.numberAvailable]).toEqual([1, 0]);
  });

  it('unchanged counters, hash and observedGeneration → no status write', () => {
    const ds = makeDaemonSet({ updateStrategy: { type: 'OnDelete' } });
    const pod = makePod(ds, 'a1', 'a', hashOf(ds), { ready: true, readySince: 1, created: 1 });
    const first = status(ds, [makeNode('a')], [pod]);
    const again = status({ ...ds, status: first.status }, [makeNode('a')], [pod]);
    expect(again.actions.filter((a) => a.verb === 'updateStatus')).toEqual([]);
    expect(again.status).toEqual(first.status);
  });
});
