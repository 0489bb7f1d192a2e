// docs/reference/daemonset.md §12.3 name clashes of a new revision (core's resolveRevisionNameCollision
// with data-only equality).
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { constructHistory, newDaemonSetRevision } from '../src';
import { makeDaemonSet } from './helpers';

describe('§12.3 revision name clashes', () => {
  it('a revision of another controller holding equal data on the name: used as is, nothing created', () => {
    const ds = makeDaemonSet({ image: 'a' });
    const own = newDaemonSetRevision(ds, 0, 1);
    const foreign = deepFreeze({
      ...own,
      metadata: {
        ...own.metadata,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'x', uid: 'someone-else', controller: true },
        ],
      },
    });
    const plan = constructHistory(deepFreeze(ds), [foreign], []);
    expect(plan.actions.filter((a) => a.verb === 'create')).toEqual([]);
    expect(plan.current).toBe(foreign);
    expect(plan.collisionCount).toBe(0);
  });

  it('two names in a row taken by other data (adopted orphans, so the new one is #2): collisionCount 0 → 2', () => {
    const ds = makeDaemonSet({ image: 'a' });
    const squat = (count: number) => {
      const r = newDaemonSetRevision(ds, count, 1);
      return {
        ...r,
        data: { spec: { template: { other: count } } } as never,
        metadata: { ...r.metadata, ownerReferences: [] },
      };
    };
    const plan = constructHistory(deepFreeze(ds), deepFreeze([squat(0), squat(1)]), []);
    expect(plan.collisionCount).toBe(2);
    const created = plan.actions.filter((a) => a.verb === 'create');
    expect(created).toEqual([expect.objectContaining({ object: newDaemonSetRevision(ds, 2, 2) })]);
  });
});
