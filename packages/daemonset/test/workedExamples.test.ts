// docs/reference/daemonset.md §7.5 worked examples: 5 nodes, counts = creates/deletes of one sync in
// which the manage and rolling phases both act.
import type { DaemonSet } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { HarnessWorld, makeDaemonSet, makeNode } from './helpers';

const nodes = () => Array.from({ length: 5 }, (_, i) => makeNode(`node-${i}`));

/** A world whose 5 pods run `foo/bar` and are ready, then the template and strategy change. */
function rolledWorld(strategy: DaemonSet['spec']['updateStrategy'], opts: { readyOld?: boolean } = {}) {
  const world = new HarnessWorld(makeDaemonSet({ updateStrategy: { type: 'OnDelete' } }), nodes(), 1000);
  expect(world.sync()).toMatchObject({ creates: 5, deletes: 0 });
  world.clearExpectations();
  if (opts.readyOld !== false) world.markAllPodsReady();
  const spec = structuredClone(world.ds.spec);
  spec.template.spec!.containers[0].image = 'foo2/bar2';
  spec.updateStrategy = strategy;
  world.ds = { ...world.ds, metadata: { ...world.ds.metadata, generation: 2 }, spec };
  return world;
}

function syncCounts(world: HarnessWorld): string {
  const r = world.sync();
  world.clearExpectations();
  return `${r.creates}/${r.deletes}`;
}

describe('§7.5 worked examples', () => {
  it('1. maxUnavailable 2: 0/2, 2/0, ready, 0/2, 2/0, ready, 0/1, 1/0, ready, 0/0', () => {
    const w = rolledWorld({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } });
    const seen: string[] = [];
    seen.push(syncCounts(w), syncCounts(w));
    w.markAllPodsReady();
    seen.push(syncCounts(w), syncCounts(w));
    w.markAllPodsReady();
    seen.push(syncCounts(w), syncCounts(w));
    w.markAllPodsReady();
    seen.push(syncCounts(w));
    expect(seen).toEqual(['0/2', '2/0', '0/2', '2/0', '0/1', '1/0', '0/0']);
  });

  it('2. maxSurge 2, maxUnavailable 0: 2/0, 0/0, ready, 2/2, 0/0, ready, 1/2, 0/0, ready, 0/1, 0/0', () => {
    const w = rolledWorld({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } });
    const seen: string[] = [];
    seen.push(syncCounts(w), syncCounts(w));
    w.markAllPodsReady();
    seen.push(syncCounts(w), syncCounts(w));
    w.markAllPodsReady();
    seen.push(syncCounts(w), syncCounts(w));
    w.markAllPodsReady();
    seen.push(syncCounts(w), syncCounts(w));
    expect(seen).toEqual(['2/0', '0/0', '2/2', '0/0', '1/2', '0/0', '0/1', '0/0']);
  });

  it('3. maxUnavailable 3, old pods not ready: 0/5 (replaced regardless of the budget), 5/0, 0/0', () => {
    const w = rolledWorld(
      { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } },
      { readyOld: false },
    );
    expect([syncCounts(w), syncCounts(w), syncCounts(w)]).toEqual(['0/5', '5/0', '0/0']);
  });

  it('4. surge 3, minReadySeconds 15, new pods ready at t=300: old pods stay at t=310, go at t=320', () => {
    const w = rolledWorld({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 0 } });
    w.ds = { ...w.ds, spec: { ...w.ds.spec, minReadySeconds: 15 } };
    w.clock = 290;
    // The old pods became ready long ago (clock 1000 > 290 is irrelevant: minReadySeconds only
    // matters for the new pods here), make them ready "at 0" so they are available.
    w.pods = w.pods.map((p) => {
      const c = { type: 'Ready', status: 'True', lastTransitionTime: '1970-01-01T00:00:00Z' };
      return { ...p, status: { ...p.status, conditions: [c] } };
    });
    expect(syncCounts(w)).toBe('3/0');
    w.clock = 300;
    const hash = w.ds.status?.daemonSetHash;
    w.pods = w.pods.map((p) =>
      p.metadata?.labels?.['controller-revision-hash'] === hash ? w.setReady(p, true) : p,
    );
    w.clock = 310;
    const at310 = w.sync();
    expect(at310.deletes).toBe(0);
    expect(at310.requeueAfterSeconds).toBe(5); // 15 − (310 − 300)
    w.clock = 320;
    const at320 = w.sync();
    expect(at320.actions.filter((a) => a.verb === 'delete' && a.reason === 'SurgeHandover')).toHaveLength(3);
  });
});
