import type { KubeObject } from '@kruise-ts/api';
import { type Action, applyJsonPatch, applyMergePatch, KruiseError, refOf } from '@kruise-ts/core';
import { applyAction, applyActions, applyActionsWithResults, createApplier } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';

const NOW = '2024-01-01T00:00:00Z';
const LATER = '2024-01-01T00:05:00Z';

const cloneSet: KubeObject = deepFreeze({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default', uid: 'cs-uid', resourceVersion: '10', generation: 2 },
  spec: { replicas: 2 },
  status: { replicas: 0 },
});

function pod(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'cs-uid',
          controller: true,
        },
      ],
      ...extra,
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
  };
}

const create = (object: KubeObject): Action => ({ verb: 'create', object, reason: 'ScaleUp' });

describe('create', () => {
  it('assigns uid, resourceVersion after the highest input one, generation 1, creationTimestamp', () => {
    const out = applyActions([cloneSet], [create(pod('web-a'))], NOW, { seed: 1 });
    const p = out[1];
    expect(p.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.metadata.resourceVersion).toBe('11');
    expect(p.metadata.generation).toBe(1);
    expect(p.metadata.creationTimestamp).toBe(NOW);
  });
  it('generateName gets a 5-character suffix from the seed (deterministic)', () => {
    const obj = { ...pod(''), metadata: { ...pod('').metadata, name: undefined, generateName: 'web-' } };
    const a = applyActions([], [create(obj)], NOW, { seed: 5 });
    const b = applyActions([], [create(obj)], NOW, { seed: 5 });
    expect(a[0].metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(a[0].metadata.name).toBe(b[0].metadata.name);
    expect(a[0].metadata.uid).toBe(b[0].metadata.uid);
  });
  it('an existing name is a recorded 409 conflict, not a throw; nameless objects are 422', () => {
    const r = applyActionsWithResults(
      [cloneSet],
      [create(cloneSet), create({ ...pod(''), metadata: {} })],
      NOW,
    );
    expect(r.results[0]).toEqual({ ok: false, code: 409, message: 'cloneset "web" already exists' });
    expect(r.results[1]).toMatchObject({ ok: false, code: 422 });
    expect(r.objects).toEqual([cloneSet]);
  });
  it('the same name in another API group or namespace is another object; versions of a group are one', () => {
    const v1beta1 = {
      ...cloneSet,
      apiVersion: 'apps.kruise.io/v1beta1',
      metadata: { name: 'web', namespace: 'default' },
    };
    const otherNs = { ...cloneSet, metadata: { name: 'web', namespace: 'other' } };
    const r = applyActionsWithResults([cloneSet], [create(v1beta1), create(otherNs)], NOW);
    expect(r.results.map((x) => x.ok)).toEqual([false, true]);
  });
  it('uids are unique across calls with the same seed (used uids are skipped)', () => {
    const first = applyActions([], [create(pod('a'))], NOW, { seed: 3 });
    const second = applyActions(first, [create(pod('b'))], NOW, { seed: 3 });
    expect(second[0].metadata.uid).not.toBe(second[1].metadata.uid);
  });
});

describe('delete', () => {
  it('removes the object and garbage-collects dependents (background cascade)', () => {
    const objs = [cloneSet, pod('web-a'), pod('web-b')];
    const out = applyActions(objs, [{ verb: 'delete', target: refOf(cloneSet), reason: 'Test' }], NOW);
    expect(out).toEqual([]);
  });
  it('a dependent with another live owner only loses the dangling reference', () => {
    const other: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', namespace: 'default', uid: 'cm-uid' },
    };
    const shared = pod('shared');
    const p = {
      ...shared,
      metadata: {
        ...shared.metadata,
        ownerReferences: [
          ...(shared.metadata.ownerReferences ?? []),
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'cm-uid' },
        ],
      },
    };
    const out = applyActions(
      [cloneSet, other, p],
      [{ verb: 'delete', target: refOf(cloneSet), reason: 'Test' }],
      NOW,
    );
    expect(out.map((o) => o.metadata.name)).toEqual(['cm', 'shared']);
    expect(out[1].metadata.ownerReferences?.map((r) => r.uid)).toEqual(['cm-uid']);
  });
  it('with finalizers the object stays, with deletionTimestamp and deletionGracePeriodSeconds 0', () => {
    const p = deepFreeze(pod('web-a', { finalizers: ['example.com/hold'], resourceVersion: '3' }));
    const r = applyActionsWithResults([p], [{ verb: 'delete', target: refOf(p), reason: 'ScaleDown' }], NOW);
    expect(r.objects[0].metadata.deletionTimestamp).toBe(NOW);
    expect(r.objects[0].metadata.deletionGracePeriodSeconds).toBe(0);
    expect(r.objects[0].metadata.resourceVersion).toBe('4');
    // removing the last finalizer then removes the object
    const after = applyActions(
      r.objects,
      [
        {
          verb: 'patch',
          target: refOf(p),
          patchType: 'merge',
          patch: { metadata: { finalizers: null } },
          reason: 'Release',
        },
      ],
      LATER,
    );
    expect(after).toEqual([]);
  });
  it('preconditions: uid and resourceVersion mismatches are 409; missing objects 404', () => {
    const p = pod('web-a', { uid: 'u1', resourceVersion: '5' });
    const r = applyActionsWithResults(
      [p],
      [
        { verb: 'delete', target: refOf(p), reason: 'x', preconditions: { uid: 'u2' } },
        { verb: 'delete', target: refOf(p), reason: 'x', preconditions: { resourceVersion: '4' } },
        { verb: 'delete', target: { ...refOf(p), name: 'nope' }, reason: 'x' },
        { verb: 'delete', target: refOf(p), reason: 'x', preconditions: { uid: 'u1', resourceVersion: '5' } },
      ],
      NOW,
    );
    expect(r.results.map((x) => (x.ok ? 'ok' : x.code))).toEqual([409, 409, 404, 'ok']);
    expect(r.objects).toEqual([]);
  });
});

describe('patch', () => {
  it('merge patch (RFC 7386); generation bumps on spec change only', () => {
    const out = applyActions(
      [cloneSet],
      [
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'merge',
          patch: { metadata: { labels: { a: '1' } } },
          reason: 'x',
        },
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'merge',
          patch: '{"spec":{"replicas":3}}',
          reason: 'x',
        },
      ],
      NOW,
    );
    expect(out[0].metadata.labels).toEqual({ a: '1' });
    expect(out[0].spec).toEqual({ replicas: 3 });
    expect(out[0].metadata.generation).toBe(3);
    expect(out[0].metadata.resourceVersion).toBe('12');
    expect(out[0].metadata.uid).toBe('cs-uid');
  });
  it('json patch (RFC 6902) with a failing test op is a 422 and changes nothing', () => {
    const r = applyActionsWithResults(
      [cloneSet],
      [
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'json',
          patch: [
            { op: 'test', path: '/spec/replicas', value: 5 },
            { op: 'replace', path: '/spec/replicas', value: 9 },
          ],
          reason: 'x',
        },
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'json',
          patch: [
            { op: 'test', path: '/spec/replicas', value: 2 },
            { op: 'replace', path: '/spec/replicas', value: 9 },
          ],
          reason: 'x',
        },
      ],
      NOW,
    );
    expect(r.results[0]).toMatchObject({ ok: false, code: 422 });
    expect(r.results[1].ok).toBe(true);
    expect(r.objects[0].spec).toEqual({ replicas: 9 });
  });
  it('strategic patch merges pod containers by name and conditions by type', () => {
    const p = { ...pod('web-a'), status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    const out = applyActions(
      [p],
      [
        {
          verb: 'patch',
          target: refOf(p),
          patchType: 'strategic',
          patch: {
            metadata: { labels: { x: 'y' } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] },
            status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'False' }] },
          },
          reason: 'InPlaceUpdate',
        },
      ],
      NOW,
    );
    expect(out[0].spec).toEqual({ containers: [{ name: 'main', image: 'nginx:1.26' }] });
    expect((out[0].status as any).conditions.map((c: any) => c.type)).toEqual([
      'Ready',
      'InPlaceUpdateReady',
    ]);
    expect(out[0].metadata.labels).toEqual({ x: 'y' });
  });
  it('a stale resourceVersion in the patch is a 409; renaming is a 422; a no-op patch writes nothing', () => {
    const r = applyActionsWithResults(
      [cloneSet],
      [
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'merge',
          patch: { metadata: { resourceVersion: '9' } },
          reason: 'x',
        },
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'merge',
          patch: { metadata: { name: 'other' } },
          reason: 'x',
        },
        {
          verb: 'patch',
          target: refOf(cloneSet),
          patchType: 'merge',
          patch: { spec: { replicas: 2 } },
          reason: 'x',
        },
        {
          verb: 'patch',
          target: { ...refOf(cloneSet), name: 'x' },
          patchType: 'merge',
          patch: {},
          reason: 'x',
        },
      ],
      NOW,
    );
    expect(r.results.map((x) => (x.ok ? 'ok' : x.code))).toEqual([409, 422, 'ok', 404]);
    expect(r.objects[0]).toBe(cloneSet);
  });
});

describe('update and updateStatus', () => {
  it('update replaces the object, keeps uid, creationTimestamp and status, checks resourceVersion', () => {
    const next = {
      ...cloneSet,
      metadata: { ...cloneSet.metadata, uid: undefined, labels: { b: '2' } },
      spec: { replicas: 5 },
      status: { replicas: 99 },
    };
    const r = applyActionsWithResults(
      [cloneSet],
      [
        { verb: 'update', object: next, reason: 'x' },
        { verb: 'update', object: next, reason: 'x' },
      ],
      NOW,
    );
    expect(r.results[0].ok).toBe(true);
    expect(r.results[1]).toMatchObject({ ok: false, code: 409 });
    const o = r.objects[0];
    expect(o.metadata.uid).toBe('cs-uid');
    expect(o.metadata.labels).toEqual({ b: '2' });
    expect(o.spec).toEqual({ replicas: 5 });
    expect(o.status).toEqual({ replicas: 0 });
    expect(o.metadata.generation).toBe(3);
  });
  it('updateStatus replaces status only; generation unchanged', () => {
    const out = applyActions(
      [cloneSet],
      [
        {
          verb: 'updateStatus',
          target: refOf(cloneSet),
          status: { replicas: 2, readyReplicas: 1 },
          reason: 'x',
        },
      ],
      NOW,
    );
    expect(out[0].status).toEqual({ replicas: 2, readyReplicas: 1 });
    expect(out[0].metadata.generation).toBe(2);
    expect(out[0].metadata.resourceVersion).toBe('11');
  });
});

describe('event', () => {
  it('is stored as a v1 Event with a deterministic name', () => {
    const a: Action = {
      verb: 'event',
      involvedObject: refOf(cloneSet),
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: 'succeed to create pod web-a',
    };
    const out = applyActions([cloneSet], [a, a], NOW, { seed: 2 });
    const events = out.filter((o) => o.kind === 'Event');
    expect(events).toHaveLength(2);
    expect(events[0].metadata.name).not.toBe(events[1].metadata.name);
    expect(events[0].metadata.name?.startsWith('web.')).toBe(true);
    expect(events[0]).toMatchObject({
      reason: 'SuccessfulCreate',
      type: 'Normal',
      involvedObject: { name: 'web' },
      count: 1,
    });
    expect(applyActions([cloneSet], [a, a], NOW, { seed: 2 })).toEqual(out);
  });
});

describe('lower-level API', () => {
  it('applyAction returns a new state and never touches the old one', () => {
    const s0 = createApplier([cloneSet], { startResourceVersion: 100 });
    const { state: s1, result } = applyAction(s0, create(pod('x')), NOW);
    expect(result.ok && result.object.metadata.resourceVersion).toBe('101');
    expect(s0.objects.size).toBe(1);
    expect(s1.objects.size).toBe(2);
  });
  it('throws only for an invalid now', () => {
    expect(() => applyActions([], [create(pod('x'))], 'not a time')).toThrow(KruiseError);
  });
});

describe('patch algorithms', () => {
  it('RFC 7386 examples', () => {
    expect(applyMergePatch({ a: 'b' }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'b' }, { b: 'c' })).toEqual({ a: 'b', b: 'c' });
    expect(applyMergePatch({ a: 'b' }, { a: null })).toEqual({});
    expect(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] })).toEqual({ a: [1] });
    expect(applyMergePatch(['a', 'b'], { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });
  it('RFC 6902 operations', () => {
    const doc = deepFreeze({ a: [1, 2], b: { c: 'x' }, 'd/e': 1, 'f~g': 2 });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/a/1', value: 9 }])).toMatchObject({ a: [1, 9, 2] });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/a/-', value: 3 }])).toMatchObject({ a: [1, 2, 3] });
    expect(applyJsonPatch(doc, [{ op: 'remove', path: '/d~1e' }])).not.toHaveProperty('d/e');
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '/f~0g', value: 3 }])).toMatchObject({ 'f~g': 3 });
    expect(applyJsonPatch(doc, [{ op: 'move', from: '/b/c', path: '/z' }])).toMatchObject({ b: {}, z: 'x' });
    expect(applyJsonPatch(doc, [{ op: 'copy', from: '/a', path: '/b/a' }])).toMatchObject({
      b: { c: 'x', a: [1, 2] },
    });
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '', value: 1 }])).toBe(1);
    for (const bad of [
      [{ op: 'remove', path: '/nope' }],
      [{ op: 'add', path: '/a/5', value: 1 }],
      [{ op: 'replace', path: '/x', value: 1 }],
      [{ op: 'test', path: '/b', value: { c: 'y' } }],
      [{ op: 'move', from: '/b', path: '/b/c' }],
      [{ op: 'bogus', path: '/a' }],
      { op: 'add' },
    ]) {
      expect(() => applyJsonPatch(doc, bad)).toThrow(KruiseError);
    }
  });
});
