// docs/reference/daemonset.md §9 lifecycle preDelete hook (docs/reference/core.md R3.2, R3.7).
import type { DaemonSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileDaemonSet } from '../src';
import { iso, makeDaemonSet, makeNode, makePod, podCounts } from './helpers';

const T = 10_000;
const hooked = (
  ds: DaemonSet,
  name: string,
  node: string,
  hash: string,
  extra: Record<string, string> = {},
) =>
  makePod(ds, name, node, hash, {
    ready: true,
    readySince: 1,
    created: 1,
    labels: { hold: 'true', ...extra },
  });

function run(ds: DaemonSet, pods: Pod[], nodes = [makeNode('n1')]) {
  return reconcileDaemonSet(deepFreeze({ daemonSet: ds, nodes, pods, now: iso(T) }));
}

const ds = makeDaemonSet({
  lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } },
  updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
});

describe('§9 preDelete', () => {
  it('step 3: a hooked pod chosen by the rolling update is marked PreparingDelete (+ timestamp), not deleted', () => {
    const r = run(ds, [hooked(ds, 'old', 'n1', 'v0')]);
    expect(podCounts(r.actions).deletes).toBe(0);
    const patch = r.actions.find((a) => a.verb === 'patch') as any;
    expect(patch.reason).toBe('PreparingDelete');
    expect(patch.patch).toEqual({
      metadata: {
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': iso(T) },
      },
    });
  });

  it('step 2: a pod carrying none of the handlers is deleted now', () => {
    const pod = makePod(ds, 'old', 'n1', 'v0', { ready: true, readySince: 1, created: 1 });
    expect(podCounts(run(ds, [pod]).actions).deletes).toBe(1);
  });

  it('step 4: a pre-deleting pod still hooked waits; released by the user, it is deleted', () => {
    const marked = hooked(ds, 'old', 'n1', 'v0', { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' });
    const waiting = run(ds, [marked]);
    expect(podCounts(waiting.actions)).toEqual({ creates: 0, deletes: 0 });
    const released = {
      ...marked,
      metadata: { ...marked.metadata, labels: { ...marked.metadata!.labels, hold: 'false' } },
    };
    const r = run(ds, [released]);
    expect(r.actions.filter((a) => a.verb === 'delete').map((a) => a.reason)).toEqual(['PreDelete']);
  });

  it('finalizersHandler: a pod with one of the finalizers is hooked', () => {
    const d = makeDaemonSet({ lifecycle: { preDelete: { finalizersHandler: ['example.com/hold'] } } });
    const pod = makePod(d, 'old', 'n1', 'v0', {
      ready: true,
      readySince: 1,
      created: 1,
      finalizers: ['example.com/hold'],
    });
    const r = run(d, [pod]);
    expect(podCounts(r.actions).deletes).toBe(0);
    expect(r.actions.some((a) => a.verb === 'patch' && a.reason === 'PreparingDelete')).toBe(true);
  });

  it('markPodNotReady: the KruisePodReady condition gets the preDeleteHook not-ready message', () => {
    const d = makeDaemonSet({
      lifecycle: { preDelete: { labelsHandler: { hold: 'true' }, markPodNotReady: true } },
    });
    const pod = hooked(d, 'old', 'n1', 'v0');
    pod.spec!.readinessGates = [{ conditionType: 'KruisePodReady' }];
    pod.status!.conditions!.push({ type: 'KruisePodReady', status: 'True', message: '[]' });
    const r = run(d, [pod]);
    const write = r.actions.find((a) => a.verb === 'updateStatus' && a.target.kind === 'Pod') as any;
    expect(r.actions.some((a) => a.verb === 'patch' && a.reason === 'PreparingDelete')).toBe(true);
    const cond = write.status.conditions.find((c: any) => c.type === 'KruisePodReady');
    expect(cond.status).toBe('False');
    expect(JSON.parse(cond.message)).toEqual([{ userAgent: 'Lifecycle', key: 'preDeleteHook' }]);
  });

  it('step 5: pre-deleting pods count as absent: with surge the node gets a new pod, its old one stays', () => {
    const d = makeDaemonSet({
      lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    });
    const marked = hooked(d, 'old', 'n1', 'v0', { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' });
    expect(podCounts(run(d, [marked]).actions)).toEqual({ creates: 1, deletes: 0 });
  });

  it('manage deletions are filtered too: a hooked pod on a node that must not run it is marked', () => {
    const pod = hooked(ds, 'p', 'n1', 'v0');
    const node = makeNode('n1', {}, [{ key: 'x', effect: 'NoExecute' }]);
    const r = run(ds, [pod], [node]);
    expect(podCounts(r.actions).deletes).toBe(0);
    expect(r.actions.some((a) => a.verb === 'patch' && a.reason === 'PreparingDelete')).toBe(true);
  });
});
