// §1 steps 4/7, the listing cache (ownership.ts): facts of the previous listing are reused only
// for the very same pod objects, whatever happened to the list in between (pods changed in runs,
// created, deleted, reordered), and an unchanged pod keeps its facts even after a run of changed
// pods longer than the look-ahead (the update-wave case: the first 2,000 of 10k pods changed).
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { createListingCache } from '../src/listingCache';
import { listPods } from '../src/ownership';
import { readPodContentFacts } from '../src/podContent';
import { makeCloneSet, makePod } from './builders';

/** The content facts without the memo's own field (the order key). */
function contentOf(f: object): Record<string, unknown> {
  const { orderKey: _o, ...rest } = f as Record<string, unknown>;
  return rest;
}

function pod(i: number, version: number): Pod {
  const states = ['Normal', 'PreparingNormal', 'Updating', 'PreparingDelete'] as const;
  return deepFreeze(
    makePod(`sample-${String(i).padStart(3, '0')}`, {
      revision: version % 2 === 0 ? 'sample-1' : 'sample-2',
      ready: version % 3 !== 1,
      state: states[version % states.length],
      ...(version % 5 === 4 ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    }),
  );
}

/** One edit of the listed pods: a run changed in place, a pod created or deleted, or a shuffle. */
type Edit =
  | { kind: 'change'; at: number; length: number }
  | { kind: 'create'; at: number }
  | { kind: 'delete'; at: number }
  | { kind: 'reverse' };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('change' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant('create' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('reverse' as const) }),
);

describe('§1 step 4: the previous listing is reused only for the same pod objects', () => {
  it('facts always describe the listed pod, through any sequence of edits', () => {
    const cache = createListingCache(); // one cache for every run: a stale previous listing must not matter
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.array(edit, { maxLength: 8 }), (n, edits) => {
        const cs = makeCloneSet(); // one key for every run: a stale previous listing must not matter either
        let version = 0;
        let next = n;
        let pods = Array.from({ length: n }, (_, i) => pod(i, 0));
        for (const e of [{ kind: 'change', at: 0, length: 0 } as Edit, ...edits]) {
          version++;
          pods = pods.slice();
          if (e.kind === 'change' && pods.length > 0)
            for (let k = e.at % pods.length; k < Math.min(pods.length, (e.at % pods.length) + e.length); k++)
              pods[k] = pod(Number(pods[k].metadata?.name?.slice(7)), version);
          else if (e.kind === 'create')
            pods.splice(pods.length ? e.at % (pods.length + 1) : 0, 0, pod(next++, version));
          else if (e.kind === 'delete' && pods.length > 0) pods.splice(e.at % pods.length, 1);
          else if (e.kind === 'reverse') pods.reverse();
          const listed = listPods(cs, pods, cache);
          expect(listed.activeContents).toHaveLength(listed.active.length);
          listed.active.forEach((p, i) => {
            expect(contentOf(listed.activeContents[i])).toEqual(contentOf(readPodContentFacts(p)));
          });
          const all = [...listed.active, ...listed.inactive];
          expect(all.length).toBe(pods.length);
        }
      }),
      { seed: 4104, numRuns: 200 },
    );
  });

  it('after a run of 20 changed pods (longer than the look-ahead), the unchanged pods keep their facts', () => {
    const cs = makeCloneSet();
    const first = Array.from({ length: 50 }, (_, i) => pod(i, 0));
    const cache = createListingCache();
    const before = listPods(cs, first, cache);
    const second = first.map((p, i) => (i < 20 ? pod(i, 2) : p));
    const after = listPods(cs, second, cache);
    expect(after.active).toHaveLength(50);
    for (let i = 0; i < 50; i++) {
      if (i < 20) expect(after.activeContents[i]).not.toBe(before.activeContents[i]);
      else expect(after.activeContents[i]).toBe(before.activeContents[i]);
    }
  });
});
