// De-duplication of observed objects (src/dedupeObserved.ts): identities, which copy is kept,
// the input-level helper and the one warning event.
import { describe, expect, it } from 'vitest';
import {
  DUPLICATE_OBSERVED_REASON,
  dedupeObserved,
  dedupeObservedInput,
  duplicateObservedEvent,
  observedIdentity,
  withDistinctObserved,
} from '../src/contract/dedupeObserved';
import { deepFreeze } from '../src/testing';

const pod = (name: string, rv?: string, uid: string | null = `uid-${name}`, extra = {}) =>
  deepFreeze({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      ...(uid === null ? {} : { uid }),
      ...(rv === undefined ? {} : { resourceVersion: rv }),
    },
    ...extra,
  });

const REF = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'ns', name: 'web' };

describe('observedIdentity', () => {
  it('uid with namespace and name, else group/kind/namespace/name; nothing for a value without either', () => {
    expect(observedIdentity(pod('a'))).toBe('uid:uid-a\u0000ns\u0000a');
    expect(observedIdentity(pod('a', undefined, null))).toBe('name:\u0000Pod\u0000ns\u0000a');
    const cs = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'a', namespace: 'ns' },
    };
    const asts = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'a', namespace: 'ns' },
    };
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'a', namespace: 'ns' } };
    expect(new Set([cs, asts, sts].map(observedIdentity)).size).toBe(3);
    // v1alpha1 and v1beta1 of one group name the same object
    expect(observedIdentity({ ...asts, apiVersion: 'apps.kruise.io/v1alpha1' })).toBe(observedIdentity(asts));
    for (const v of [null, undefined, 3, 'x', [], {}, { metadata: null }, { metadata: { name: '' } }]) {
      expect(observedIdentity(v)).toBeUndefined();
    }
  });
});

describe('dedupeObserved', () => {
  it('no duplicate: the very same array back', () => {
    const list = deepFreeze([pod('a'), pod('b')]);
    const r = dedupeObserved(list);
    expect(r.kept).toBe(list);
    expect(r.duplicates).toEqual([]);
  });

  it('the highest resourceVersion wins, compared as integers, at the place of the first copy', () => {
    const list = deepFreeze([pod('a', '9'), pod('b', '1'), pod('a', '10'), pod('a', '2')]);
    const r = dedupeObserved(list);
    expect(r.kept).toEqual([pod('a', '10'), pod('b', '1')]);
    expect(r.kept[0]).toBe(list[2]);
    expect(r.duplicates).toEqual([list[0], list[3]]);
  });

  it('equal or non-numeric resourceVersions: the later copy wins', () => {
    const list = deepFreeze([pod('a', '7', 'u', { n: 1 }), pod('a', '7', 'u', { n: 2 })]);
    expect(dedupeObserved(list).kept).toEqual([list[1]]);
    const odd = deepFreeze([
      pod('a', '12', 'u', { n: 1 }),
      pod('a', 'x', 'u', { n: 2 }),
      pod('a', undefined, 'u', { n: 3 }),
    ]);
    expect(dedupeObserved(odd).kept).toEqual([odd[2]]);
    // leading zeros do not make a version bigger
    const zeros = deepFreeze([pod('a', '10', 'u', { n: 1 }), pod('a', '0009', 'u', { n: 2 })]);
    expect(dedupeObserved(zeros).kept).toEqual([zeros[0]]);
  });

  it('one uid under two names is two objects (a hand-written list), each de-duplicated on its own', () => {
    const list = deepFreeze([pod('a', '1', 'u'), pod('b', '1', 'u'), pod('b', '2', 'u'), pod('a', '3', 'u')]);
    const r = dedupeObserved(list);
    expect(r.kept).toEqual([list[3], list[2]]);
    expect(r.duplicates).toEqual([list[1], list[0]]);
  });

  it('values without identity are all kept, in place', () => {
    const list = deepFreeze([null, pod('a'), 3, { metadata: {} }, pod('a'), null]);
    expect(dedupeObserved(list as unknown[]).kept).toEqual([null, pod('a'), 3, { metadata: {} }, null]);
  });

  it('a value that is not an array gives an empty result', () => {
    expect(dedupeObserved({} as unknown as unknown[])).toEqual({ kept: [], duplicates: [] });
  });
});

describe('dedupeObservedInput and the warning event', () => {
  it('only the named array fields change; the input itself when nothing was dropped', () => {
    const input = deepFreeze({ pods: [pod('a'), pod('a')], nodes: [pod('n'), pod('n')], revisions: null });
    const r = dedupeObservedInput(input, ['pods', 'revisions']);
    expect(r.input).toEqual({ pods: [pod('a')], nodes: input.nodes, revisions: null });
    expect(r.input.nodes).toBe(input.nodes);
    expect(r.dropped).toEqual([{ list: 'pods', duplicates: [input.pods[0]] }]);
    const clean = deepFreeze({ pods: [pod('a')] });
    expect(dedupeObservedInput(clean, ['pods']).input).toBe(clean);
    expect(dedupeObservedInput(null as unknown as { pods: [] }, ['pods'])).toEqual({
      input: null,
      dropped: [],
    });
  });

  it('one event: total, count per list, the first three names', () => {
    const dropped = [
      { list: 'pods', duplicates: [pod('a'), pod('a'), pod('b'), pod('c'), pod('d')] },
      { list: 'nodes', duplicates: [{ metadata: { name: 'n1' } }] },
    ];
    expect(duplicateObservedEvent(dropped, REF)).toEqual({
      verb: 'event',
      involvedObject: REF,
      type: 'Warning',
      reason: DUPLICATE_OBSERVED_REASON,
      message: 'dropped 6 duplicate observed objects (pods: 5, nodes: 1): ns/a, ns/b, ns/c',
    });
    expect(duplicateObservedEvent([], REF)).toBeUndefined();
  });

  it('withDistinctObserved: the reconcile sees distinct lists; the event goes first', () => {
    const seen: unknown[] = [];
    const reconcile = (i: { pods: unknown[] }) => {
      seen.push(i.pods);
      return {
        actions: [
          { verb: 'event' as const, involvedObject: REF, type: 'Normal' as const, reason: 'X', message: '' },
        ],
      };
    };
    const clean = deepFreeze({ pods: [pod('a')] });
    const r0 = withDistinctObserved(clean, ['pods'], () => REF, reconcile);
    expect(r0.actions.map((a) => a.reason)).toEqual(['X']);
    expect(seen[0]).toBe(clean.pods);
    const r1 = withDistinctObserved(
      deepFreeze({ pods: [pod('a'), pod('a')] }),
      ['pods'],
      () => REF,
      reconcile,
    );
    expect(seen[1]).toEqual([pod('a')]);
    expect(r1.actions.map((a) => a.reason)).toEqual([DUPLICATE_OBSERVED_REASON, 'X']);
    const r2 = withDistinctObserved(
      deepFreeze({ pods: [pod('a'), pod('a')] }),
      ['pods'],
      () => undefined,
      reconcile,
    );
    expect(r2.actions.map((a) => a.reason)).toEqual(['X']);
  });
});
