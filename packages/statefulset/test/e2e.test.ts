// End-to-end runs of reconcileStatefulSet in the test world (the reconcile against
// @kruise-ts/cluster's store, scheduler and kubelet): whole rollouts, reserveOrdinals scale-in
// with an in-place update, hooks, rollback, failed pods, PVC retention — the behaviour of
// §3–§15 over many rounds.
import { describe, expect, it } from 'vitest';
import { makeSet, World } from './world';

/** Reconciles and lets the cluster run 5 s per round until nothing changes (at most `max` rounds). */
function settle(w: World, max = 200): number {
  let quiet = 0;
  let i = 0;
  for (; i < max && quiet < 3; i++) {
    const before = JSON.stringify(w.objects);
    w.reconcile();
    w.advance(5);
    quiet = JSON.stringify(w.objects) === before ? quiet + 1 : 0;
  }
  return i;
}
const images = (w: World) => w.pods().map((p) => p.spec?.containers[0].image);

describe('end to end', () => {
  it('§6 / §8–§10 OrderedReady: scale up 0 → 3 one at a time, then a ReCreate rollout to the new revision', () => {
    const w = new World(makeSet({ replicas: 3 }));
    settle(w);
    expect(w.ordinals()).toEqual([0, 1, 2]);
    const creates = w.history.map(
      (h) => h.result.actions.filter((a) => a.verb === 'create' && a.object.kind === 'Pod').length,
    );
    expect(Math.max(...creates)).toBe(1);
    w.setImage('nginx:2');
    settle(w);
    expect(images(w)).toEqual(['nginx:2', 'nginx:2', 'nginx:2']);
    const st = w.set().status!;
    expect(st.currentRevision).toBe(st.updateRevision);
    expect(st).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3 });
  });

  it('R3.8 + §10.2: reserveOrdinals scales in web-2, then an in-place update with maxUnavailable 2 keeps every pod', () => {
    const spec = {
      replicas: 5,
      podManagementPolicy: 'Parallel' as const,
      updateStrategy: {
        type: 'RollingUpdate' as const,
        rollingUpdate: { maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible' as const },
      },
    };
    const w = new World(makeSet(spec));
    settle(w);
    w.updateSpec((s) => ({ ...s, replicas: 4, reserveOrdinals: [2] }));
    settle(w);
    expect(w.ordinals()).toEqual([0, 1, 3, 4]);
    const uids = w.pods().map((p) => p.metadata?.uid);
    w.setImage('nginx:2');
    let maxDown = 0;
    for (let i = 0; i < 100; i++) {
      w.reconcile();
      maxDown = Math.max(
        maxDown,
        w.pods().filter((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True')
          .length,
      );
      w.advance(5);
    }
    expect(w.pods().map((p) => p.metadata?.uid)).toEqual(uids);
    expect(images(w)).toEqual(['nginx:2', 'nginx:2', 'nginx:2', 'nginx:2']);
    expect(maxDown).toBe(2);
    expect(w.set().status).toMatchObject({ replicas: 4, updatedReplicas: 4, currentReplicas: 4 });
  });

  it('R11.2 a preDelete hook holds a condemned pod in PreparingDelete until the hook is released', () => {
    const hold = { preDelete: { labelsHandler: { hold: 'true' } } };
    const w = new World(makeSet({ replicas: 2, lifecycle: hold }));
    settle(w);
    const p1 = w.pod('foo-1')!;
    w.writePod(p1, { ...p1, metadata: { ...p1.metadata, labels: { ...p1.metadata!.labels, hold: 'true' } } });
    w.updateSpec((s) => ({ ...s, replicas: 1 }));
    settle(w);
    expect(w.pod('foo-1')?.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('PreparingDelete');
    const held = w.pod('foo-1')!;
    w.writePod(held, {
      ...held,
      metadata: { ...held.metadata, labels: { ...held.metadata!.labels, hold: 'false' } },
    });
    settle(w);
    expect(w.ordinals()).toEqual([0]);
  });

  it('§15 rollback: the template back to the first revision renumbers it and rolls the pods back', () => {
    const w = new World(makeSet({ replicas: 2 }));
    settle(w);
    const first = w.set().status!.currentRevision!;
    w.setImage('nginx:2');
    settle(w);
    w.setImage('nginx');
    settle(w);
    const st = w.set().status!;
    expect(st.updateRevision).toBe(first);
    expect(st.currentRevision).toBe(first);
    expect(w.revisions().find((r) => r.metadata?.name === first)?.revision).toBe(3);
    expect(images(w)).toEqual(['nginx', 'nginx']);
  });

  it('R6.1 a failed pod is deleted and recreated with the same name', () => {
    const w = new World(makeSet({ replicas: 2 }));
    settle(w);
    const p = w.pod('foo-0')!;
    w.writePod(p, { ...p, status: { ...p.status, phase: 'Failed' } });
    settle(w);
    expect(w.ordinals()).toEqual([0, 1]);
    expect(w.pod('foo-0')?.metadata?.uid).not.toBe(p.metadata?.uid);
    expect(w.pod('foo-0')?.status?.phase).toBe('Running');
  });

  it('R12.2 whenScaled Delete: the claim of a scaled-in pod is owned by the pod and garbage-collected with it', () => {
    const w = new World(
      makeSet({
        replicas: 2,
        volumeClaimTemplates: [{ metadata: { name: 'data' } }],
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' },
      }),
    );
    settle(w);
    expect(
      w
        .pvcs()
        .map((c) => c.metadata?.name)
        .sort(),
    ).toEqual(['data-foo-0', 'data-foo-1']);
    w.updateSpec((s) => ({ ...s, replicas: 1 }));
    settle(w);
    expect(w.pvcs().map((c) => c.metadata?.name)).toEqual(['data-foo-0']);
  });

  it('R8.5 specified delete: a labelled pod is deleted and recreated at the same ordinal', () => {
    const w = new World(makeSet({ replicas: 3 }));
    settle(w);
    const p = w.pod('foo-1')!;
    w.writePod(p, {
      ...p,
      metadata: {
        ...p.metadata,
        labels: { ...p.metadata!.labels, 'apps.kruise.io/specified-delete': 'true' },
      },
    });
    settle(w);
    expect(w.ordinals()).toEqual([0, 1, 2]);
    expect(w.pod('foo-1')?.metadata?.uid).not.toBe(p.metadata?.uid);
    expect(w.pod('foo-1')?.metadata?.labels?.['apps.kruise.io/specified-delete']).toBeUndefined();
  });

  it('§2.3 a v1alpha1 set is reconciled like v1beta1 (minus the v1beta1-only fields)', () => {
    const set = makeSet({ replicas: 2 });
    const w = new World({ ...set, apiVersion: 'apps.kruise.io/v1alpha1' });
    settle(w);
    expect(w.ordinals()).toEqual([0, 1]);
    expect(w.set().status?.readyReplicas).toBe(2);
    expect(w.set().status?.updatedReadyReplicas).toBeUndefined();
  });
});
