// Reconcile fast paths that must not change an answer: the listing class kept per pod in the
// listing cache is keyed by the CloneSet it was computed for (§1 steps 4 and 7), and the update limiter does not
// start building the ordered candidates when its budget allows no update (§9.4).
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { computePodFacts } from '../src/facts';
import { limitUpdateIndexes } from '../src/limiter';
import { createListingCache } from '../src/listingCache';
import { listPods } from '../src/ownership';
import { makeCloneSet, makePod, UID } from './builders';

const names = (pods: readonly { metadata?: { name?: string } }[]) => pods.map((p) => p.metadata?.name);

describe('§1 steps 4/7: the memoised listing class follows the CloneSet it is asked for', () => {
  const pods = deepFreeze([
    makePod('sample-a', { revision: 'sample-1' }),
    makePod('sample-b', { revision: 'sample-1', labels: { app: 'other' } }),
    makePod('sample-c', { revision: 'sample-1', deletionTimestamp: '2024-01-01T00:00:00Z' }),
    makePod('sample-d', { revision: 'sample-1', ownerUid: 'someone-else' }),
  ]);
  const cache = createListingCache(); // shared by the calls: what it keeps must not leak between CloneSets

  it('the same pod objects, listed for three CloneSets in turn, are classed for each', () => {
    const byUid = listPods(makeCloneSet(), pods, cache);
    expect(names(byUid.active)).toEqual(['sample-a']);
    expect(names(byUid.released)).toEqual(['sample-b']);
    expect(names(byUid.inactive)).toEqual(['sample-c']);
    expect(byUid.releaseActions).toHaveLength(1);

    // another selector: now sample-b matches and sample-a is released
    const other = makeCloneSet({ selector: { matchLabels: { app: 'other' } } });
    const bySelector = listPods(other, pods, cache);
    expect(names(bySelector.active)).toEqual(['sample-b']);
    expect(names(bySelector.released)).toEqual(['sample-a']);

    // another owner: only sample-d is owned
    const otherOwner = makeCloneSet({}, { uid: 'someone-else' });
    expect(names(listPods(otherOwner, pods, cache).active)).toEqual(['sample-d']);

    // and back: the first answer again, release patch included (actions are not memoised)
    const again = listPods(makeCloneSet(), pods, cache);
    expect(names(again.active)).toEqual(['sample-a']);
    expect(again.releaseActions).toEqual(byUid.releaseActions);
    expect(again.activeContents).toHaveLength(1);
  });

  it('a CloneSet without a uid owns by kind and name: sample-d (owner uid someone-else) is its pod too', () => {
    const noUid = makeCloneSet({}, { uid: undefined });
    expect(names(listPods(noUid, pods, cache).active)).toEqual(['sample-a', 'sample-d']);
    expect(names(listPods(makeCloneSet({}, { uid: UID }), pods, cache).active)).toEqual(['sample-a']);
  });
});

describe('§1 step 4: the previous listing of a CloneSet is reused only for the same pod objects', () => {
  const cache = createListingCache();
  it('an array the caller changes between two calls is listed as it is now', () => {
    const cs = makeCloneSet();
    const pods = [
      makePod('sample-a', { revision: 'sample-1' }),
      makePod('sample-b', { revision: 'sample-1' }),
    ];
    expect(names(listPods(cs, pods, cache).active)).toEqual(['sample-a', 'sample-b']);
    // same array, one slot replaced by a pod of another owner and one by a terminating pod
    pods[0] = makePod('sample-a', { revision: 'sample-1', ownerUid: 'someone-else' });
    pods[1] = makePod('sample-b', { revision: 'sample-1', deletionTimestamp: '2024-01-01T00:00:00Z' });
    const now = listPods(cs, pods, cache);
    expect(names(now.active)).toEqual([]);
    expect(names(now.inactive)).toEqual(['sample-b']);
  });

  it('a shorter or reordered list gets each pod its own facts', () => {
    const cs = makeCloneSet();
    const a = makePod('sample-a', { revision: 'sample-1' });
    const b = makePod('sample-b', { revision: 'sample-1', deletionTimestamp: '2024-01-01T00:00:00Z' });
    expect(names(listPods(cs, [a, b], cache).inactive)).toEqual(['sample-b']);
    const swapped = listPods(cs, [b, a], cache);
    expect(names(swapped.active)).toEqual(['sample-a']);
    expect(names(swapped.inactive)).toEqual(['sample-b']);
    expect(names(listPods(cs, [b], cache).active)).toEqual([]);
  });
});

describe('§9.4 limiter: the candidate sequence is started only when an update is possible', () => {
  const pods = deepFreeze([
    makePod('sample-0', { revision: 'sample-new', ready: false }),
    makePod('sample-1', { revision: 'sample-old' }),
    makePod('sample-2', { revision: 'sample-old' }),
  ]);
  /** A candidate sequence that records whether anyone read it. */
  const tracked = (order: number[]) => {
    const seen = { started: false };
    function* gen() {
      seen.started = true;
      yield* order;
    }
    return { seen, seq: gen() };
  };
  const facts = computePodFacts(pods, {
    updateRevision: 'sample-new',
    podsToDelete: new Set(),
    minReadySeconds: 0,
    nowMs: 0,
  });
  it('the table: only the first pod is unavailable, and it is on the target', () => {
    expect(pods.map((_, i) => facts.available(i))).toEqual([false, true, true]);
    expect(pods.map((_, i) => facts.updated(i))).toEqual([true, false, false]);
  });

  it('budget used up by unavailable pods on the target: nothing accepted, sequence untouched', () => {
    const { seen, seq } = tracked([1, 2]);
    const out = limitUpdateIndexes({
      diffs: { updateNum: 2, updateMaxUnavailable: 1 },
      candidates: seq,
      facts,
      targetRevision: 'sample-new',
    });
    expect(out).toEqual([]);
    expect(seen.started).toBe(false);
  });

  it('updateNum 0: nothing accepted, sequence untouched', () => {
    const { seen, seq } = tracked([1, 2]);
    expect(
      limitUpdateIndexes({
        diffs: { updateNum: 0, updateMaxUnavailable: 3 },
        candidates: seq,
        facts,
        targetRevision: 'sample-new',
      }),
    ).toEqual([]);
    expect(seen.started).toBe(false);
  });

  it('budget 3, one unavailable pod on the target: two candidates accepted, read in order', () => {
    const { seen, seq } = tracked([2, 1]);
    const out = limitUpdateIndexes({
      diffs: { updateNum: 2, updateMaxUnavailable: 3 },
      candidates: seq,
      facts,
      targetRevision: 'sample-new',
    });
    expect(out).toEqual([2, 1]);
    expect(seen.started).toBe(true);
  });
});
