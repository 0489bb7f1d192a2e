// docs/reference/core.md Appendix B: strategic-merge patch generation for pod-template metadata (B.2)
// with Go's byte layout, and application to pods (B.4).
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { KruiseError } from '../src/contract/errors';
import { goJsonStringify } from '../src/json/goJson';
import { applyStrategicMergePatch, createMetadataStrategicPatch } from '../src/json/strategicMerge';
import { deepFreeze } from '../src/testing';

describe('B.2 createMetadataStrategicPatch', () => {
  it('B.2: nothing differs → "{}" (empty maps/strings omitted as Kubernetes encodes them)', () => {
    expect(
      createMetadataStrategicPatch({ labels: { a: '1' } }, { labels: { a: '1' }, annotations: {}, name: '' }),
    ).toBe('{}');
    expect(createMetadataStrategicPatch(undefined, {})).toBe('{}');
  });

  it('B.2: labels/annotations key-wise, removed key → null, keys sorted byte-wise', () => {
    expect(
      createMetadataStrategicPatch({ labels: { k2: 'x', z: '1' } }, { labels: { k1: 'v1', z: '1' } }),
    ).toBe('{"metadata":{"labels":{"k1":"v1","k2":null}}}');
  });

  it('B.2/B.3: a map that becomes empty is patched to null; a field only in new is added whole', () => {
    expect(
      createMetadataStrategicPatch(
        { annotations: { note: 'x' } },
        { annotations: {}, labels: { team: 'x' } },
      ),
    ).toBe('{"metadata":{"annotations":null,"labels":{"team":"x"}}}');
  });

  it('B.2: finalizers — added (sorted), $deleteFromPrimitiveList (sorted), $setElementOrder = new list; "$" keys first', () => {
    expect(
      createMetadataStrategicPatch(
        { finalizers: ['fz1', 'fz2'], labels: { k2: 'x' } },
        { finalizers: ['fz2'], labels: { k1: 'v1' } },
      ),
    ).toBe(
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}',
    );
    expect(createMetadataStrategicPatch({ finalizers: ['b'] }, { finalizers: ['d', 'b', 'c'] })).toBe(
      '{"metadata":{"$setElementOrder/finalizers":["d","b","c"],"finalizers":["c","d"]}}',
    );
  });

  it('B.2: Go escapes <, >, & in strings', () => {
    expect(createMetadataStrategicPatch({}, { annotations: { x: '<a&b>' } })).toBe(
      '{"metadata":{"annotations":{"x":"\\u003ca\\u0026b\\u003e"}}}',
    );
    expect(goJsonStringify({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });
});

const basePod = (): Pod =>
  deepFreeze({
    metadata: { labels: { a: '1', b: '2' }, finalizers: ['x'], annotations: { keep: 'k' } },
    spec: {
      containers: [
        { name: 'main', image: 'm1', env: [{ name: 'A', value: '1' }] },
        { name: 'side', image: 's1' },
      ],
      tolerations: [{ key: 't1' }],
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'X', status: 'False' },
      ],
    },
  } as Pod);

describe('B.4 applyStrategicMergePatch', () => {
  it('B.4: maps merge key-wise (null deletes); finalizers appended if absent; the input is not mutated', () => {
    const p = basePod();
    const out = applyStrategicMergePatch(
      p,
      '{"metadata":{"labels":{"b":null,"c":"3"},"finalizers":["y","x"]}}',
    );
    expect(out.metadata).toEqual({
      labels: { a: '1', c: '3' },
      finalizers: ['x', 'y'],
      annotations: { keep: 'k' },
    });
    expect(out.spec).toBe(p.spec);
  });

  it('B.4: null for a whole field deletes it (B.3 annotations: null)', () => {
    const out = applyStrategicMergePatch(basePod(), { metadata: { annotations: null } });
    expect(out.metadata).not.toHaveProperty('annotations');
  });

  it('B.4: $deleteFromPrimitiveList removes items; $setElementOrder only reorders', () => {
    const p = deepFreeze({ metadata: { finalizers: ['a', 'b', 'c'] } } as Pod);
    expect(
      applyStrategicMergePatch(p, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } }).metadata!
        .finalizers,
    ).toEqual(['a', 'c']);
    expect(
      applyStrategicMergePatch(p, { metadata: { '$setElementOrder/finalizers': ['c', 'a', 'b'] } }).metadata!
        .finalizers,
    ).toEqual(['c', 'a', 'b']);
  });

  it('containers merge by name (nested env by name); new names are appended; $patch delete removes', () => {
    const out = applyStrategicMergePatch(basePod(), {
      spec: {
        containers: [
          { name: 'side', image: 's2' },
          { name: 'main', env: [{ name: 'B', value: '2' }] },
          { name: 'new', image: 'n' },
        ],
      },
    });
    expect(out.spec!.containers).toEqual([
      {
        name: 'main',
        image: 'm1',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'side', image: 's2' },
      { name: 'new', image: 'n' },
    ]);
    const del = applyStrategicMergePatch(basePod(), {
      spec: { containers: [{ name: 'side', $patch: 'delete' }] },
    });
    expect(del.spec!.containers.map((c) => c.name)).toEqual(['main']);
  });

  it('conditions merge by type; $setElementOrder with merge keys reorders', () => {
    const out = applyStrategicMergePatch(basePod(), {
      status: {
        conditions: [{ type: 'X', status: 'True' }],
        '$setElementOrder/conditions': [{ type: 'X' }, { type: 'Ready' }],
      },
    });
    expect(out.status!.conditions).toEqual([
      { type: 'X', status: 'True' },
      { type: 'Ready', status: 'True' },
    ]);
  });

  it('tolerations and unknown lists are replaced; $patch: replace replaces a map or a merge list', () => {
    const out = applyStrategicMergePatch(basePod(), { spec: { tolerations: [{ key: 't2' }] } });
    expect(out.spec!.tolerations).toEqual([{ key: 't2' }]);
    const replaced = applyStrategicMergePatch(basePod(), {
      metadata: { labels: { $patch: 'replace', z: '9' } },
    });
    expect(replaced.metadata!.labels).toEqual({ z: '9' });
    const list = applyStrategicMergePatch(basePod(), {
      spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'o' }] },
    });
    expect(list.spec!.containers).toEqual([{ name: 'only', image: 'o' }]);
  });

  it('throws KruiseError for a malformed patch or a merge element without its key', () => {
    expect(() => applyStrategicMergePatch(basePod(), '{oops')).toThrow(KruiseError);
    expect(() => applyStrategicMergePatch(basePod(), '[1]')).toThrow(KruiseError);
    expect(() => applyStrategicMergePatch(basePod(), { spec: { containers: [{ image: 'x' }] } })).toThrow(
      KruiseError,
    );
  });
});
