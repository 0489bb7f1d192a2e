// The store as an API server: identity, versions, generation, timestamps,
// admission (422), conflicts, finalizers, pod grace periods, garbage collection.
import type { KubeObject } from '@kruise-ts/api';
import { invalid } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { AdmissionChain, invalidMessage } from '../src/admission';
import { Store } from '../src/store';
import { VirtualClock } from '../src/time';

function newStore(admission?: AdmissionChain) {
  const clock = new VirtualClock('2024-01-01T00:00:00Z');
  const store = new Store({
    seed: 5,
    now: () => clock.now(),
    nowMs: () => clock.elapsedMs,
    at: (ms) => clock.at(ms),
    admission,
    freeze: true,
  });
  return { clock, store };
}

const cm = (name: string, extra: Partial<KubeObject> = {}): KubeObject =>
  deepFreeze({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, ...extra });
const pod = (name: string, nodeName?: string, grace?: number): KubeObject =>
  deepFreeze({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName, terminationGracePeriodSeconds: grace, containers: [{ name: 'c', image: 'x' }] },
  });

describe('store: create', () => {
  it('assigns uid, resourceVersion, generation 1 and creationTimestamp from the virtual clock', () => {
    const { clock, store } = newStore();
    clock.advanceTo(61_500);
    const r = store.create(cm('a', { spec: { x: 1 } }), 'user');
    expect(r.ok).toBe(true);
    const o = store.get('v1', 'ConfigMap', 'default', 'a')!;
    expect(o.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(o.metadata.resourceVersion).toBe('1');
    expect(o.metadata.generation).toBe(1);
    expect(o.metadata.creationTimestamp).toBe('2024-01-01T00:01:01Z');
  });

  it('fills generateName with 5 characters of the Kubernetes alphabet', () => {
    const { store } = newStore();
    const r = store.create(
      deepFreeze({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'web-' } }),
      'user',
    );
    expect(r.ok && r.object?.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('answers 409 AlreadyExists for an existing name', () => {
    const { store } = newStore();
    store.create(cm('a'), 'user');
    expect(store.create(cm('a'), 'user')).toEqual({
      ok: false,
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "a" already exists',
    });
  });

  it('starts a pod Pending whatever status it was given', () => {
    const { store } = newStore();
    store.create({ ...pod('p'), status: { phase: 'Running' } }, 'user');
    expect(store.get('v1', 'Pod', 'default', 'p')?.status).toEqual({ phase: 'Pending' });
  });
});

describe('store: update, patch, updateStatus', () => {
  it('bumps generation only when spec changes; resourceVersion on every write', () => {
    const { store } = newStore();
    store.create(cm('a', { spec: { x: 1 } }), 'user');
    store.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' },
      'merge',
      { metadata: { labels: { l: '1' } } },
      'user',
    );
    let o = store.get('v1', 'ConfigMap', 'default', 'a')!;
    expect([o.metadata.generation, o.metadata.resourceVersion]).toEqual([1, '2']);
    store.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' },
      'merge',
      { spec: { x: 2 } },
      'user',
    );
    o = store.get('v1', 'ConfigMap', 'default', 'a')!;
    expect([o.metadata.generation, o.metadata.resourceVersion]).toEqual([2, '3']);
    store.updateStatus(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' },
      { ok: true },
      'user',
    );
    o = store.get('v1', 'ConfigMap', 'default', 'a')!;
    expect([o.metadata.generation, o.metadata.resourceVersion, o.status]).toEqual([2, '4', { ok: true }]);
  });

  it('a write that changes nothing keeps the resourceVersion', () => {
    const { store } = newStore();
    store.create(cm('a', { spec: { x: 1 } }), 'user');
    store.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' },
      'merge',
      { spec: { x: 1 } },
      'user',
    );
    expect(store.get('v1', 'ConfigMap', 'default', 'a')?.metadata.resourceVersion).toBe('1');
  });

  it('rejects an update carrying a stale resourceVersion with 409 Conflict', () => {
    const { store } = newStore();
    const created = store.create(cm('a', { spec: { x: 1 } }), 'user');
    const stale = created.ok ? created.object! : cm('a');
    store.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' },
      'merge',
      { spec: { x: 2 } },
      'user',
    );
    const r = store.update({ ...stale, spec: { x: 3 } }, 'user');
    expect(r.ok === false && r.code).toBe(409);
  });

  it('answers 404 for a missing object', () => {
    const { store } = newStore();
    const r = store.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'zz' },
      'merge',
      {},
      'user',
    );
    expect(r).toEqual({ ok: false, code: 404, reason: 'NotFound', message: 'configmaps "zz" not found' });
  });
});

describe('store: admission', () => {
  it('defaults, then rejects like the API server: The X "n" is invalid: field: Invalid value: v: detail', () => {
    const chain = new AdmissionChain().register('v1', 'ConfigMap', {
      defaulters: [(o) => ({ ...o, data: { defaulted: 'yes', ...((o.data as object) ?? {}) } })],
      validators: [
        (o) =>
          ((o.spec as { replicas?: number } | undefined)?.replicas ?? 0) < 0
            ? [
                invalid(
                  'spec.replicas',
                  (o.spec as { replicas: number }).replicas,
                  'must be greater than or equal to 0',
                ),
              ]
            : [],
      ],
    });
    const { store } = newStore(chain);
    store.create(cm('ok'), 'user');
    expect(store.get('v1', 'ConfigMap', 'default', 'ok')?.data).toEqual({ defaulted: 'yes' });
    const r = store.create(cm('bad', { spec: { replicas: -1 } }), 'user');
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.code).toBe(422);
    expect(r.ok === false && r.message).toBe(
      'The ConfigMap "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it('runs mutating hooks on pods (where SidecarSet injection registers)', () => {
    const chain = new AdmissionChain().register('v1', 'Pod', {
      mutators: [
        (o) => ({
          ...o,
          spec: {
            ...(o.spec as object),
            containers: [
              ...((o.spec as { containers: object[] }).containers ?? []),
              { name: 'sidecar', image: 'proxy:1' },
            ],
          },
        }),
      ],
    });
    const { store } = newStore(chain);
    store.create(pod('p'), 'controller:CloneSet');
    const spec = store.get('v1', 'Pod', 'default', 'p')!.spec as { containers: { name: string }[] };
    expect(spec.containers.map((c) => c.name)).toEqual(['c', 'sidecar']);
  });

  it('joins several errors in brackets', () => {
    const obj = cm('x');
    expect(invalidMessage(obj, [invalid('a', 1, 'bad'), invalid('b', 'v', 'worse')])).toBe(
      'The ConfigMap "x" is invalid: [a: Invalid value: 1: bad, b: Invalid value: "v": worse]',
    );
  });
});

describe('store: deletion', () => {
  it('with finalizers only sets deletionTimestamp; removing the last finalizer removes it', () => {
    const { store } = newStore();
    store.create(cm('a', { metadata: { name: 'a', namespace: 'default', finalizers: ['x/y'] } }), 'user');
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' };
    store.delete(ref, 'user');
    expect(store.get('v1', 'ConfigMap', 'default', 'a')?.metadata.deletionTimestamp).toBe(
      '2024-01-01T00:00:00Z',
    );
    store.patch(ref, 'merge', { metadata: { finalizers: null } }, 'user');
    expect(store.get('v1', 'ConfigMap', 'default', 'a')).toBeUndefined();
  });

  it("gives a bound pod deletionTimestamp = now + grace; the kubelet's final delete removes it", () => {
    const { clock, store } = newStore();
    store.create(pod('p', 'node-1', 20), 'user');
    clock.advanceTo(10_000);
    store.delete({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p' }, 'user');
    const p = store.get('v1', 'Pod', 'default', 'p')!;
    expect([p.metadata.deletionTimestamp, p.metadata.deletionGracePeriodSeconds]).toEqual([
      '2024-01-01T00:00:30Z',
      20,
    ]);
    store.finishPodTermination('/Pod/default/p', 'kubelet:node-1');
    expect(store.get('v1', 'Pod', 'default', 'p')).toBeUndefined();
  });

  it('removes an unbound pod at once', () => {
    const { store } = newStore();
    store.create(pod('p'), 'user');
    expect(store.delete({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p' }, 'user')).toEqual({
      ok: true,
      removed: true,
    });
  });

  it('checks a uid precondition (409)', () => {
    const { store } = newStore();
    store.create(cm('a'), 'user');
    const r = store.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' }, 'user', {
      preconditions: { uid: 'other' },
    });
    expect(r.ok === false && r.code).toBe(409);
  });

  it('garbage-collects dependents in the background; a dependent with another live owner only loses the reference', () => {
    const { store } = newStore();
    const owner = store.create(cm('owner'), 'user');
    const other = store.create(cm('other'), 'user');
    const ref = (o: typeof owner) =>
      o.ok
        ? {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: o.object!.metadata.name!,
            uid: o.object!.metadata.uid!,
          }
        : { apiVersion: '', kind: '', name: '', uid: '' };
    store.create(
      cm('dep1', { metadata: { name: 'dep1', namespace: 'default', ownerReferences: [ref(owner)] } }),
      'user',
    );
    store.create(
      cm('dep2', {
        metadata: { name: 'dep2', namespace: 'default', ownerReferences: [ref(owner), ref(other)] },
      }),
      'user',
    );
    const deleted: string[] = [];
    store.watch((c) => c.type === 'deleted' && deleted.push(`${c.object.metadata.name}:${c.source}`));
    store.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'owner' }, 'user');
    expect(deleted).toEqual(['owner:user', 'dep1:garbage-collector']);
    expect(
      store.get('v1', 'ConfigMap', 'default', 'dep2')?.metadata.ownerReferences?.map((r) => r.name),
    ).toEqual(['other']);
  });
});
