// The guard at a reconcile's entry (screenObservedInput, then dedupeObservedInput) answers the
// same with a StructureCache as without one, over random sequences of lists: well-formed and
// malformed pods, repeated identities, the same array passed again, a copy of it, and copies
// with an object replaced, inserted, removed or moved. The cache's memory of whole lists
// (`observedLists`) must never answer for a list whose objects are not exactly the remembered ones.
import { createStructureCache } from '@kruise-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dedupeObserved, dedupeObservedInput } from '../src/contract/dedupeObserved';
import { type InputShape, screenObservedInput } from '../src/observedStructure';
import { deepFreeze } from '../src/testing';

const shape: InputShape = { lists: { pods: 'Pod', nodes: 'Node' }, required: ['pods'] };
const LISTS = ['pods', 'nodes'] as const;

interface Spec {
  name: number;
  uid: number | undefined;
  rv: number;
  malformed: 0 | 1 | 2 | 3 | 4;
}

/** A pod from a small pool of identities; `malformed` 1..4 breaks it in one of four ways. */
function pod(s: Spec): unknown {
  if (s.malformed === 4) return undefined;
  const metadata: Record<string, unknown> = {
    name: `web-${s.name}`,
    namespace: 'ns',
    resourceVersion: String(s.rv),
    labels: s.malformed === 1 ? null : { app: 'web' },
  };
  if (s.uid !== undefined) metadata.uid = `u${s.uid}`;
  if (s.malformed === 3) return { apiVersion: 'v1', kind: 'Pod', metadata: { ...metadata, name: 7 } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
    status: { phase: 'Running', conditions: s.malformed === 2 ? 5 : [{ type: 'Ready', status: 'True' }] },
  };
}

const arbSpec: fc.Arbitrary<Spec> = fc.record({
  name: fc.nat({ max: 6 }),
  uid: fc.option(fc.nat({ max: 6 }), { nil: undefined }),
  rv: fc.nat({ max: 9 }),
  malformed: fc.oneof(
    { weight: 8, arbitrary: fc.constant(0 as const) },
    { weight: 1, arbitrary: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const) },
  ),
});

/** One step of the sequence: how the next pod list is made from the last one. */
type Step =
  | { op: 'same' }
  | { op: 'copy' }
  | { op: 'replace'; at: number; spec: Spec }
  | { op: 'insert'; at: number; spec: Spec }
  | { op: 'remove'; at: number }
  | { op: 'move'; at: number }
  | { op: 'fresh'; specs: Spec[] };

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ op: 'same' as const }),
  fc.constant({ op: 'copy' as const }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), spec: arbSpec }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), spec: arbSpec }),
  fc.record({ op: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('fresh' as const), specs: fc.array(arbSpec, { maxLength: 12 }) }),
);

function next(list: unknown[], step: Step): unknown[] {
  const at = (n: number) => (list.length === 0 ? 0 : n % list.length);
  switch (step.op) {
    case 'same':
      return list;
    case 'copy':
      return [...list];
    case 'replace':
      return list.length === 0
        ? [pod(step.spec)]
        : list.map((p, i) => (i === at(step.at) ? pod(step.spec) : p));
    case 'insert': {
      const c = [...list];
      c.splice(at(step.at), 0, pod(step.spec));
      return c;
    }
    case 'remove':
      return list.filter((_, i) => i !== at(step.at));
    case 'move': {
      // an object already listed, listed again elsewhere: a duplicate the memory must not hide
      const c = [...list];
      if (c.length > 0) c.push(c[at(step.at)]);
      return c;
    }
    case 'fresh':
      return step.specs.map(pod);
  }
}

/** The guard's two answers: what the screen kept and skipped, what the de-duplication dropped. */
function guard(input: Record<string, unknown>, cache?: ReturnType<typeof createStructureCache>) {
  const screened = screenObservedInput(input, shape, cache);
  const distinct = dedupeObservedInput(screened.input, [...LISTS], cache);
  return { screened, distinct };
}

describe('the entry guard with and without a StructureCache', () => {
  it('answers the same over random sequences of lists', () => {
    fc.assert(
      fc.property(
        fc.array(arbSpec, { maxLength: 12 }),
        fc.array(arbStep, { minLength: 1, maxLength: 12 }),
        (initial, steps) => {
          const cache = createStructureCache();
          const nodes = deepFreeze([{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'n' } }]);
          let pods = deepFreeze(initial.map(pod));
          for (const step of [{ op: 'same' } as Step, ...steps]) {
            pods = deepFreeze(next(pods, step));
            const input = { pods, nodes };
            const plain = guard(input);
            // twice with the cache: the second call is answered from what the first remembered
            for (let round = 0; round < 2; round++) {
              const cached = guard(input, cache);
              expect(cached.screened.skipped).toEqual(plain.screened.skipped);
              expect(cached.screened.errors).toEqual(plain.screened.errors);
              expect(cached.distinct.input).toEqual(plain.distinct.input);
              expect(cached.distinct.dropped).toEqual(plain.distinct.dropped);
              // nothing left out: the very same arrays come back, nothing allocated for them
              if (plain.screened.skipped.length === 0 && plain.distinct.dropped.length === 0) {
                expect(cached.distinct.input).toBe(input);
              }
            }
          }
        },
      ),
      { seed: 2222, numRuns: 300 },
    );
  });

  it('gives back the list itself when nothing is a duplicate, with or without a cache', () => {
    const list = [1, 2, 3].map((i) => pod({ name: i, uid: i, rv: 1, malformed: 0 }));
    expect(dedupeObserved(list).kept).toBe(list);
    const cache = createStructureCache();
    screenObservedInput({ pods: list }, shape, cache);
    expect(dedupeObserved(list, cache).kept).toBe(list);
    expect(dedupeObserved([...list, list[0]], cache).duplicates).toEqual([list[0]]);
  });

  it('does not take a list remembered for one kind as checked for another', () => {
    const cache = createStructureCache();
    // `spec.containers: 5` is no field of a Node (let through, as from a newer Kubernetes) but a
    // wrong type for a Pod
    const odd = [
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'n' }, spec: { containers: 5 } },
    ];
    expect(screenObservedInput({ pods: [], nodes: odd }, shape, cache).skipped).toEqual([]);
    const asPods = screenObservedInput({ pods: odd }, shape, cache);
    expect(asPods.skipped.map((s) => s.at)).toEqual(['pods[0]']);
    expect(asPods.skipped).toEqual(screenObservedInput({ pods: odd }, shape).skipped);
  });
});
