// reconcileStatefulSet on observed lists that name one object twice: the reconcile answers as if
// each object were listed once, plus one DuplicateObserved Warning event (core dedupeObserved).
import { type Action, DUPLICATE_OBSERVED_REASON } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileStatefulSet } from '../src/reconcile';
import { makeSet, World } from './world';

/** Reconciles and lets the cluster run until the pods are Running and Ready. */
function settle(w: World): void {
  for (let i = 0; i < 50; i++) {
    w.reconcile();
    w.advance(5);
  }
}

function warnings(actions: readonly Action[]) {
  return actions.filter((a) => a.verb === 'event' && a.reason === DUPLICATE_OBSERVED_REASON);
}

function deletes(actions: readonly Action[]): string[] {
  return actions.flatMap((a) => (a.verb === 'delete' ? [`${a.target.kind}/${a.target.name}`] : []));
}

describe('duplicate observed objects', () => {
  it('a pod listed twice is deleted once when the set scales in, with one warning naming it', () => {
    const w = new World(makeSet({ replicas: 2, podManagementPolicy: 'Parallel' }));
    settle(w);
    expect(w.ordinals()).toEqual([0, 1]);
    w.updateSpec((spec) => ({ ...spec, replicas: 1 }));
    const input = w.input();
    const once = reconcileStatefulSet(deepFreeze(input));
    const foo1 = input.pods.find((p) => p.metadata?.name === 'foo-1')!;
    const twice = reconcileStatefulSet(deepFreeze({ ...input, pods: [...input.pods, foo1] }));
    expect(deletes(once.actions)).toEqual(['Pod/foo-1']);
    expect(deletes(twice.actions)).toEqual(['Pod/foo-1']);
    expect(twice.actions.slice(1)).toEqual(once.actions);
    expect(twice.status).toEqual(once.status);
    expect(warnings(twice.actions)).toEqual([
      {
        verb: 'event',
        involvedObject: {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: 'foo',
          namespace: 'default',
          uid: input.statefulSet.metadata?.uid,
        },
        type: 'Warning',
        reason: DUPLICATE_OBSERVED_REASON,
        message: 'dropped 1 duplicate observed object (pods: 1): default/foo-1',
      },
    ]);
  });

  it('duplicated revisions are dropped too; no duplicates, no warning', () => {
    const w = new World(makeSet({ replicas: 1 }));
    settle(w);
    const input = w.input();
    const once = reconcileStatefulSet(deepFreeze(input));
    expect(warnings(once.actions)).toEqual([]);
    const twice = reconcileStatefulSet(
      deepFreeze({ ...input, revisions: [...input.revisions, ...input.revisions] }),
    );
    expect(warnings(twice.actions)).toHaveLength(1);
    expect(twice.actions[0]).toBe(warnings(twice.actions)[0]);
    expect(twice.actions.slice(1)).toEqual(once.actions);
  });
});
