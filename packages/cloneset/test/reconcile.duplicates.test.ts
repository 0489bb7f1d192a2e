// reconcileCloneSet on observed lists that name one object twice: the reconcile answers as if
// each object were listed once, plus one DuplicateObserved Warning event (core dedupeObserved).
import { type Action, DUPLICATE_OBSERVED_REASON } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { makeCloneSet, makePod, makePods, makePvc, NOW, revisionOf, summary } from './builders';

const run = (input: Parameters<typeof reconcileCloneSet>[0]) => reconcileCloneSet(deepFreeze(input));

function warnings(actions: readonly Action[]) {
  return actions.filter((a) => a.verb === 'event' && a.reason === DUPLICATE_OBSERVED_REASON);
}

describe('duplicate observed objects', () => {
  const cs = makeCloneSet({ replicas: 1 });
  const rev = revisionOf(cs);
  const name = rev.metadata!.name!;

  it('a pod listed twice is deleted once on scale-down, with one warning naming it', () => {
    const pods = makePods(2, name);
    const once = run({ cloneSet: cs, pods, revisions: [rev], now: NOW });
    // without de-duplication: 3 pods for 1 replica, and both sample-p0 and sample-p1 go
    const twice = run({ cloneSet: cs, pods: [pods[0], pods[1], pods[0]], revisions: [rev], now: NOW });
    expect(summary(once.actions).filter((s) => s.startsWith('delete:'))).toEqual([
      'delete:ScaleDown:Pod/sample-p0',
    ]);
    expect(twice.actions.slice(1)).toEqual(once.actions);
    expect(twice.status).toEqual(once.status);
    expect(warnings(twice.actions)).toEqual([
      {
        verb: 'event',
        involvedObject: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'sample',
          namespace: 'default',
          uid: 'cs-uid',
        },
        type: 'Warning',
        reason: DUPLICATE_OBSERVED_REASON,
        message: 'dropped 1 duplicate observed object (pods: 1): default/sample-p0',
      },
    ]);
  });

  it('the copy with the highest resourceVersion is the one reconciled', () => {
    const at = (pod: Pod, resourceVersion: string): Pod => ({
      ...pod,
      metadata: { ...pod.metadata, resourceVersion },
    });
    const stale = at(makePod('sample-p0', { revision: name }), '9');
    const fresh = at(makePod('sample-p0', { revision: name, deletionTimestamp: NOW }), '10');
    // the fresh copy is terminating: the CloneSet of 1 needs a new pod; the stale copy would say it has one
    const r = run({ cloneSet: cs, pods: [fresh, stale], revisions: [rev], now: NOW });
    expect(summary(r.actions).filter((s) => s.startsWith('create:'))).toHaveLength(1);
    expect(warnings(r.actions)).toHaveLength(1);
  });

  it('duplicated revisions and PVCs are reported in the same single warning', () => {
    const pods = makePods(1, name);
    const pvc = makePvc('data-sample-p0', 'p0');
    const r = run({
      cloneSet: cs,
      pods: [pods[0], pods[0]],
      revisions: [rev, rev],
      pvcs: [pvc, pvc],
      now: NOW,
    });
    const once = run({ cloneSet: cs, pods, revisions: [rev], pvcs: [pvc], now: NOW });
    expect(r.actions.slice(1)).toEqual(once.actions);
    expect(warnings(r.actions).map((a) => (a as { message: string }).message)).toEqual([
      'dropped 3 duplicate observed objects (pods: 1, revisions: 1, pvcs: 1): default/sample-p0, default/' +
        name +
        ', default/data-sample-p0',
    ]);
  });

  it('no duplicates: no warning', () => {
    const r = run({ cloneSet: cs, pods: makePods(1, name), revisions: [rev], now: NOW });
    expect(warnings(r.actions)).toEqual([]);
  });
});
