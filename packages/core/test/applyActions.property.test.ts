import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { type ApplierState, applyAction, createApplier, objectKey } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const API = 'example.com/v1';
const KIND = 'Thing';
const names = ['a', 'b', 'c'];
const ref = (name: string) => ({ apiVersion: API, kind: KIND, namespace: 'ns', name });

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ name: fc.constantFrom(...names), n: fc.integer({ min: 0, max: 3 }), fin: fc.boolean() }).map(
    ({ name, n, fin }): Action => ({
      verb: 'create',
      object: {
        apiVersion: API,
        kind: KIND,
        metadata: { name, namespace: 'ns', ...(fin ? { finalizers: ['example.com/hold'] } : {}) },
        spec: { n },
      },
      reason: 'Create',
    }),
  ),
  fc.constantFrom(...names).map((name): Action => ({ verb: 'delete', target: ref(name), reason: 'Delete' })),
  fc
    .record({
      name: fc.constantFrom(...names),
      n: fc.integer({ min: 0, max: 3 }),
      which: fc.constantFrom('spec', 'labels', 'fin'),
    })
    .map(({ name, n, which }): Action => {
      const patch =
        which === 'spec'
          ? { spec: { n } }
          : which === 'labels'
            ? { metadata: { labels: { v: String(n) } } }
            : { metadata: { finalizers: null } };
      return { verb: 'patch', target: ref(name), patchType: 'merge', patch, reason: 'Patch' };
    }),
  fc.record({ name: fc.constantFrom(...names), n: fc.integer({ min: 0, max: 3 }) }).map(
    ({ name, n }): Action => ({
      verb: 'update',
      object: { apiVersion: API, kind: KIND, metadata: { name, namespace: 'ns' }, spec: { n } },
      reason: 'Update',
    }),
  ),
  fc.record({ name: fc.constantFrom(...names), n: fc.integer({ min: 0, max: 3 }) }).map(
    ({ name, n }): Action => ({
      verb: 'updateStatus',
      target: ref(name),
      status: { seen: n },
      reason: 'Status',
    }),
  ),
);

describe('applyActions properties', () => {
  it('uids kept, resourceVersion strictly increases, generation bumps only on spec change, finalizers hold deletion', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 30 }), fc.integer(), (actions, seed) => {
        let state: ApplierState = createApplier([], { seed });
        let maxRv = 0;
        for (const action of deepFreeze(actions)) {
          const before = new Map(state.objects);
          const r = applyAction(state, action, '2024-01-01T00:00:00Z');
          state = r.state;
          for (const name of names) {
            const key = objectKey(ref(name));
            const prev = before.get(key);
            const next = state.objects.get(key);
            if (!prev || !next || prev === next) continue;
            // same object still there (not re-created): uid kept
            expect(next.metadata.uid).toBe(prev.metadata.uid);
            const rv = Number(next.metadata.resourceVersion);
            expect(rv).toBeGreaterThan(maxRv);
            maxRv = rv;
            const specChanged = JSON.stringify(prev.spec) !== JSON.stringify(next.spec);
            expect(next.metadata.generation).toBe((prev.metadata.generation ?? 0) + (specChanged ? 1 : 0));
          }
          for (const name of names) {
            const key = objectKey(ref(name));
            const prev = before.get(key);
            const next = state.objects.get(key);
            if (!prev && next) {
              const rv = Number(next.metadata.resourceVersion);
              expect(rv).toBeGreaterThan(maxRv);
              maxRv = rv;
              expect(next.metadata.generation).toBe(1);
            }
          }
          if (action.verb === 'delete' && r.result.ok) {
            const prev = before.get(objectKey(action.target)) as KubeObject;
            const next = state.objects.get(objectKey(action.target));
            if ((prev.metadata.finalizers ?? []).length > 0)
              expect(next?.metadata.deletionTimestamp).toBeTruthy();
            else expect(next).toBeUndefined();
          }
          const uids = [...state.objects.values()].map((o) => o.metadata.uid);
          expect(new Set(uids).size).toBe(uids.length);
        }
      }),
    );
  });
});
