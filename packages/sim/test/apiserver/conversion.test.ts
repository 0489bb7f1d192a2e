// CRD version conversion with the server's own controllers (controllers: all): a multi-version
// CRD's objects are stored in the storage version and served in the requested one, converting
// in process (Advanced StatefulSet: convertStatefulSet, docs/reference/statefulset.md §2.3; CRDs with
// strategy None such as AdvancedCronJob: only apiVersion changes). GET, LIST, WATCH, CREATE,
// UPDATE, PATCH, status and scale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronJobOfJobs } from '../jobFixtures';
import { asts } from './conversionFixtures';
import { call, startTestServer, WatchReader } from './helpers';

const A1 = '/apis/apps.kruise.io/v1alpha1/namespaces/default/statefulsets';
const B1 = '/apis/apps.kruise.io/v1beta1/namespaces/default/statefulsets';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

let s: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const stored = (name: string) =>
  s.simulation.store.get('apps.kruise.io/v1beta1', 'StatefulSet', 'default', name) as any;

describe('Advanced StatefulSet v1alpha1 <-> v1beta1 in process (controllers: all)', () => {
  it('a v1alpha1 CREATE is stored at v1beta1 (the storage version), answered at v1alpha1, and reconciled', async () => {
    const r = await call(s.url, 'POST', A1, asts('alpha', 'apps.kruise.io/v1alpha1'));
    expect(r.status).toBe(201);
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(stored('alpha').apiVersion).toBe('apps.kruise.io/v1beta1');
    s.advance(60_000);
    const pods = await call(s.url, 'GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dalpha');
    expect(pods.body.items.map((p: any) => p.metadata.name).sort()).toEqual(['alpha-0', 'alpha-1']);
  });

  it('GET at v1beta1 and at v1alpha1: v1beta1-only status counts appear only at v1beta1', async () => {
    s.advance(60_000);
    const b = await call(s.url, 'GET', `${B1}/alpha`);
    const a = await call(s.url, 'GET', `${A1}/alpha`);
    expect(b.body.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(a.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(b.body.status.updatedReadyReplicas).toBe(2);
    expect(a.body.status.readyReplicas).toBe(2);
    expect('updatedReadyReplicas' in a.body.status).toBe(false);
    expect('updatedAvailableReplicas' in a.body.status).toBe(false);
    // persistentVolumeClaimRetentionPolicy is v1beta1-only (defaulted on the stored object)
    expect(b.body.spec.persistentVolumeClaimRetentionPolicy).toBeDefined();
    expect('persistentVolumeClaimRetentionPolicy' in a.body.spec).toBe(false);
  });

  it('a v1alpha1 CREATE carrying a v1beta1-only field loses it (field-by-field conversion)', async () => {
    const r = await call(
      s.url,
      'POST',
      A1,
      asts('dropped', 'apps.kruise.io/v1alpha1', { reserveOrdinals: [0] }),
    );
    expect(r.status).toBe(201);
    expect(stored('dropped').spec.reserveOrdinals).toBeUndefined();
  });

  it('LIST at v1alpha1 returns StatefulSetList items at v1alpha1; at v1beta1 at v1beta1', async () => {
    await call(s.url, 'POST', B1, asts('beta', 'apps.kruise.io/v1beta1', { reserveOrdinals: [1] }));
    const a = await call(s.url, 'GET', A1);
    expect(a.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(a.body.items.length).toBeGreaterThanOrEqual(2);
    expect(new Set(a.body.items.map((o: any) => o.apiVersion))).toEqual(new Set(['apps.kruise.io/v1alpha1']));
    expect(a.body.items.find((o: any) => o.metadata.name === 'beta').spec.reserveOrdinals).toBeUndefined();
    const b = await call(s.url, 'GET', B1);
    expect(b.body.items.find((o: any) => o.metadata.name === 'beta').spec.reserveOrdinals).toEqual([1]);
  });

  it('WATCH at v1alpha1 streams v1alpha1 objects (synthetic ADDED and live MODIFIED)', async () => {
    const w = new WatchReader(`${s.url}${A1}?watch=true&fieldSelector=metadata.name%3Dbeta`);
    await w.ready;
    expect(await w.until((e) => e.some((x) => x.type === 'ADDED'))).toBe(true);
    await call(
      s.url,
      'PATCH',
      `${B1}/beta`,
      { metadata: { labels: { app: 'beta', touched: 'yes' } } },
      MERGE,
    );
    expect(
      await w.until((e) =>
        e.some((x) => x.type === 'MODIFIED' && x.object.metadata.labels.touched === 'yes'),
      ),
    ).toBe(true);
    w.close();
    for (const e of w.events) {
      expect(e.object.apiVersion).toBe('apps.kruise.io/v1alpha1');
      expect('reserveOrdinals' in e.object.spec).toBe(false);
    }
  });

  it('a PATCH through v1alpha1 is a v1alpha1 round trip: v1beta1-only fields are dropped (§2.3)', async () => {
    await call(s.url, 'POST', B1, asts('trip', 'apps.kruise.io/v1beta1', { reserveOrdinals: [3] }));
    expect(stored('trip').spec.reserveOrdinals).toEqual([3]);
    const r = await call(s.url, 'PATCH', `${A1}/trip`, { spec: { replicas: 3 } }, MERGE);
    expect(r.status).toBe(200);
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(stored('trip').spec.replicas).toBe(3);
    expect(stored('trip').spec.reserveOrdinals).toBeUndefined();
    expect(stored('trip').apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  it('a PUT through v1alpha1 stores v1beta1; a stale resourceVersion still gets 409', async () => {
    await call(s.url, 'POST', B1, asts('put', 'apps.kruise.io/v1beta1', { reserveOrdinals: [4] }));
    const got = (await call(s.url, 'GET', `${A1}/put`)).body;
    const r = await call(s.url, 'PUT', `${A1}/put`, { ...got, spec: { ...got.spec, replicas: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(stored('put')).toMatchObject({ apiVersion: 'apps.kruise.io/v1beta1', spec: { replicas: 1 } });
    expect(stored('put').spec.reserveOrdinals).toBeUndefined();
    const stale = await call(s.url, 'PUT', `${A1}/put`, { ...got, spec: { ...got.spec, replicas: 2 } });
    expect(stale.status).toBe(409);
  });

  it('the scale subresource at v1alpha1 writes spec.replicas of the stored v1beta1 object', async () => {
    const r = await call(s.url, 'PATCH', `${A1}/alpha/scale`, { spec: { replicas: 3 } }, MERGE);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Scale', spec: { replicas: 3 } });
    expect(stored('alpha')).toMatchObject({ apiVersion: 'apps.kruise.io/v1beta1', spec: { replicas: 3 } });
  });

  it('the status subresource at v1alpha1: the written status is converted (v1beta1-only counts dropped)', async () => {
    const cur = (await call(s.url, 'GET', `${B1}/put`)).body;
    expect(cur.status.updatedReadyReplicas).toBeDefined();
    const view = (await call(s.url, 'GET', `${A1}/put`)).body;
    const r = await call(s.url, 'PUT', `${A1}/put/status`, {
      ...view,
      status: { ...view.status, labelSelector: 'app=put', updatedReadyReplicas: 99 },
    });
    expect(r.status).toBe(200);
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(r.body.status.labelSelector).toBe('app=put');
    expect('updatedReadyReplicas' in r.body.status).toBe(false);
    // the 99 sent at v1alpha1 never reaches the store (a later controller status write may recount it)
    expect(stored('put').status.updatedReadyReplicas).not.toBe(99);
  });

  it('DELETE at v1alpha1 answers the object at v1alpha1', async () => {
    const r = await call(s.url, 'DELETE', `${A1}/dropped`);
    expect(r.status).toBe(200);
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
  });

  it('a CRD with strategy None (AdvancedCronJob): stored at its storage version v1beta1, only apiVersion changes', async () => {
    const acj = cronJobOfJobs('cron', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      schedule: '*/5 * * * *',
      image: 'busybox',
    });
    const r = await call(
      s.url,
      'POST',
      '/apis/apps.kruise.io/v1alpha1/namespaces/default/advancedcronjobs',
      acj,
    );
    expect(r.status).toBe(201);
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    const inStore = s.simulation.store.get(
      'apps.kruise.io/v1beta1',
      'AdvancedCronJob',
      'default',
      'cron',
    ) as any;
    expect(inStore.apiVersion).toBe('apps.kruise.io/v1beta1');
    const a = await call(
      s.url,
      'GET',
      '/apis/apps.kruise.io/v1alpha1/namespaces/default/advancedcronjobs/cron',
    );
    const b = await call(
      s.url,
      'GET',
      '/apis/apps.kruise.io/v1beta1/namespaces/default/advancedcronjobs/cron',
    );
    expect(a.body.spec).toEqual(b.body.spec);
    expect([a.body.apiVersion, b.body.apiVersion]).toEqual([
      'apps.kruise.io/v1alpha1',
      'apps.kruise.io/v1beta1',
    ]);
  });
});
