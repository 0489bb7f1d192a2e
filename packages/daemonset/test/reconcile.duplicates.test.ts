// reconcileDaemonSet on observed lists that name one object twice: the reconcile answers as if
// each object were listed once, plus one DuplicateObserved Warning event (core dedupeObserved).
import type { DaemonSet } from '@kruise-ts/api';
import { type Action, DUPLICATE_OBSERVED_REASON } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileDaemonSet } from '../src';
import { iso, makeDaemonSet, makeNode, makePod } from './helpers';

const T = 10_000;

function run(ds: DaemonSet, nodes: Node[], pods: Pod[]) {
  return reconcileDaemonSet(deepFreeze({ daemonSet: ds, nodes, pods, now: iso(T) }));
}

function warnings(actions: readonly Action[]) {
  return actions.filter((a) => a.verb === 'event' && a.reason === DUPLICATE_OBSERVED_REASON);
}

const podWrites = (actions: readonly Action[]) =>
  actions.flatMap((a) =>
    a.verb === 'delete' && a.target.kind === 'Pod'
      ? [`delete ${a.target.name}`]
      : a.verb === 'create' && a.object.kind === 'Pod'
        ? [`create on ${JSON.stringify((a.object as Pod).spec?.affinity?.nodeAffinity)}`]
        : [],
  );

describe('duplicate observed objects', () => {
  const ds = makeDaemonSet();
  const hash = reconcileDaemonSet({ daemonSet: ds, nodes: [], pods: [], now: iso(T) }).status.daemonSetHash;

  it('the one pod of a node listed twice is not taken for a second pod and deleted', () => {
    const a = makePod(ds, 'a', 'n1', hash, { ready: true, created: 100 });
    const once = run(ds, [makeNode('n1')], [a]);
    const twice = run(ds, [makeNode('n1')], [a, a]);
    expect(podWrites(once.actions)).toEqual([]);
    expect(podWrites(twice.actions)).toEqual([]);
    expect(twice.actions.slice(1)).toEqual(once.actions);
    expect(twice.status).toEqual(once.status);
    expect(warnings(twice.actions)).toEqual([
      {
        verb: 'event',
        involvedObject: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'DaemonSet',
          name: 'foo',
          namespace: 'default',
          uid: 'foo-uid',
        },
        type: 'Warning',
        reason: DUPLICATE_OBSERVED_REASON,
        message: 'dropped 1 duplicate observed object (pods: 1): default/a',
      },
    ]);
  });

  it('a node listed twice gets one pod', () => {
    const once = run(ds, [makeNode('n1')], []);
    const twice = run(ds, [makeNode('n1'), makeNode('n1')], []);
    expect(podWrites(twice.actions)).toEqual(podWrites(once.actions));
    expect(podWrites(twice.actions)).toHaveLength(1);
    expect(warnings(twice.actions).map((e) => (e as { message: string }).message)).toEqual([
      'dropped 1 duplicate observed object (nodes: 1): n1',
    ]);
  });
});
