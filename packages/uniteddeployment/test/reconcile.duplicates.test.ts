// reconcileUnitedDeployment on observed lists that name one object twice: the reconcile answers
// as if each object were listed once, plus one DuplicateObserved Warning event (core
// dedupeObserved).
import { type Action, DUPLICATE_OBSERVED_REASON } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileUnitedDeployment } from '../src/index';
import { makeUD, NOW } from './fixtures';
import { type Cluster, inputOf, settle, workloads } from './harness';

function warnings(actions: readonly Action[]) {
  return actions.filter((a) => a.verb === 'event' && a.reason === DUPLICATE_OBSERVED_REASON);
}

describe('duplicate observed objects', () => {
  it('a subset workload listed twice is not deleted as a duplicate subset of itself', () => {
    const cluster: Cluster = { ud: makeUD({ replicas: 4 }), objects: [], counter: 0, log: [] };
    settle(cluster, NOW);
    const input = inputOf(cluster, NOW);
    const [a] = workloads(cluster, { apiVersion: 'apps/v1', kind: 'StatefulSet' });
    const once = reconcileUnitedDeployment(deepFreeze(input));
    const twice = reconcileUnitedDeployment(deepFreeze({ ...input, subsets: [...input.subsets, a] }));
    expect(once.actions).toEqual([]);
    expect(twice.actions.filter((x) => x.verb === 'delete')).toEqual([]);
    expect(twice.actions.slice(1)).toEqual(once.actions);
    expect(twice.status).toEqual(once.status);
    expect(warnings(twice.actions)).toEqual([
      {
        verb: 'event',
        involvedObject: {
          apiVersion: cluster.ud.apiVersion,
          kind: 'UnitedDeployment',
          name: cluster.ud.metadata.name,
          namespace: cluster.ud.metadata.namespace,
          uid: cluster.ud.metadata.uid,
        },
        type: 'Warning',
        reason: DUPLICATE_OBSERVED_REASON,
        message: `dropped 1 duplicate observed object (subsets: 1): ${a.metadata.namespace}/${a.metadata.name}`,
      },
    ]);
  });
});
