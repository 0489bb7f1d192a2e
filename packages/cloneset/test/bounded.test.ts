// A reconcile's work is bounded by what it observed and by its burst of creates and deletes,
// never by `spec.replicas` (docs/architecture.md principle 6; README "Differences"): at most
// `burstReplicas` pods (default 500) are created or deleted per reconcile, and a reconcile that
// stopped there asks to run again at once (`requeueAfterSeconds: 0`). OpenKruise's own limits
// (scaleStrategy.maxUnavailable, deleteReadyLimit) still apply below the burst.
import { type Action, DEFAULT_BURST_REPLICAS } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { actionsOf, makeCloneSet, makePods, NOW, revisionOf } from './builders';

const INT32_MAX = 2147483647;

const run = (
  input: Parameters<typeof reconcileCloneSet>[0],
  options?: Parameters<typeof reconcileCloneSet>[1],
) => reconcileCloneSet(deepFreeze(input), options);
const creates = (actions: readonly Action[]) => actionsOf(actions, 'create', 'Pod');
const deletes = (actions: readonly Action[]) => actionsOf(actions, 'delete', 'Pod');

describe('CloneSet: bounded work per reconcile', () => {
  it('2,147,483,647 replicas and no pods: the burst of creates and a requeue at once', () => {
    const r = run({ cloneSet: makeCloneSet({ replicas: INT32_MAX }), pods: [], now: NOW });
    expect(creates(r.actions)).toHaveLength(DEFAULT_BURST_REPLICAS);
    expect(r.requeueAfterSeconds).toBe(0);
    expect(r.errors).toEqual([]);
    // creates, their events, the revision and the status
    expect(r.actions.length).toBeLessThanOrEqual(2 * DEFAULT_BURST_REPLICAS + 2);
    // the names are distinct
    expect(new Set(creates(r.actions).map((a) => (a as any).object.metadata.name)).size).toBe(
      DEFAULT_BURST_REPLICAS,
    );
  });

  it('the burst is an option; the rest comes in the next reconciles', () => {
    const cs = makeCloneSet({ replicas: 10 });
    const rev = revisionOf(cs);
    const r1 = run({ cloneSet: cs, pods: [], revisions: [rev], now: NOW }, { burstReplicas: 4 });
    expect(creates(r1.actions)).toHaveLength(4);
    expect(r1.requeueAfterSeconds).toBe(0);
    const have8 = makePods(8, rev.metadata!.name!);
    const r2 = run({ cloneSet: cs, pods: have8, revisions: [rev], now: NOW }, { burstReplicas: 4 });
    expect(creates(r2.actions)).toHaveLength(2);
    expect(r2.requeueAfterSeconds).toBeUndefined();
  });

  it("OpenKruise's own limit stays: scaleStrategy.maxUnavailable 3 creates 3, with no requeue at once", () => {
    const r = run({
      cloneSet: makeCloneSet({ replicas: INT32_MAX, scaleStrategy: { maxUnavailable: 3 } }),
      pods: [],
      now: NOW,
    });
    expect(creates(r.actions)).toHaveLength(3);
    expect(r.requeueAfterSeconds).toBeUndefined();
  });

  it('scale-in of 800 pods to 0: 500 deleted now, in the scale-in order, the rest next time', () => {
    const cs = makeCloneSet({ replicas: 0 });
    const rev = revisionOf(cs);
    const pods = makePods(800, rev.metadata!.name!);
    const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    expect(deletes(r.actions)).toHaveLength(500);
    expect(r.requeueAfterSeconds).toBe(0);
    const gone = new Set(deletes(r.actions).map((a) => (a as any).target.name));
    const r2 = run({
      cloneSet: cs,
      pods: pods.filter((p) => !gone.has(p.metadata!.name!)),
      revisions: [rev],
      now: NOW,
    });
    expect(deletes(r2.actions)).toHaveLength(300);
    expect(r2.requeueAfterSeconds).toBeUndefined();
  });

  it('property: creates = min(burst, replicas − pods) for any replicas up to the int32 limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INT32_MAX }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 40 }),
        (replicas, have, burstReplicas) => {
          const cs = makeCloneSet({ replicas });
          const rev = revisionOf(cs);
          const pods = makePods(have, rev.metadata!.name!);
          const r = run({ cloneSet: cs, pods, revisions: [rev], now: NOW }, { burstReplicas });
          const wanted = Math.max(0, replicas - have);
          expect(creates(r.actions)).toHaveLength(Math.min(burstReplicas, wanted));
          expect(deletes(r.actions).length).toBeLessThanOrEqual(burstReplicas);
          expect(r.requeueAfterSeconds === 0).toBe(wanted > burstReplicas || have - replicas > burstReplicas);
        },
      ),
    );
  });
});
