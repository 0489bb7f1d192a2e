// Properties of dedupeObserved (src/dedupeObserved.ts) over random lists with repeated identities:
// one copy per identity, idempotent, order-stable, the highest numeric resourceVersion kept,
// and the input never written (deep-frozen).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dedupeObserved, observedIdentity } from '../src/contract/dedupeObserved';
import { deepFreeze } from '../src/testing';

/** A pod from a small pool of identities (uid and name, or the name alone when the uid is left out). */
const arbObject = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'd'),
  // a uid shared by several names too: two objects in a hand-written list
  uid: fc.constantFrom(undefined, 'u1', 'u2'),
  rv: fc.option(fc.oneof(fc.nat({ max: 30 }).map(String), fc.constant('x')), { nil: undefined }),
  tag: fc.nat({ max: 1000 }),
});
const build = (s: { name: string; uid: string | undefined; rv: string | undefined; tag: number }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: s.name,
    namespace: 'ns',
    ...(s.uid === undefined ? {} : { uid: s.uid }),
    ...(s.rv === undefined ? {} : { resourceVersion: s.rv }),
  },
  tag: s.tag,
});

const arbList = fc
  .array(
    fc.oneof({ weight: 9, arbitrary: arbObject.map(build) }, { weight: 1, arbitrary: fc.constant(null) }),
    {
      maxLength: 25,
    },
  )
  .map((l) => deepFreeze(l));

/** The rule as plainly as it can be written (quadratic): the oracle of the first property. */
function reference(list: readonly unknown[]): unknown[] {
  const rv = (o: unknown) =>
    (o as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion;
  const numeric = (v: string | undefined) => (v !== undefined && /^[0-9]+$/.test(v) ? BigInt(v) : undefined);
  const kept: unknown[] = [];
  for (const o of list) {
    const id = observedIdentity(o);
    const at = id === undefined ? -1 : kept.findIndex((k) => observedIdentity(k) === id);
    if (at < 0) kept.push(o);
    else {
      const [a, b] = [numeric(rv(kept[at])), numeric(rv(o))];
      if (a === undefined || b === undefined || b >= a) kept[at] = o;
    }
  }
  return kept;
}

describe('dedupeObserved properties', () => {
  it('equals the plain quadratic rule', () => {
    fc.assert(
      fc.property(arbList, (list) => {
        expect(dedupeObserved(list).kept).toEqual(reference(list));
      }),
    );
  });

  it('equals the plain rule on lists in namespace/name order, as the API server lists them', () => {
    // the order is checked first (a list in strictly increasing order holds no copy): lists in
    // that order, with repeats side by side and namespaces whose key order differs from theirs
    const arbSorted = fc
      .array(fc.tuple(arbObject, fc.constantFrom('', 'a', 'a-b', 'b')), { maxLength: 25 })
      .map((xs) =>
        xs
          .map(([o, ns]) => {
            const p = build(o);
            return { ...p, metadata: { ...p.metadata, namespace: ns } };
          })
          .sort((x, y) =>
            x.metadata.namespace === y.metadata.namespace
              ? x.metadata.name.localeCompare(y.metadata.name)
              : x.metadata.namespace < y.metadata.namespace
                ? -1
                : 1,
          ),
      )
      .map((l) => deepFreeze(l));
    fc.assert(
      fc.property(arbSorted, (list) => {
        const { kept } = dedupeObserved(list);
        expect(kept).toEqual(reference(list));
        if (kept.length === list.length) expect(kept).toBe(list);
      }),
      { seed: 2223 },
    );
  });

  it('one copy per identity; kept + duplicates is the input as a multiset', () => {
    fc.assert(
      fc.property(arbList, (list) => {
        const { kept, duplicates } = dedupeObserved(list);
        const ids = kept.map(observedIdentity).filter((id) => id !== undefined);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(list.map(observedIdentity))).toEqual(new Set(kept.map(observedIdentity)));
        expect(kept.length + duplicates.length).toBe(list.length);
        const count = (xs: readonly unknown[]) => {
          const m = new Map<unknown, number>();
          for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
          return m;
        };
        expect(count([...kept, ...duplicates])).toEqual(count(list));
      }),
    );
  });

  it('idempotent: a kept list has nothing left to drop', () => {
    fc.assert(
      fc.property(arbList, (list) => {
        const once = dedupeObserved(list).kept;
        const twice = dedupeObserved(deepFreeze(once));
        expect(twice.kept).toBe(once);
        expect(twice.duplicates).toEqual([]);
      }),
    );
  });

  it('order-stable: identities keep the order of their first appearance; values without one keep theirs', () => {
    fc.assert(
      fc.property(arbList, (list) => {
        const firsts: unknown[] = [];
        const seen = new Set<string>();
        for (const o of list) {
          const id = observedIdentity(o);
          if (id === undefined) firsts.push(o);
          else if (!seen.has(id)) {
            seen.add(id);
            firsts.push(id);
          }
        }
        const kept = dedupeObserved(list).kept.map((o) => observedIdentity(o) ?? o);
        expect(kept).toEqual(firsts);
      }),
    );
  });

  it('when every copy of an identity has an integer resourceVersion, the kept one has the highest', () => {
    fc.assert(
      fc.property(arbList, (list) => {
        const { kept } = dedupeObserved(list);
        for (const k of kept) {
          const id = observedIdentity(k);
          if (id === undefined) continue;
          const rvs = list
            .filter((o) => observedIdentity(o) === id)
            .map((o) => (o as { metadata: { resourceVersion?: string } }).metadata.resourceVersion);
          if (!rvs.every((rv) => rv !== undefined && /^[0-9]+$/.test(rv))) continue;
          const max = Math.max(...rvs.map(Number));
          expect(Number((k as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toBe(max);
        }
      }),
    );
  });
});
