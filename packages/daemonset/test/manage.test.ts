// docs/reference/daemonset.md §5 manage phase, §6 pod template and §11 requeue, through reconcileDaemonSet.
import type { DaemonSet } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { type DaemonSetControllerState, reconcileDaemonSet } from '../src';
import { iso, makeDaemonSet, makeNode, makePod, podCounts } from './helpers';

const T = 10_000;

function run(ds: DaemonSet, nodes: Node[], pods: Pod[], now = T, controllerState?: DaemonSetControllerState) {
  const input = deepFreeze({ daemonSet: ds, nodes, pods, now: iso(now), controllerState });
  const r = reconcileDaemonSet(input);
  expect(r.errors).toEqual([]);
  return r;
}

const creates = (a: Action[]) => a.filter((x) => x.verb === 'create' && x.object.kind === 'Pod') as any[];
const deletes = (a: Action[]) => a.filter((x) => x.verb === 'delete' && x.target.kind === 'Pod') as any[];

/** The hash the DaemonSet's revision gets (read from a first reconcile). */
function hashOf(ds: DaemonSet): string {
  return reconcileDaemonSet({ daemonSet: ds, nodes: [], pods: [], now: iso(T) }).status.daemonSetHash;
}

describe('§5.1 per-node cases', () => {
  it('M1: a shouldRun node without pods needs one; §6 shape of the created pod', () => {
    const ds = makeDaemonSet();
    const r = run(ds, [makeNode('n1')], []);
    const [c] = creates(r.actions);
    const pod = c.object as Pod;
    expect(c.reason).toBe('CreateDaemonPod');
    expect(pod.metadata?.name).toMatch(/^foo-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pod.metadata?.generateName).toBe('foo-');
    expect(pod.metadata?.labels).toEqual({ app: 'foo', 'controller-revision-hash': r.status.daemonSetHash });
    expect(pod.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'DaemonSet',
        name: 'foo',
        uid: 'foo-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
    });
    expect(pod.spec?.tolerations).toHaveLength(6);
    expect(pod.spec?.readinessGates).toBeUndefined();
  });

  it('M1 needs "no entry at all": a node with only a deleting pod gets nothing', () => {
    const ds = makeDaemonSet();
    const pod = makePod(ds, 'old', 'n1', hashOf(ds), { deleting: true, created: 1 });
    expect(podCounts(run(ds, [makeNode('n1')], [pod]).actions)).toEqual({ creates: 0, deletes: 0 });
  });

  it('M2 without surge: two running pods → the oldest is kept (nodeName first, then creation time)', () => {
    const ds = makeDaemonSet();
    const h = hashOf(ds);
    const a = makePod(ds, 'a', 'n1', h, { ready: true, created: 200 });
    const b = makePod(ds, 'b', 'n1', h, { ready: true, created: 100 });
    expect(deletes(run(ds, [makeNode('n1')], [a, b]).actions).map((d) => d.target.name)).toEqual(['a']);
    const c = makePod(ds, 'c', 'n1', h, { ready: true, created: 300, nodeName: true });
    expect(deletes(run(ds, [makeNode('n1')], [a, b, c]).actions).map((d) => d.target.name)).toEqual([
      'b',
      'a',
    ]);
  });

  it('M3: a node that must not run the pod (untolerated NoExecute) loses every non-deleting pod', () => {
    const ds = makeDaemonSet();
    const h = hashOf(ds);
    const node = makeNode('n1', {}, [{ key: 'x', effect: 'NoExecute' }]);
    const pods = [makePod(ds, 'a', 'n1', h, { ready: true }), makePod(ds, 'b', 'n1', h, { deleting: true })];
    const r = run(ds, [node], pods);
    expect(deletes(r.actions).map((d) => [d.target.name, d.reason])).toEqual([['a', 'Misscheduled']]);
    expect(r.status.numberMisscheduled).toBe(1);
  });

  it('a NoSchedule-tainted node keeps its pod (shouldContinueRunning) and gets none if empty', () => {
    const ds = makeDaemonSet();
    const node = makeNode('n1', {}, [{ key: 'x', effect: 'NoSchedule' }]);
    expect(podCounts(run(ds, [node], [makePod(ds, 'a', 'n1', hashOf(ds), { ready: true })]).actions)).toEqual(
      {
        creates: 0,
        deletes: 0,
      },
    );
    expect(podCounts(run(ds, [node], []).actions)).toEqual({ creates: 0, deletes: 0 });
  });
});

describe('§5.2 failed pods and §5.5 back-off', () => {
  const ds = makeDaemonSet();
  const h = hashOf(ds);
  const failed = makePod(ds, 'f', 'n1', h, { phase: 'Failed', created: 1 });

  it('a failed pod is deleted with a FailedDaemonPod warning; no new pod in the same sync (Q5)', () => {
    const r = run(ds, [makeNode('n1')], [failed]);
    expect(deletes(r.actions).map((d) => d.reason)).toEqual(['FailedDaemonPod']);
    expect(creates(r.actions)).toHaveLength(0);
    expect(r.actions.find((a) => a.verb === 'event')).toMatchObject({
      type: 'Warning',
      reason: 'FailedDaemonPod',
    });
    expect(r.controllerState).toEqual({
      failedPodsBackoff: {
        'foo-uid/0/n1': { backoffSeconds: 1, lastUpdate: new Date(T * 1000).toISOString() },
      },
    });
  });

  it('inside the 1 s window the failed pod is ignored and a requeue after the delay is requested', () => {
    const first = run(ds, [makeNode('n1')], [failed], T);
    const again = run(ds, [makeNode('n1')], [failed], T + 0.5, first.controllerState);
    expect(deletes(again.actions)).toHaveLength(0);
    expect(again.requeueAfterSeconds).toBe(1);
  });

  it('each deletion doubles the window (1 s, 2 s, 4 s), capped at 15 min', () => {
    let state: DaemonSetControllerState | undefined;
    const windows: number[] = [];
    for (const t of [T, T + 2, T + 5]) {
      const r = run(ds, [makeNode('n1')], [failed], t, state);
      expect(deletes(r.actions)).toHaveLength(1);
      state = r.controllerState;
      windows.push(state?.failedPodsBackoff?.['foo-uid/0/n1']?.backoffSeconds ?? -1);
    }
    expect(windows).toEqual([1, 2, 4]);
    const capped: DaemonSetControllerState = {
      failedPodsBackoff: { 'foo-uid/0/n1': { backoffSeconds: 900, lastUpdate: iso(T) } },
    };
    const s = run(ds, [makeNode('n1')], [failed], T + 901, capped).controllerState;
    expect(s?.failedPodsBackoff?.['foo-uid/0/n1']?.backoffSeconds).toBe(900);
  });
});

describe('§5.2 with surge (allowSurge)', () => {
  const surge = makeDaemonSet({
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
  });
  const h = hashOf(surge);

  it('old pod not ready → deleted even though the new one is not available', () => {
    const pods = [
      makePod(surge, 'old', 'n1', 'v0', { ready: false, created: 1 }),
      makePod(surge, 'new', 'n1', h, { created: 2 }),
    ];
    expect(deletes(run(surge, [makeNode('n1')], pods).actions).map((d) => d.target.name)).toEqual(['old']);
  });

  it('new pod available → the old one goes (surge hand-over)', () => {
    const pods = [
      makePod(surge, 'old', 'n1', 'v0', { ready: true, created: 1 }),
      makePod(surge, 'new', 'n1', h, { ready: true, readySince: 2, created: 2 }),
    ];
    expect(deletes(run(surge, [makeNode('n1')], pods).actions).map((d) => [d.target.name, d.reason])).toEqual(
      [['old', 'SurgeHandover']],
    );
  });

  it('new pod ready but not yet for minReadySeconds → requeue after the remaining wait', () => {
    const ds = { ...surge, spec: { ...surge.spec, minReadySeconds: 30 } };
    const pods = [
      makePod(ds, 'old', 'n1', 'v0', { ready: true, created: 1 }),
      makePod(ds, 'new', 'n1', hashOf(ds), { ready: true, readySince: T - 10, created: 2 }),
    ];
    const r = run(ds, [makeNode('n1')], pods);
    expect(deletes(r.actions)).toHaveLength(0);
    expect(r.requeueAfterSeconds).toBe(20);
  });

  it('§11 boundary: exactly minReadySeconds after Ready (not yet available, strict <) → requeue after 1 s, not 0', () => {
    const ds = { ...surge, spec: { ...surge.spec, minReadySeconds: 30 } };
    const pods = [
      makePod(ds, 'old', 'n1', 'v0', { ready: true, created: 1 }),
      makePod(ds, 'new', 'n1', hashOf(ds), { ready: true, readySince: T - 30, created: 2 }),
    ];
    const r = run(ds, [makeNode('n1')], pods);
    expect(deletes(r.actions)).toHaveLength(0);
    expect(r.requeueAfterSeconds).toBe(1);
  });

  it('more than one updated / old running pod: the first of each kind is kept, the others deleted', () => {
    const pods = [
      makePod(surge, 'o1', 'n1', 'v0', { ready: true, created: 1 }),
      makePod(surge, 'n1p', 'n1', h, { created: 2 }),
      makePod(surge, 'o2', 'n1', 'v0', { ready: true, created: 3 }),
      makePod(surge, 'n2p', 'n1', h, { created: 4 }),
    ];
    expect(
      deletes(run(surge, [makeNode('n1')], pods).actions)
        .map((d) => d.target.name)
        .sort(),
    ).toEqual(['n2p', 'o2']);
  });

  it('zero running pods and shouldRun → a pod is created in the same sync (only a failed one existed)', () => {
    const failed = makePod(surge, 'f', 'n1', h, { phase: 'Failed', created: 1 });
    const r = run(surge, [makeNode('n1')], [failed]);
    expect(podCounts(r.actions)).toEqual({ creates: 1, deletes: 1 });
  });
});

describe('§5.3, §5.4, §5.6 and Q6', () => {
  it('§5.3: a pod bound by affinity to a vanished node is deleted; one with spec.nodeName is left to pod GC', () => {
    const ds = makeDaemonSet();
    const h = hashOf(ds);
    const pods = [
      makePod(ds, 'aff', 'gone', h, { ready: true }),
      makePod(ds, 'bound', 'gone2', h, { ready: true, nodeName: true }),
    ];
    expect(deletes(run(ds, [], pods).actions).map((d) => d.target.name)).toEqual(['aff']);
  });

  it('§5.4: progressive annotation + partition 3 on 5 empty nodes → only 2 pods, on the first sorted names', () => {
    const ds = makeDaemonSet({
      annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, partition: 3 } },
    });
    const nodes = ['node-5', 'node-10', 'node-11', 'node-2', 'node-3'].map((n) => makeNode(n));
    const names = creates(run(ds, nodes, []).actions).map(
      (c) =>
        c.object.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
          .nodeSelectorTerms[0].matchFields[0].values[0],
    );
    expect(names).toEqual(['node-10', 'node-11']);
  });

  it('§5.4: without the annotation the partition does not limit creation', () => {
    const ds = makeDaemonSet({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, partition: 3 } },
    });
    expect(
      creates(
        run(
          ds,
          ['a', 'b', 'c'].map((n) => makeNode(n)),
          [],
        ).actions,
      ),
    ).toHaveLength(3);
  });

  it('§5.6: burstReplicas 2 limits creates per sync', () => {
    const ds = makeDaemonSet({ burstReplicas: 2 });
    expect(
      creates(
        run(
          ds,
          ['a', 'b', 'c', 'd'].map((n) => makeNode(n)),
          [],
        ).actions,
      ),
    ).toHaveLength(2);
  });

  it('Q4: percentage burstReplicas on a brand-new DaemonSet creates nothing in the first sync', () => {
    const ds = makeDaemonSet({ burstReplicas: '100%' });
    const first = run(
      ds,
      ['a', 'b'].map((n) => makeNode(n)),
      [],
    );
    expect(creates(first.actions)).toHaveLength(0);
    const second = run(
      { ...ds, status: first.status },
      ['a', 'b'].map((n) => makeNode(n)),
      [],
    );
    expect(creates(second.actions)).toHaveLength(2);
  });

  it('Q6: paused stops only the rolling update; a new node still gets a pod', () => {
    const ds = makeDaemonSet({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 5, paused: true } },
    });
    const old = makePod(ds, 'old', 'n1', 'v0', { ready: true, created: 1 });
    const r = run(ds, [makeNode('n1'), makeNode('n2')], [old]);
    expect(podCounts(r.actions)).toEqual({ creates: 1, deletes: 0 });
  });

  it('OnDelete: old pods are never replaced by the controller', () => {
    const ds = makeDaemonSet({ updateStrategy: { type: 'OnDelete' } });
    const old = makePod(ds, 'old', 'n1', 'v0', { ready: true, created: 1 });
    expect(podCounts(run(ds, [makeNode('n1')], [old]).actions)).toEqual({ creates: 0, deletes: 0 });
  });
});
