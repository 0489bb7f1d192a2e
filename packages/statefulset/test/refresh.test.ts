// The per-pod in-place refresh of a round (statefulset.md R11.3, core.md §2.5) around its fast
// path: a pod with nothing pending is left as it is, a pending batch of images is applied, a
// not-yet-True InPlaceUpdateReady condition is written, and a state annotation that does not
// decode is not reported as an error (README, "Refresh fast path").
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { NOW, podActions, run, type Scene, scene } from './scene';

const STATE = 'apps.kruise.io/inplace-update-state';

/** A converged one-pod set (Parallel, in place) whose pod `foo-0` is rewritten by `edit`. */
function onePod(edit: (p: Pod) => Pod): Scene {
  const s = scene(
    {
      replicas: 1,
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
    },
    [{ ordinal: 0 }],
    { currentIsNew: true },
  );
  return { ...s, pods: [edit(s.pods[0])] };
}

/** The state of an in-place update to the scene's new revision whose first batch (main) is done. */
function stateText(s: Scene, extra: object): string {
  return JSON.stringify({
    revision: s.newRev.metadata?.name,
    updateTimestamp: '2024-01-01T00:30:00Z',
    lastContainerStatuses: { main: { imageID: 'sha-main-old' } },
    updateImages: true,
    ...extra,
  });
}

/** The pod with two containers, both running and ready, main on a new image ID. */
function twoContainers(p: Pod, annotations: Record<string, string>): Pod {
  return {
    ...p,
    metadata: { ...p.metadata, annotations },
    spec: {
      ...p.spec!,
      containers: [
        { name: 'main', image: 'nginx:new' },
        { name: 'side', image: 'side:1' },
      ],
    },
    status: {
      ...p.status,
      containerStatuses: [
        { name: 'main', image: 'nginx:new', imageID: 'sha-main-new', ready: true, restartCount: 1 },
        { name: 'side', image: 'side:1', imageID: 'sha-side-1', ready: true, restartCount: 0 },
      ],
    },
  };
}

describe('R11.3 the in-place refresh of each pod', () => {
  it('a finished update with nothing pending: nothing written', () => {
    let s = onePod((p) => p);
    s = onePod((p) => twoContainers(p, { [STATE]: stateText(s, {}) }));
    const r = run(s);
    expect(r.errors).toEqual([]);
    expect(podActions(r.actions)).toEqual([]);
  });

  it('a pending batch of images is applied once the current batch is done (core.md R2.5.2)', () => {
    let s = onePod((p) => p);
    s = onePod((p) =>
      twoContainers(p, { [STATE]: stateText(s, { nextContainerImages: { side: 'side:2' } }) }),
    );
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'LifecycleTransition', 'foo-0']]);
    const patch = r.actions.find((a) => a.verb === 'patch' && a.target.name === 'foo-0');
    expect(JSON.stringify(patch)).toContain('side:2');
  });

  it('InPlaceUpdateReady not yet True: the refresh sets it True (core.md R2.5.3)', () => {
    const s = onePod((p) => ({
      ...p,
      status: {
        ...p.status,
        conditions: (p.status?.conditions ?? []).map((c) =>
          c.type === 'InPlaceUpdateReady' ? { ...c, status: 'False', reason: 'StartInPlaceUpdate' } : c,
        ),
      },
    }));
    const r = run(s);
    expect(podActions(r.actions)).toEqual([['patch', 'LifecycleTransition', 'foo-0']]);
    const patch = r.actions.find((a) => a.verb === 'patch' && a.target.name === 'foo-0') as {
      patch: { status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] } };
    };
    const ready = patch.patch.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady');
    expect(ready).toMatchObject({ status: 'True', lastTransitionTime: NOW });
  });

  it('a state annotation that does not decode, with nothing else to do: no error, nothing written', () => {
    const s = onePod((p) => ({
      ...p,
      metadata: { ...p.metadata, annotations: { [STATE]: '{"nextContainer' } },
    }));
    const r = run(s);
    expect(r.errors).toEqual([]);
    expect(r.actions.filter((a) => a.verb === 'event' && a.type === 'Warning')).toEqual([]);
    expect(podActions(r.actions)).toEqual([]);
  });
});
