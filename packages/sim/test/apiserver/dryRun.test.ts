// Dry runs over HTTP (src/apiserver/dryRun.ts): `dryRun=All` from the query or from the
// DeleteOptions body, for create, update, patch, apply, delete, deletecollection and /status. Each
// goes through the admission chain (defaults and validation show in the answer or the 422) and
// leaves no trace: the stored object, the store's resourceVersion, the simulation's event log and
// a watch are all unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sampleCloneSet, startTestServer, WatchReader } from './helpers';

const CS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
const PODS = '/api/v1/namespaces/default/pods';

describe('dry run', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  /** What must not move: the store's resourceVersion, the object count and the event log. */
  const trace = () => ({
    rv: s.simulation.store.resourceVersion,
    size: s.simulation.store.size,
    log: s.simulation.events.length,
  });

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'all' });
    expect((await call(s.url, 'POST', CS, sampleCloneSet('live', 2))).status).toBe(201);
    s.advance(30_000);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('create with dryRun=All is defaulted, has a uid and no resourceVersion, and is not stored', async () => {
    const before = trace();
    const r = await call(s.url, 'POST', `${CS}?dryRun=All`, sampleCloneSet('dry', 3));
    expect(r.status).toBe(201);
    expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.metadata.resourceVersion).toBeUndefined();
    expect(r.body.metadata.creationTimestamp).toBeTruthy();
    // kruise's CloneSet defaulting ran (the pod template's containers get Kubernetes' defaults)
    expect(r.body.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(r.body.spec.template.spec.containers[0].terminationMessagePath).toBe('/dev/termination-log');
    expect(r.body.spec.updateStrategy).toBeDefined();
    expect(trace()).toEqual(before);
    expect((await call(s.url, 'GET', `${CS}/dry`)).status).toBe(404);
  });

  it('create with dryRun=All is validated: an invalid CloneSet gets the 422 a real create gets', async () => {
    const bad = sampleCloneSet('bad', -1);
    const dry = await call(s.url, 'POST', `${CS}?dryRun=All`, bad);
    expect(dry.status).toBe(422);
    expect(dry.body.reason).toBe('Invalid');
    expect(dry.body.message).toContain('spec.replicas');
    const real = await call(s.url, 'POST', CS, bad);
    expect(real.status).toBe(422);
    expect(dry.body.message).toBe(real.body.message);
  });

  it('generateName draws a name without shifting the names real creates get', async () => {
    const before = trace();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'gen-' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    };
    const dry = await call(s.url, 'POST', `${PODS}?dryRun=All`, pod);
    expect(dry.status).toBe(201);
    expect(dry.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(dry.body.status.phase).toBe('Pending');
    expect(trace()).toEqual(before);
  });

  it('update, merge patch, apply and /status with dryRun=All answer the result and keep the stored object', async () => {
    const live = (await call(s.url, 'GET', `${CS}/live`)).body;
    const before = trace();
    const put = await call(s.url, 'PUT', `${CS}/live?dryRun=All`, {
      ...live,
      spec: { ...live.spec, replicas: 4 },
    });
    expect(put.status).toBe(200);
    expect(put.body.spec.replicas).toBe(4);
    expect(put.body.metadata.generation).toBe(live.metadata.generation + 1);
    expect(put.body.metadata.resourceVersion).toBe(live.metadata.resourceVersion);
    const patch = await call(
      s.url,
      'PATCH',
      `${CS}/live?dryRun=All`,
      { spec: { replicas: 6 } },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(patch.status).toBe(200);
    expect(patch.body.spec.replicas).toBe(6);
    const invalidPatch = await call(
      s.url,
      'PATCH',
      `${CS}/live?dryRun=All`,
      { spec: { replicas: -3 } },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(invalidPatch.status).toBe(422);
    const apply = await call(
      s.url,
      'PATCH',
      `${CS}/live?dryRun=All&fieldManager=test&force=true`,
      JSON.stringify({ ...sampleCloneSet('live', 7) }),
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    expect(apply.status).toBe(200);
    expect(apply.body.spec.replicas).toBe(7);
    const applyNew = await call(
      s.url,
      'PATCH',
      `${CS}/fresh?dryRun=All&fieldManager=test`,
      JSON.stringify(sampleCloneSet('fresh', 1)),
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    expect(applyNew.status).toBe(201);
    const st = await call(s.url, 'PUT', `${CS}/live/status?dryRun=All`, {
      ...live,
      status: { ...live.status, replicas: 99 },
    });
    expect(st.status).toBe(200);
    expect(st.body.status.replicas).toBe(99);
    expect(trace()).toEqual(before);
    const after = (await call(s.url, 'GET', `${CS}/live`)).body;
    expect(after).toEqual(live);
    expect((await call(s.url, 'GET', `${CS}/fresh`)).status).toBe(404);
  });

  it('delete with dryRun in the DeleteOptions body (as kubectl sends it) keeps the CloneSet and its pods', async () => {
    const pods = (await call(s.url, 'GET', `${PODS}?labelSelector=app%3Dlive`)).body.items;
    expect(pods.length).toBe(2);
    const before = trace();
    const r = await call(s.url, 'DELETE', `${CS}/live`, {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
      dryRun: ['All'],
    });
    expect(r.status).toBe(200);
    // a pod bound to a node would only get a deletionTimestamp; the answer says so, the store does not
    const pod = await call(s.url, 'DELETE', `${PODS}/${pods[0].metadata.name}`, { dryRun: ['All'] });
    expect(pod.status).toBe(200);
    expect(pod.body.metadata.deletionTimestamp).toBeTruthy();
    const coll = await call(s.url, 'DELETE', `${PODS}?labelSelector=app%3Dlive`, { dryRun: ['All'] });
    expect(coll.status).toBe(200);
    expect(coll.body.items.length).toBe(2);
    const q = await call(s.url, 'DELETE', `${CS}/live?dryRun=All`);
    expect(q.status).toBe(200);
    s.advance(60_000);
    const after = trace();
    expect((await call(s.url, 'GET', `${CS}/live`)).status).toBe(200);
    const still = (await call(s.url, 'GET', `${PODS}?labelSelector=app%3Dlive`)).body.items;
    expect(still.map((p: any) => p.metadata.name)).toEqual(pods.map((p: any) => p.metadata.name));
    expect(still.every((p: any) => !p.metadata.deletionTimestamp)).toBe(true);
    expect(after.size).toBe(before.size);
  });

  it('a delete dry run still checks preconditions', async () => {
    const r = await call(s.url, 'DELETE', `${CS}/live`, {
      dryRun: ['All'],
      preconditions: { uid: '00000000-0000-0000-0000-000000000000' },
    });
    expect(r.status).toBe(409);
  });

  it('a watch sees no event for a dry run, then the real write first', async () => {
    const rv = s.simulation.store.resourceVersion;
    const w = new WatchReader(`${s.url}${CS}?watch=true&resourceVersion=${rv}`);
    await w.ready;
    await call(s.url, 'POST', `${CS}?dryRun=All`, sampleCloneSet('ghost', 1));
    await call(
      s.url,
      'PATCH',
      `${CS}/live?dryRun=All`,
      { metadata: { labels: { x: 'y' } } },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    await call(s.url, 'DELETE', `${CS}/live`, { dryRun: ['All'] });
    await call(
      s.url,
      'PATCH',
      `${CS}/live`,
      { metadata: { labels: { real: 'yes' } } },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(await w.until((e) => e.length >= 1)).toBe(true);
    w.close();
    expect(w.events[0].type).toBe('MODIFIED');
    expect(w.events[0].object.metadata.labels.real).toBe('yes');
    expect(w.events[0].object.metadata.resourceVersion).toBe(String(rv + 1));
  });

  it('a dryRun value other than All is the 422 of the options validation', async () => {
    const r = await call(s.url, 'POST', `${CS}?dryRun=yes`, sampleCloneSet('x', 1));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"yes"}: supported values: "All"',
    );
    const d = await call(s.url, 'DELETE', `${CS}/live`, { dryRun: ['Some'] });
    expect(d.status).toBe(422);
    expect(d.body.details.kind).toBe('DeleteOptions');
    expect((await call(s.url, 'GET', `${CS}/x`)).status).toBe(404);
  });
});
