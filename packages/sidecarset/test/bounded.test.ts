// A SidecarSet reconcile's work is bounded by the pods it observed (docs/architecture.md
// principle 6): it creates and deletes no pods, and a `maxUnavailable` or `partition` of
// 2,147,483,647 asks for no more pod updates than there are matched pods.
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileSidecarSet } from '../src/index';
import { reconcileInput } from './largeFixture';

const INT32_MAX = 2147483647;

const podWrites = (actions: readonly Action[]) =>
  actions.filter(
    (a) =>
      (a.verb === 'patch' || a.verb === 'update' || a.verb === 'delete' || a.verb === 'create') &&
      (a.verb === 'create' || a.verb === 'update' ? a.object.kind : a.target.kind) === 'Pod',
  );

describe('SidecarSet: bounded work per reconcile', () => {
  it('maxUnavailable 2,147,483,647 over 40 pods: at most one update per pod, no creates or deletes', () => {
    const input = reconcileInput(40);
    const r = reconcileSidecarSet(
      deepFreeze({
        ...input,
        sidecarSet: {
          ...input.sidecarSet,
          spec: { ...input.sidecarSet.spec, updateStrategy: { maxUnavailable: INT32_MAX } },
        },
      }),
    );
    expect(r.errors).toEqual([]);
    const writes = podWrites(r.actions);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.length).toBeLessThanOrEqual(40);
    expect(writes.every((a) => a.verb === 'patch' || a.verb === 'update')).toBe(true);
  });

  it('partition 2,147,483,647: nothing to update, whatever the number', () => {
    const input = reconcileInput(40);
    const r = reconcileSidecarSet(
      deepFreeze({
        ...input,
        sidecarSet: {
          ...input.sidecarSet,
          spec: {
            ...input.sidecarSet.spec,
            updateStrategy: { maxUnavailable: INT32_MAX, partition: INT32_MAX },
          },
        },
      }),
    );
    expect(podWrites(r.actions)).toEqual([]);
  });
});
