// checkStructure by example: valid objects of every kind pass; each kind of structural error is
// reported at its field in the API server's words; observed objects tolerate what a newer
// Kubernetes adds; the cache returns what a fresh check would; nothing makes it throw.
import { describe, expect, it } from 'vitest';
import { checkStructure, createStructureCache, kindSchema, type StructureError } from '../src/index';
import { deepFreeze } from './helpers';
import { cloneSet, node, pod, statefulSet, validObjects } from './structureFixtures';

/** A deep copy of `base` changed by `edit`. */
function edited<T>(base: T, edit: (o: any) => void): T {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

const at = (errs: StructureError[], field: string) => errs.filter((e) => e.field === field);

describe('checkStructure', () => {
  it.each(validObjects.map((v) => [v.kind, v.object] as const))(
    'a valid %s has no errors',
    (kind, object) => {
      expect(checkStructure(kind, deepFreeze(structuredClone(object)))).toEqual([]);
    },
  );

  it('a wrong JSON type is reported as the API server words it', () => {
    const errs = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.replicas = '3')),
    );
    expect(errs).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        badValue: 'string',
        detail: 'spec.replicas in body must be of type integer: "string"',
      },
    ]);
  });

  it('null is a type error, except where Kubernetes writes null itself (a Time)', () => {
    const errs = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.selector.matchLabels.app = null)),
    );
    expect(errs.map((e) => e.detail)).toEqual([
      'spec.selector.matchLabels.app in body must be of type string: "null"',
    ]);
    expect(
      checkStructure(
        'Pod',
        edited(pod, (o) => (o.metadata.creationTimestamp = null)),
      ),
    ).toEqual([]);
    expect(
      at(
        checkStructure(
          'Pod',
          edited(pod, (o) => (o.metadata.labels = null)),
        ),
        'metadata.labels',
      ),
    ).toHaveLength(1);
  });

  it('the crashes of the boundary report are field errors', () => {
    const podsToDelete = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.scaleStrategy.podsToDelete = 0)),
    );
    expect(podsToDelete.map((e) => e.detail)).toEqual([
      'spec.scaleStrategy.podsToDelete in body must be of type array: "integer"',
    ]);
    const image = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.template.spec.containers[0].image = 5)),
    );
    expect(image.map((e) => e.field)).toEqual(['spec.template.spec.containers[0].image']);
    const taints = checkStructure(
      'Node',
      edited(node, (o) => (o.spec.taints = 1e308)),
      { observed: true },
    );
    expect(taints.map((e) => e.field)).toEqual(['spec.taints']);
    const ordinals = checkStructure(
      'StatefulSet',
      edited(statefulSet, (o) => (o.spec.reserveOrdinals = [true])),
    );
    expect(ordinals.map((e) => e.detail)).toEqual([
      'spec.reserveOrdinals[0] in body must be of type integer,string: "boolean"',
    ]);
  });

  it('int32 and int64 ranges: past 2^31 - 1 is not an int32, past 2^53 - 1 not an exact integer', () => {
    const big = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.minReadySeconds = 5e9)),
    );
    expect(big.map((e) => e.detail)).toEqual([
      'spec.minReadySeconds in body must be of type int32: "5000000000"',
    ]);
    const unsafe = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.metadata.generation = 2 ** 53 + 1)),
    );
    expect(unsafe.map((e) => e.field)).toEqual(['metadata.generation']);
    const nan = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.revisionHistoryLimit = Number.NaN)),
    );
    expect(nan.map((e) => e.detail)).toEqual([
      'spec.revisionHistoryLimit in body must be of type integer: "number"',
    ]);
    expect(
      checkStructure(
        'CloneSet',
        edited(cloneSet, (o) => (o.spec.replicas = 2147483647)),
      ),
    ).toEqual([]);
  });

  it('an IntOrString is an int32 or a string; a Quantity an integer or a quantity string', () => {
    const ios = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.updateStrategy.maxSurge = 3e9)),
    );
    expect(ios.map((e) => e.field)).toEqual(['spec.updateStrategy.maxSurge']);
    const qty = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.spec.template.spec.containers[0].resources.limits.cpu = '1 core')),
    );
    expect(qty).toHaveLength(1);
    expect(qty[0].detail).toMatch(
      /^spec\.template\.spec\.containers\[0\]\.resources\.limits\.cpu in body should match '/,
    );
    expect(
      checkStructure(
        'CloneSet',
        edited(cloneSet, (o) => (o.spec.template.spec.containers[0].resources.limits.cpu = 2)),
      ),
    ).toEqual([]);
  });

  it('required fields, unknown fields and enums', () => {
    const errs = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => {
        delete o.spec.template.spec.containers[0].name;
        o.spec.replcias = 3;
        o.spec.template.spec.restartPolicy = 'Sometimes';
        delete o.spec.selector;
      }),
    );
    expect(errs).toContainEqual({
      type: 'FieldValueRequired',
      field: 'spec.template.spec.containers[0].name',
      detail: '',
    });
    expect(errs).toContainEqual({ type: 'FieldValueRequired', field: 'spec.selector', detail: '' });
    expect(errs).toContainEqual({
      type: 'FieldValueForbidden',
      field: 'spec.replcias',
      detail: 'unknown field "spec.replcias"',
    });
    expect(errs).toContainEqual({
      type: 'FieldValueNotSupported',
      field: 'spec.template.spec.restartPolicy',
      badValue: 'Sometimes',
      detail: 'supported values: "Always", "Never", "OnFailure"',
    });
  });

  it('an observed object may carry fields and enum values of a newer Kubernetes, not wrong types', () => {
    const newer = edited(pod, (o) => {
      o.spec.newField = { x: 1 };
      o.spec.containers[0].imagePullPolicy = 'OnTuesdays';
    });
    expect(checkStructure('Pod', newer)).toHaveLength(2);
    expect(checkStructure('Pod', newer, { observed: true })).toEqual([]);
    const wrong = edited(pod, (o) => (o.metadata.labels = null));
    expect(checkStructure('Pod', wrong, { observed: true }).map((e) => e.field)).toEqual(['metadata.labels']);
  });

  it('status is written by the system: its fields and enum values are let through, not its types', () => {
    const status = edited(pod, (o) => {
      o.status.newField = { x: 1 };
      o.status.phase = 'Hibernating';
    });
    expect(checkStructure('Pod', status)).toEqual([]);
    const wrong = edited(cloneSet, (o) => (o.status.replicas = 'three'));
    expect(checkStructure('CloneSet', wrong).map((e) => e.field)).toEqual(['status.replicas']);
  });

  it('metadata syntax: names, label keys and values, annotation keys and the 256 KiB total', () => {
    const errs = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => {
        o.metadata.name = 'Web';
        o.metadata.labels['app%'] = 'x';
        o.metadata.labels.tier = 'a b';
        o.spec.template.metadata.annotations['-bad'] = 'x';
      }),
    );
    expect(errs.map((e) => [e.field, e.badValue])).toEqual([
      ['metadata.name', 'Web'],
      ['metadata.labels', 'app%'],
      ['metadata.labels', 'a b'],
      ['spec.template.metadata.annotations', '-bad'],
    ]);
    const huge = edited(
      cloneSet,
      (o) => (o.metadata.annotations['example.com/big'] = 'x'.repeat(256 * 1024)),
    );
    expect(checkStructure('CloneSet', huge)).toEqual([
      { type: 'FieldValueTooLong', field: 'metadata.annotations', detail: 'must have at most 262144 bytes' },
    ]);
    const ns = checkStructure('Namespace', { metadata: { name: 'a.b' } });
    expect(ns.map((e) => e.field)).toEqual(['metadata.name']);
  });

  it('apiVersion chooses the version; an apiVersion the kind is not served at is reported', () => {
    const v1alpha1 = edited(statefulSet, (o) => (o.apiVersion = 'apps.kruise.io/v1alpha1'));
    expect(at(checkStructure('StatefulSet', v1alpha1), 'spec.reserveOrdinals')).toHaveLength(1);
    const wrong = checkStructure(
      'CloneSet',
      edited(cloneSet, (o) => (o.apiVersion = 'apps/v1')),
    );
    expect(wrong.map((e) => [e.type, e.field])).toEqual([['FieldValueNotSupported', 'apiVersion']]);
    expect(checkStructure('Pod', { metadata: { name: 'p' }, spec: { containers: [] } })).toEqual([]);
    expect(checkStructure('Gizmo', {}).map((e) => e.field)).toEqual(['kind']);
  });

  it('never throws: any value, at the root or anywhere', () => {
    const weird: unknown[] = [undefined, null, 0, Number.NaN, 'x', [], [1], true, () => 1, Symbol('s'), 10n];
    for (const kind of ['CloneSet', 'Pod', 'Node', 'Nope']) {
      for (const v of weird) {
        expect(() => checkStructure(kind, v)).not.toThrow();
        expect(() => checkStructure(kind, { metadata: v, spec: v, status: v })).not.toThrow();
      }
    }
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no');
        },
      },
    );
    expect(checkStructure('Pod', throwing)).toHaveLength(1);
    const labels = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`-${i}`, 'x']));
    expect(checkStructure('Pod', { metadata: { name: 'p', labels } })).toHaveLength(100_000);
    expect(checkStructure('Pod', 5)[0].detail).toBe('must be of type object: "integer"');
  });

  it('follows the schema, not the value: a value nested 100,000 levels deep in a free field is not entered', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const rev = { metadata: { name: 'r' }, revision: 1, data: deep };
    expect(checkStructure('ControllerRevision', rev)).toEqual([]);
    const cyclic: Record<string, unknown> = { metadata: { name: 'r' }, revision: 1 };
    cyclic.data = cyclic;
    expect(checkStructure('ControllerRevision', cyclic)).toEqual([]);
  });

  it('a cache answers a repeated check of the same object with the same errors', () => {
    const cache = createStructureCache();
    const bad = deepFreeze(edited(pod, (o) => (o.spec.containers[0].image = 5)));
    const first = checkStructure('Pod', bad, { cache });
    expect(cache.results.get(bad)?.get('Pod/false/false')).toEqual(first);
    expect(checkStructure('Pod', bad, { cache })).toEqual(first);
    expect(checkStructure('Pod', bad, { cache, observed: true })).toEqual(first);
    expect(cache.results.get(bad)?.size).toBe(2);
    // The answer is a fresh array: changing it does not change the cache.
    checkStructure('Pod', bad, { cache }).pop();
    expect(checkStructure('Pod', bad, { cache })).toEqual(first);
  });

  it("as a webhook receives an object: unknown fields and the name are the API server's", () => {
    const typo = edited(cloneSet, (o) => {
      o.spec.replcias = 3;
      o.metadata.name = 'Web';
    });
    expect(checkStructure('CloneSet', typo, { admission: true })).toEqual([]);
    const wrong = edited(typo, (o) => (o.spec.replicas = '3'));
    expect(checkStructure('CloneSet', wrong, { admission: true }).map((e) => e.field)).toEqual([
      'spec.replicas',
    ]);
  });

  it("an empty string is an unset enum (Go's zero value), not an unsupported value", () => {
    const empty = edited(pod, (o) => (o.spec.containers[0].imagePullPolicy = ''));
    expect(checkStructure('Pod', empty)).toEqual([]);
  });

  it('kindSchema keeps the Kubernetes types as references', () => {
    const spec = (kindSchema('CloneSet', 'v1alpha1').properties as any).spec.properties;
    expect(spec.template).toEqual({ $ref: 'PodTemplateSpec', description: expect.any(String) });
  });
});

describe('object references in the node-side kinds are typed (core/v1 ObjectReference)', () => {
  const nodeImage = (ownerReferences: unknown) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'NodeImage',
    metadata: { name: 'node-1' },
    spec: {
      images: {
        nginx: {
          tags: [{ tag: '1.25', ownerReferences }],
        },
      },
    },
  });

  it("a NodeImage tag's job reference is accepted when well formed", () => {
    const ref = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      namespace: 'default',
      name: 'pull',
      uid: 'u1',
    };
    expect(checkStructure('NodeImage', deepFreeze(nodeImage([ref])))).toEqual([]);
  });

  it('a wrongly typed or unknown field of that reference is reported at its path', () => {
    const errs = checkStructure(
      'NodeImage',
      deepFreeze(nodeImage([{ kind: 'ImagePullJob', name: 5, owner: 'x' }])),
    );
    expect(errs.map((e) => e.field)).toEqual(
      expect.arrayContaining([
        'spec.images.nginx.tags[0].ownerReferences[0].name',
        'spec.images.nginx.tags[0].ownerReferences[0].owner',
      ]),
    );
  });
});
