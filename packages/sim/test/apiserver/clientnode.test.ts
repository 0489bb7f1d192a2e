// @kubernetes/client-node 2.x against the API server (guide §J): CRUD with
// CustomObjectsApi, /status and /scale, CoreV1Api typed lists (dates parsed)
// and Event create with generateName, KubernetesObjectApi server-side apply,
// and an informer that survives a forced 410 (relists, then keeps delivering).
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCloneSet, startTestServer } from './helpers';

let s: Awaited<ReturnType<typeof startTestServer>>;
let kc: KubeConfig;
let custom: CustomObjectsApi;
const cs = { group: 'apps.kruise.io', version: 'v1alpha1', namespace: 'default', plural: 'clonesets' };

beforeAll(async () => {
  s = await startTestServer();
  kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfigPath);
  custom = kc.makeApiClient(CustomObjectsApi);
});
afterAll(async () => {
  await s.close();
});

const waitFor = async (pred: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!pred() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return pred();
};

describe('client-node CustomObjectsApi', () => {
  it('create, get, list, replace', async () => {
    const created = await custom.createNamespacedCustomObject({ ...cs, body: sampleCloneSet('cn', 2) });
    expect(created.metadata.uid).toBeTruthy();
    const got = await custom.getNamespacedCustomObject({ ...cs, name: 'cn' });
    expect(got.spec.replicas).toBe(2);
    const list = await custom.listNamespacedCustomObject(cs);
    expect(list.items.map((o: any) => o.metadata.name)).toContain('cn');
    const replaced = await custom.replaceNamespacedCustomObject({
      ...cs,
      name: 'cn',
      body: { ...got, spec: { ...got.spec, minReadySeconds: 5 } },
    });
    expect(replaced.spec.minReadySeconds).toBe(5);
    expect(replaced.metadata.generation).toBe(got.metadata.generation + 1);
  });
  it('a stale replace is rejected with code 409 and the Status body', async () => {
    const got = await custom.getNamespacedCustomObject({ ...cs, name: 'cn' });
    await custom.patchNamespacedCustomObject({
      ...cs,
      name: 'cn',
      body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }],
    });
    const err = await custom.replaceNamespacedCustomObject({ ...cs, name: 'cn', body: got }).catch((e) => e);
    expect(err.code).toBe(409);
    expect(JSON.parse(err.body).reason).toBe('Conflict');
  });
  it('patch: JSON patch by default, merge patch with setHeaderOptions', async () => {
    const p = await custom.patchNamespacedCustomObject(
      { ...cs, name: 'cn', body: { metadata: { labels: { merged: 'yes' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(p.metadata.labels).toMatchObject({ app: 'cn', x: 'y', merged: 'yes' });
  });
  it('/scale get, patch and replace change only spec.replicas', async () => {
    s.advance(60_000);
    const sc = await custom.getNamespacedCustomObjectScale({ ...cs, name: 'cn' });
    expect(sc).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 2 },
      status: { replicas: 2, selector: 'app=cn' },
    });
    const p = await custom.patchNamespacedCustomObjectScale(
      { ...cs, name: 'cn', body: { spec: { replicas: 3 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(p.spec.replicas).toBe(3);
    // The controller has written status since (new resourceVersion): replace unconditionally.
    const r = await custom.replaceNamespacedCustomObjectScale({
      ...cs,
      name: 'cn',
      body: { ...p, metadata: { name: 'cn', namespace: 'default' }, spec: { replicas: 4 } },
    });
    expect(r.spec.replicas).toBe(4);
    expect((await custom.getNamespacedCustomObject({ ...cs, name: 'cn' })).spec.replicas).toBe(4);
  });
  it('/status replace and patch change only .status', async () => {
    const cur = await custom.getNamespacedCustomObject({ ...cs, name: 'cn' });
    const r = await custom.replaceNamespacedCustomObjectStatus({
      ...cs,
      name: 'cn',
      body: { ...cur, spec: { ...cur.spec, replicas: 1 }, status: { ...cur.status, observedGeneration: 42 } },
    });
    expect(r.status.observedGeneration).toBe(42);
    expect(r.spec.replicas).toBe(4);
    const p = await custom.patchNamespacedCustomObjectStatus(
      { ...cs, name: 'cn', body: { status: { observedGeneration: 43 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(p.status.observedGeneration).toBe(43);
  });
  it('delete (no body) returns the object, then get is 404', async () => {
    await custom.deleteNamespacedCustomObject({ ...cs, name: 'cn' });
    const err = await custom.getNamespacedCustomObject({ ...cs, name: 'cn' }).catch((e) => e);
    expect(err.code).toBe(404);
  });
});

describe('client-node CoreV1Api and KubernetesObjectApi', () => {
  it('listNamespacedPod parses creationTimestamp as a Date; createNamespacedEvent with generateName', async () => {
    await custom.createNamespacedCustomObject({ ...cs, body: sampleCloneSet('pods', 2) });
    s.advance(30_000);
    const core = kc.makeApiClient(CoreV1Api);
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=pods' });
    expect(pods.items).toHaveLength(2);
    expect(pods.items[0].metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(pods.items[0].status?.phase).toBe('Running');
    const ev = await core.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { generateName: 'pods-' },
        involvedObject: { kind: 'CloneSet', name: 'pods', namespace: 'default' },
        reason: 'Test',
        message: 'hello',
        type: 'Normal',
      },
    });
    expect(ev.metadata?.name).toMatch(/^pods-[a-z0-9]{5}$/);
  });
  it('KubernetesObjectApi server-side apply (force=true) creates then updates', async () => {
    const objs = KubernetesObjectApi.makeApiClient(kc);
    const body = {
      ...sampleCloneSet('ssa', 1),
      metadata: { name: 'ssa', namespace: 'default', labels: { app: 'ssa' } },
    };
    const a = await objs.patch(body, undefined, undefined, 'operator', true, PatchStrategy.ServerSideApply);
    expect(a.metadata?.uid).toBeTruthy();
    const b = await objs.patch(
      { ...body, spec: { ...body.spec, replicas: 2 } },
      undefined,
      undefined,
      'operator',
      true,
      PatchStrategy.ServerSideApply,
    );
    expect((b as any).spec.replicas).toBe(2);
    expect(
      b.metadata?.managedFields?.some(
        (m: { manager?: string; operation?: string }) => m.manager === 'operator' && m.operation === 'Apply',
      ),
    ).toBe(true);
  });
});

describe('client-node informer', () => {
  it('list then watch; survives a forced 410 by relisting, and delivers later changes', async () => {
    const path = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
    const inf = makeInformer(kc, path, () => custom.listNamespacedCustomObject(cs));
    const added: string[] = [];
    const updated: string[] = [];
    const deleted: string[] = [];
    inf.on('add', (o) => added.push(o.metadata?.name ?? ''));
    inf.on('update', (o) => updated.push(o.metadata?.name ?? ''));
    inf.on('delete', (o) => deleted.push(o.metadata?.name ?? ''));
    let errors = 0;
    inf.on('error', () => {
      errors++;
    });
    await inf.start();
    try {
      expect(await waitFor(() => added.includes('pods') && added.includes('ssa'))).toBe(true);
      await custom.createNamespacedCustomObject({ ...cs, body: sampleCloneSet('inf1', 0) });
      expect(await waitFor(() => added.includes('inf1'))).toBe(true);
      s.expireWatchHistory();
      await new Promise((r) => setTimeout(r, 300));
      await custom.createNamespacedCustomObject({ ...cs, body: sampleCloneSet('inf2', 0) });
      expect(await waitFor(() => added.includes('inf2'))).toBe(true);
      await custom.deleteNamespacedCustomObject({ ...cs, name: 'inf1' });
      expect(await waitFor(() => deleted.includes('inf1'))).toBe(true);
      expect(
        inf
          .list()
          .map((o) => o.metadata?.name)
          .sort(),
      ).toEqual(['inf2', 'pods', 'ssa']);
      expect(errors).toBe(0);
    } finally {
      await inf.stop();
    }
  });
});
