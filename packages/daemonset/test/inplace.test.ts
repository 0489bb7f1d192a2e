// docs/reference/daemonset.md §8 in-place update (InPlaceIfPossible) and §6 step 3.
import type { DaemonSet } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { newDaemonSetRevision, reconcileDaemonSet, revisionHash } from '../src';
import { iso, makeDaemonSet, makeNode, makePod, podCounts } from './helpers';

const T = 10_000;
const strategy = (maxUnavailable: number) =>
  ({
    type: 'RollingUpdate',
    rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable, maxSurge: 0 },
  }) as const;

function setup(
  opts: { gate?: boolean; env?: boolean; burst?: number; maxUnavailable?: number; nodes?: number } = {},
) {
  const v1 = makeDaemonSet({ image: 'img:1', updateStrategy: strategy(opts.maxUnavailable ?? 1) });
  const rev1 = newDaemonSetRevision(v1, 0, 1);
  const v2 = makeDaemonSet({
    image: 'img:2',
    updateStrategy: strategy(opts.maxUnavailable ?? 1),
    ...(opts.burst !== undefined ? { burstReplicas: opts.burst } : {}),
  });
  if (opts.env) v2.spec.template.spec!.containers[0].env = [{ name: 'A', value: '1' }];
  const nodes = Array.from({ length: opts.nodes ?? 1 }, (_, i) => makeNode(`n${i}`));
  const pods = nodes.map((n) => {
    const p = makePod(v1, `${n.metadata!.name}-p`, n.metadata!.name!, revisionHash(rev1), {
      ready: true,
      readySince: 1,
      created: 1,
    });
    p.spec!.containers = [{ name: 'main', image: 'img:1' }];
    if (opts.gate !== false) {
      p.spec!.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
      p.status!.conditions!.push(
        { type: 'InPlaceUpdateReady', status: 'True' },
        { type: 'ContainersReady', status: 'True' },
      );
    }
    p.status!.containerStatuses = [
      {
        name: 'main',
        image: 'img:1',
        imageID: 'sha-1',
        ready: true,
        restartCount: 0,
        containerID: 'c1',
      } as any,
    ];
    return p;
  });
  return { v2, rev1, nodes, pods };
}

function run(ds: DaemonSet, s: ReturnType<typeof setup>, pods: Pod[] = s.pods, now = T) {
  return reconcileDaemonSet(
    deepFreeze({ daemonSet: ds, nodes: s.nodes, pods, revisions: [s.rev1], now: iso(now) }),
  );
}

const inPlace = (a: Action[]) => a.filter((x) => x.reason === 'InPlaceUpdate');

describe('§8 in-place update', () => {
  it('8.1/8.2: an old pod with the gate and an image-only change is patched in place, not deleted', () => {
    const s = setup();
    const r = run(s.v2, s);
    expect(podCounts(r.actions)).toEqual({ creates: 0, deletes: 0 });
    const patch = inPlace(r.actions).find((a) => a.verb === 'patch') as any;
    expect(patch.patch.spec.containers[0].image).toBe('img:2');
    expect(patch.patch.metadata.labels['controller-revision-hash']).toBe(r.status.daemonSetHash);
    const status = inPlace(r.actions).find((a) => a.verb === 'updateStatus') as any;
    expect(status.status.conditions.find((c: any) => c.type === 'InPlaceUpdateReady')).toMatchObject({
      status: 'False',
      reason: 'StartInPlaceUpdate',
    });
    expect(r.actions.find((a) => a.verb === 'event')).toMatchObject({
      reason: 'SuccessfulUpdatePodInPlace',
      type: 'Normal',
    });
    // §8.4: the pod is now updated but not ready, hence not available.
    expect([r.status.updatedNumberScheduled, r.status.numberReady, r.status.numberAvailable]).toEqual([
      1, 0, 0,
    ]);
  });

  it('8.1: a pod without the InPlaceUpdateReady gate is deleted as usual', () => {
    const s = setup({ gate: false });
    const r = run(s.v2, s);
    expect(podCounts(r.actions).deletes).toBe(1);
    expect(inPlace(r.actions)).toEqual([]);
  });

  it('8.1: a change beyond images (an env var added) means delete', () => {
    const s = setup({ env: true });
    expect(podCounts(run(s.v2, s).actions).deletes).toBe(1);
  });

  it('8.2: at most burst pods are updated in place per sync; the others wait (not deleted)', () => {
    const s = setup({ burst: 1, maxUnavailable: 3, nodes: 3 });
    const r = run(s.v2, s);
    expect(inPlace(r.actions).filter((a) => a.verb === 'patch')).toHaveLength(1);
    expect(podCounts(r.actions).deletes).toBe(0);
  });

  it('8.3: once the new container runs, refresh sets InPlaceUpdateReady True', () => {
    const s = setup();
    const r = run(s.v2, s);
    // Apply the in-place writes, then the kubelet's report of the restarted container.
    const pod = structuredClone(s.pods[0]) as any;
    for (const a of inPlace(r.actions) as any[]) {
      if (a.verb === 'updateStatus') pod.status = a.status;
      if (a.verb === 'patch') {
        pod.metadata.labels = { ...pod.metadata.labels, ...a.patch.metadata.labels };
        pod.metadata.annotations = { ...pod.metadata.annotations, ...a.patch.metadata.annotations };
        pod.spec = { ...pod.spec, ...a.patch.spec };
      }
    }
    pod.status.containerStatuses = [
      { name: 'main', image: 'img:2', imageID: 'sha-2', ready: true, restartCount: 1, containerID: 'c2' },
    ];
    const next = run({ ...s.v2, status: r.status }, s, [pod], T + 5);
    const refresh = next.actions.find(
      (a) => a.verb === 'updateStatus' && a.reason === 'InPlaceRefresh',
    ) as any;
    expect(refresh.status.conditions.find((c: any) => c.type === 'InPlaceUpdateReady').status).toBe('True');
  });

  it('§6 step 3: pods created under InPlaceIfPossible carry the InPlaceUpdateReady readiness gate', () => {
    const s = setup();
    const r = reconcileDaemonSet({ daemonSet: s.v2, nodes: [makeNode('fresh')], pods: [], now: iso(T) });
    const pod = (r.actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any).object as Pod;
    expect(pod.spec?.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
  });
});
