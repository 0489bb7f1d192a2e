// A UnitedDeployment reconcile's work is bounded by its topology and the objects it observed
// (docs/architecture.md principle 6): it creates no pods, only one workload per subset, and the
// replica math (§4) is arithmetic on the total — 2,147,483,647 replicas cost what 3 do.
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { allocateSubsetReplicas, reconcileUnitedDeployment } from '../src/index';
import { makeUD, NOW } from './fixtures';

const INT32_MAX = 2147483647;

describe('UnitedDeployment: bounded work per reconcile', () => {
  it('2,147,483,647 replicas over three subsets: three workload creates holding all the replicas', () => {
    const ud = makeUD(
      { replicas: INT32_MAX, subsets: [{ name: 'a' }, { name: 'b', replicas: '30%' }, { name: 'c' }] },
      { kind: 'CloneSet' },
    );
    const r = reconcileUnitedDeployment(
      deepFreeze({ unitedDeployment: ud, subsets: [], pods: [], now: NOW }),
    );
    expect(r.errors).toEqual([]);
    const creates = r.actions.filter((a): a is Extract<Action, { verb: 'create' }> => a.verb === 'create');
    const workloads = creates.filter((a) => a.object.kind === 'CloneSet');
    expect(workloads).toHaveLength(3);
    const replicas = workloads.map((a) => (a.object.spec as { replicas: number }).replicas);
    expect(replicas.reduce((x, y) => x + y, 0)).toBe(INT32_MAX);
    expect(creates.some((a) => a.object.kind === 'Pod')).toBe(false);
    expect(r.actions.length).toBeLessThanOrEqual(10);
  });

  it('the allocators share 2,147,483,647 by arithmetic, specific and elastic', () => {
    const specific = allocateSubsetReplicas(
      makeUD({ replicas: INT32_MAX, subsets: [{ name: 'a' }, { name: 'b' }, { name: 'c', replicas: 1 }] }),
    );
    expect(specific).toEqual({ replicas: { a: 1073741823, b: 1073741823, c: 1 } });
    const elastic = allocateSubsetReplicas(
      makeUD({
        replicas: INT32_MAX,
        subsets: [
          { name: 'a', maxReplicas: 5 },
          { name: 'b', minReplicas: '50%' },
        ],
      }),
    );
    expect(elastic).toEqual({ replicas: { a: 5, b: INT32_MAX - 5 } });
  });
});
