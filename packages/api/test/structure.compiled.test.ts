// The compiled checker and its caches give the answers of the plain walk (structureReference.ts),
// field for field, text for text and in the same order: without a cache, with a fresh one, and
// with one shared by every check of a run, where new versions of an object share their unchanged
// subtrees with versions already checked (the simulator's and operator's pattern). Also the
// places where a remembered clean subtree must not hide an error: another walk mode, another
// position (root metadata against template metadata), a subtree that was never clean.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbOneFieldMutation } from '../../sim/src/testing/mutations';
import { type CheckStructureOptions, checkStructure, createStructureCache } from '../src/index';
import { pathText } from '../src/structure/walk';
import { deepFreeze } from './helpers';
import { cloneSet, pod, validObjects } from './structureFixtures';
import { structureReference } from './structureReference';

const MODES: readonly CheckStructureOptions[] = [
  {},
  { observed: true },
  { admission: true },
  { observed: true, admission: true },
];

/** Two successive one-field mutations: the second version shares all but two paths with the first. */
const arbTwoVersions = fc.constantFrom(...validObjects).chain(({ kind, object }) =>
  arbOneFieldMutation(fc.constant(object)).chain((first) =>
    arbOneFieldMutation(fc.constant(first.mutated as Record<string, unknown>)).map((second) => ({
      kind,
      versions: [object, first.mutated, second.mutated],
    })),
  ),
);

function edited<T>(base: T, edit: (o: any) => void): T {
  const copy = structuredClone(base);
  edit(copy);
  return deepFreeze(copy);
}

describe('the compiled checker', () => {
  it('answers as the plain walk, with and without a cache, over successive versions of objects', () => {
    const shared = createStructureCache();
    let errorsSeen = 0;
    fc.assert(
      fc.property(arbTwoVersions, ({ kind, versions }) => {
        for (const opts of MODES) {
          const fresh = createStructureCache();
          for (const v of versions) {
            const expected = structureReference(kind, v, opts);
            errorsSeen += expected.length;
            expect(checkStructure(kind, v, opts)).toEqual(expected);
            expect(checkStructure(kind, v, { ...opts, cache: fresh })).toEqual(expected);
            expect(checkStructure(kind, v, { ...opts, cache: shared })).toEqual(expected);
            // answered again from the results
            expect(checkStructure(kind, v, { ...opts, cache: shared })).toEqual(expected);
          }
        }
      }),
      { numRuns: 400, seed: 20261201 },
    );
    expect(errorsSeen).toBeGreaterThan(400);
  });

  it('reports an error in a changed status while the unchanged spec is skipped', () => {
    const cache = createStructureCache();
    const v1 = deepFreeze(structuredClone(pod)) as any;
    expect(checkStructure('Pod', v1, { observed: true, cache })).toEqual([]);
    const v2 = deepFreeze({
      ...v1,
      status: { ...v1.status, conditions: [{ ...v1.status.conditions[0], status: 5 }] },
    });
    const expected = [
      {
        type: 'FieldValueInvalid',
        field: 'status.conditions[0].status',
        badValue: 'integer',
        detail: 'status.conditions[0].status in body must be of type string: "integer"',
      },
    ];
    expect(structureReference('Pod', v2, { observed: true })).toEqual(expected);
    expect(checkStructure('Pod', v2, { observed: true, cache })).toEqual(expected);
    const v3 = deepFreeze({ ...v2, status: v1.status });
    expect(checkStructure('Pod', v3, { observed: true, cache })).toEqual([]);
  });

  it('a subtree clean in one walk mode is walked again in another', () => {
    const cache = createStructureCache();
    const observedPod = edited(pod, (o) => (o.spec.containers[0].imagePullPolicy = 'Sometimes'));
    expect(checkStructure('Pod', observedPod, { observed: true, cache })).toEqual([]);
    // a new pod object sharing the same spec, checked as a user's write: the enum applies
    const written = deepFreeze({ ...observedPod });
    const expected = structureReference('Pod', written);
    expect(expected.map((e) => e.field)).toEqual(['spec.containers[0].imagePullPolicy']);
    expect(checkStructure('Pod', written, { cache })).toEqual(expected);
  });

  it('root metadata is checked where it stands: the same block is a name error at the root only', () => {
    const cache = createStructureCache();
    const meta = deepFreeze({ name: 'Web', labels: { app: 'web' } });
    const asTemplate = deepFreeze({
      ...cloneSet,
      spec: { ...cloneSet.spec, template: { ...cloneSet.spec.template, metadata: meta } },
    });
    const asRoot = deepFreeze({ ...pod, metadata: meta });
    for (const [kind, obj] of [
      ['CloneSet', asTemplate],
      ['Pod', asRoot],
      ['CloneSet', asTemplate],
    ] as const) {
      const expected = structureReference(kind, obj);
      expect(checkStructure(kind, obj, { cache })).toEqual(expected);
    }
    expect(checkStructure('Pod', asRoot, { cache }).map((e) => e.field)).toEqual(['metadata.name']);
  });

  it('malformed labels and annotations are reported in every new object that carries them', () => {
    const cache = createStructureCache();
    const labels = deepFreeze({ 'app%': 'x', ok: 'fine' });
    const annotations = deepFreeze({ 'bad key!': 'v' });
    for (let i = 0; i < 3; i++) {
      const p = deepFreeze({ ...pod, metadata: { name: `p${i}`, labels, annotations } });
      const expected = structureReference('Pod', p, { observed: true });
      expect(expected.map((e) => e.field)).toEqual(['metadata.labels', 'metadata.annotations']);
      expect(checkStructure('Pod', p, { observed: true, cache })).toEqual(expected);
    }
    // clean maps are remembered; an error elsewhere in the same block is still found
    const good = deepFreeze({ app: 'web' });
    const p1 = deepFreeze({ ...pod, metadata: { name: 'a', labels: good } });
    const p2 = deepFreeze({ ...pod, metadata: { name: 'b', labels: good, namespace: 'Bad_NS' } });
    expect(checkStructure('Pod', p1, { cache })).toEqual([]);
    expect(checkStructure('Pod', p2, { cache })).toEqual(structureReference('Pod', p2));
    expect(checkStructure('Pod', p2, { cache }).map((e) => e.field)).toEqual(['metadata.namespace']);
  });

  it('an error kept from a version that was not clean is found again in the next', () => {
    const cache = createStructureCache();
    const v1 = deepFreeze(structuredClone(pod)) as any;
    expect(checkStructure('Pod', v1, { cache })).toEqual([]);
    const badStatus = { ...v1.status, podIP: 7 };
    const v2 = deepFreeze({ ...v1, status: badStatus });
    const v3 = deepFreeze({ ...v1, metadata: { ...v1.metadata, resourceVersion: '9' }, status: badStatus });
    for (const v of [v2, v3]) {
      const expected = structureReference('Pod', v);
      expect(expected.map((e) => e.field)).toEqual(['status.podIP']);
      expect(checkStructure('Pod', v, { cache })).toEqual(expected);
    }
  });

  it('a field the new version has of its own is checked even where the clean one inherits the same value', () => {
    const cache = createStructureCache();
    const v1 = deepFreeze(structuredClone(pod)) as any;
    expect(checkStructure('Pod', v1, { cache })).toEqual([]);
    // `constructor` is v1's by inheritance only: never checked there, so not skipped here
    const v2 = { ...v1, constructor: Object };
    const meta = { ...v1.metadata, constructor: Object };
    const v3 = { ...v1, metadata: meta };
    for (const v of [v2, v3]) {
      const expected = structureReference('Pod', v);
      expect(expected.length).toBeGreaterThan(0);
      expect(checkStructure('Pod', v, { cache })).toEqual(expected);
    }
  });

  it('a changed name is checked again; names and namespaces kept from the clean version are not', () => {
    const cache = createStructureCache();
    const v1 = deepFreeze(structuredClone(pod)) as any;
    expect(checkStructure('Pod', v1, { cache })).toEqual([]);
    const renamed = deepFreeze({ ...v1, metadata: { ...v1.metadata, name: 'Bad_Name' } });
    const expected = structureReference('Pod', renamed);
    expect(expected.map((e) => e.field)).toEqual(['metadata.name']);
    expect(checkStructure('Pod', renamed, { cache })).toEqual(expected);
  });

  it('compiles a root schema once per cache', () => {
    const cache = createStructureCache();
    checkStructure('Pod', pod, { cache });
    const compiled = cache.schemas.root('Pod', () => {
      throw new Error('compiled again');
    });
    expect(cache.schemas.root('Pod', () => ({}))).toBe(compiled);
  });
});

describe('pathText', () => {
  it("writes a path as Kubernetes' field notation, only when asked", () => {
    expect(pathText([])).toBe('');
    expect(pathText([], 'spec')).toBe('spec');
    expect(pathText(['spec', 'containers', 0, 'name'])).toBe('spec.containers[0].name');
    expect(pathText(['spec', 'containers', 0], 'image')).toBe('spec.containers[0].image');
    expect(pathText(['metadata', 'labels'], '')).toBe('metadata.labels.');
  });
});
