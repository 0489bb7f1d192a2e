// The store's object quota (packages/cluster/src/objectQuota.ts), which `kruise-ts serve --max-objects` sets: creates
// past it are refused as kube-apiserver refuses a create past a ResourceQuota's object count
// (403 Forbidden, `exceeded quota: ...`), through the store, through a controller's action and
// through the HTTP API; deleting an object makes room again.
import { quotaDenial } from '@kruise-ts/cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../src/simulation';
import { call, startTestServer } from './apiserver/helpers';

const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
});

describe('quotaDenial', () => {
  it('lets a create through below the limit and refuses it at the limit, in the API server words', () => {
    expect(quotaDenial(cm('a'), 9, 10)).toBeUndefined();
    expect(quotaDenial(cm('a'), 10, 10)).toEqual({
      ok: false,
      code: 403,
      reason: 'Forbidden',
      message:
        'configmaps "a" is forbidden: exceeded quota: kruise-ts-serve, requested: count/objects=1, used: count/objects=10, limited: count/objects=10',
    });
    expect(quotaDenial(cm('a'), 1e9, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});

describe('a store with an object quota', () => {
  it('refuses the create past the quota, stores nothing, and takes creates again after a delete', () => {
    const sim = new Simulation({ seed: 1 });
    const start = sim.store.size;
    sim.store.limitObjects(start + 2);
    expect(sim.apply(cm('a')).ok).toBe(true);
    expect(sim.apply(cm('b')).ok).toBe(true);
    const refused = sim.apply(cm('c'));
    expect(refused).toMatchObject({ ok: false, code: 403, reason: 'Forbidden' });
    expect(sim.store.size).toBe(start + 2);
    expect(sim.store.get('v1', 'ConfigMap', 'default', 'c')).toBeUndefined();
    const deleted = sim.store.delete(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' },
      'user',
    );
    expect(deleted.ok).toBe(true);
    expect(sim.apply(cm('c')).ok).toBe(true);
  });

  it('a controller asked for more pods than the quota leaves creates refused, and the store at the quota', () => {
    const sim = new Simulation({ seed: 1 });
    const limit = sim.store.size + 40;
    sim.store.limitObjects(limit);
    sim.apply({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'big', namespace: 'default' },
      spec: {
        replicas: 1000,
        selector: { matchLabels: { app: 'big' } },
        template: {
          metadata: { labels: { app: 'big' } },
          spec: { containers: [{ name: 'c', image: 'app:v1' }] },
        },
      },
    } as never);
    sim.runUntil(5_000);
    expect(sim.store.size).toBeLessThanOrEqual(limit);
    expect(sim.store.size).toBeGreaterThan(limit - 5);
  });
});

describe('kruise-ts serve with an object quota', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
  });
  afterAll(async () => {
    await s.close();
  });

  it('POST past the quota is 403 Forbidden with the exceeded-quota Status; nothing is stored', async () => {
    s.simulation.store.limitObjects(s.simulation.store.size + 1);
    const ok = await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', cm('first'));
    expect(ok.status).toBe(201);
    const r = await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', cm('second'));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: expect.stringMatching(
        /^configmaps "second" is forbidden: exceeded quota: kruise-ts-serve, requested: count\/objects=1, used: count\/objects=\d+, limited: count\/objects=\d+$/,
      ),
    });
    expect(s.simulation.store.get('v1', 'ConfigMap', 'default', 'second')).toBeUndefined();
  });
});
