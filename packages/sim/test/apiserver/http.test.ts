// The API server over plain HTTP (fetch): what kubectl and client libraries rely on, one `it`
// per item, grouped A–I: discovery, OpenAPI, reads and lists, writes, deletes, watches,
// subresources, server-side apply and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sampleCloneSet, startTestServer, WatchReader } from './helpers';

const CS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
const PODS = '/api/v1/namespaces/default/pods';
const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const AGG_V2 =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const AGG_V2BETA1 =
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

let s: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe('§A/§B transport and /version', () => {
  it('§B /version reports minor 32 with Cache-Control: no-cache, private', async () => {
    const r = await call(s.url, 'GET', '/version?timeout=5s');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ major: '1', minor: '32', gitTreeState: 'clean', platform: 'linux/amd64' });
    expect(r.headers.get('cache-control')).toBe('no-cache, private');
    expect(r.headers.get('content-type')).toBe('application/json');
  });
  it('§A binds 127.0.0.1 over HTTPS and writes a kubeconfig with its certificate and token', async () => {
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { readFileSync } = await import('node:fs');
    const kc = readFileSync(s.kubeconfigPath, 'utf8');
    expect(kc).toContain(`server: ${s.url}`);
    expect(kc).toContain(`certificate-authority-data: ${Buffer.from(s.caCert ?? '').toString('base64')}`);
    expect(kc).toContain(`token: ${s.token}`);
    expect(kc).not.toContain('insecure-skip-tls-verify');
  });
  it('§H unknown paths answer a 404 Status', async () => {
    const r = await call(s.url, 'GET', '/nope/at/all');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
    });
  });
});

describe('§C discovery', () => {
  it('§C aggregated v2 answers the first Accept entry with the v2 content type', async () => {
    const r = await call(s.url, 'GET', '/apis', undefined, { Accept: AGG_V2 });
    expect(r.headers.get('content-type')).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    );
    expect(r.body.apiVersion).toBe('apidiscovery.k8s.io/v2');
    const kruise = r.body.items.find((i: any) => i.metadata.name === 'apps.kruise.io');
    expect(kruise.versions.map((v: any) => v.version)).toEqual(['v1beta1', 'v1alpha1']);
    const cs = kruise.versions[1].resources.find((x: any) => x.resource === 'clonesets');
    expect(cs).toMatchObject({ scope: 'Namespaced', singularResource: 'cloneset', shortNames: ['clone'] });
    expect(cs.verbs).toHaveLength(8);
    expect(cs.subresources.map((x: any) => x.subresource)).toEqual(['status', 'scale']);
    expect(cs.subresources[1].responseKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
  it('§C kubectl 1.29 (no v2 in Accept) gets v2beta1', async () => {
    const r = await call(s.url, 'GET', '/api', undefined, { Accept: AGG_V2BETA1 });
    expect(r.body.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    const pods = r.body.items[0].versions[0].resources.find((x: any) => x.resource === 'pods');
    expect(pods.categories).toEqual(['all']);
  });
  it('§C legacy /api, /apis and per-group-version APIResourceList', async () => {
    expect((await call(s.url, 'GET', '/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = (await call(s.url, 'GET', '/apis')).body;
    expect(apis.kind).toBe('APIGroupList');
    expect(apis.groups.find((g: any) => g.name === 'apps.kruise.io').preferredVersion.version).toBe(
      'v1beta1',
    );
    const list = (await call(s.url, 'GET', '/apis/apps.kruise.io/v1alpha1')).body;
    const names = list.resources.map((r: any) => r.name);
    expect(names).toEqual(expect.arrayContaining(['clonesets', 'clonesets/status', 'clonesets/scale']));
    expect(list.resources.find((r: any) => r.name === 'clonesets/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
  });
});

describe('§D OpenAPI v3', () => {
  it('§D root lists group-versions with hashed URLs; the doc declares fieldValidation on PATCH and has the CRD schema', async () => {
    const root = (await call(s.url, 'GET', '/openapi/v3')).body;
    const url = root.paths['apis/apps.kruise.io/v1alpha1'].serverRelativeURL as string;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/apps\.kruise\.io\/v1alpha1\?hash=[0-9A-F]{64}$/);
    const doc = (await call(s.url, 'GET', url)).body;
    const p = doc.paths['/apis/apps.kruise.io/v1alpha1/namespaces/{namespace}/clonesets/{name}'].patch;
    expect(p['x-kubernetes-group-version-kind']).toEqual({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      kind: 'CloneSet',
    });
    expect(p.parameters.map((x: any) => x.name)).toContain('fieldValidation');
    expect(
      doc.components.schemas['io.kruise.apps.v1alpha1.CloneSet'].properties.spec.properties.replicas.type,
    ).toBe('integer');
    expect((await call(s.url, 'GET', '/openapi/v2')).status).toBe(404);
  });
});

describe('§E/§H writes and errors', () => {
  it('§E create → 201 with uid, creationTimestamp, generation 1, resourceVersion; status dropped', async () => {
    const r = await call(s.url, 'POST', `${CS}?fieldManager=kubectl-create&fieldValidation=Strict`, {
      ...sampleCloneSet('a1', 2),
      status: { replicas: 9 },
    });
    expect(r.status).toBe(201);
    expect(r.body.metadata).toMatchObject({ name: 'a1', namespace: 'default', generation: 1 });
    expect(r.body.metadata.uid).toMatch(/-/);
    expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(r.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r.body.status?.replicas).not.toBe(9);
  });
  it('§H 409 AlreadyExists', async () => {
    const r = await call(s.url, 'POST', CS, sampleCloneSet('a1', 2));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      reason: 'AlreadyExists',
      message: 'clonesets.apps.kruise.io "a1" already exists',
    });
  });
  it('§E DELETE preconditions: a wrong uid or resourceVersion is a 409 and the object stays', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pre' }, data: { a: '1' } };
    const created = (await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', cm)).body;
    const path = '/api/v1/namespaces/default/configmaps/pre';
    const uid = await call(s.url, 'DELETE', path, { preconditions: { uid: 'other' } });
    expect(uid.status).toBe(409);
    expect(uid.body.message).toContain(
      `Precondition failed: UID in precondition: other, UID in object meta: ${created.metadata.uid}`,
    );
    const rv = await call(s.url, 'DELETE', path, { preconditions: { resourceVersion: '1' } });
    expect(rv.status).toBe(409);
    expect(rv.body.message).toContain(
      `Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${created.metadata.resourceVersion}`,
    );
    expect((await call(s.url, 'GET', path)).status).toBe(200);
    const ok = await call(s.url, 'DELETE', path, { preconditions: { uid: created.metadata.uid } });
    expect(ok.status).toBe(200);
  });
  it('§H 404 NotFound with details', async () => {
    const r = await call(s.url, 'GET', `${CS}/missing`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      message: 'clonesets.apps.kruise.io "missing" not found',
      details: { name: 'missing', group: 'apps.kruise.io', kind: 'clonesets' },
    });
  });
  it('§H 422 Invalid from the admission chain, with causes', async () => {
    const r = await call(s.url, 'POST', CS, sampleCloneSet('bad', -1));
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(
      /^CloneSet\.apps\.kruise\.io "bad" is invalid: spec\.replicas: Invalid value: -1/,
    );
    expect(r.body.details).toMatchObject({ name: 'bad', group: 'apps.kruise.io', kind: 'CloneSet' });
    expect(r.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.replicas' });
  });
  it('§E generateName', async () => {
    const { metadata: _m, ...rest } = sampleCloneSet('x', 0);
    const r = await call(s.url, 'POST', CS, { ...rest, metadata: { generateName: 'gen-' } });
    expect(r.status).toBe(201);
    expect(r.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });
  it('§K creating in a namespace that does not exist is 404', async () => {
    const r = await call(
      s.url,
      'POST',
      '/apis/apps.kruise.io/v1alpha1/namespaces/nowhere/clonesets',
      sampleCloneSet('n'),
    );
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('namespaces "nowhere" not found');
  });
  it('§H 400 for malformed bodies', async () => {
    const r = await call(s.url, 'POST', CS, '{not json', { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });
  it('§H 409 Conflict on PUT with a stale resourceVersion', async () => {
    const cur = (await call(s.url, 'GET', `${CS}/a1`)).body;
    await call(
      s.url,
      'PATCH',
      `${CS}/a1`,
      { metadata: { labels: { v: '2' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const r = await call(s.url, 'PUT', `${CS}/a1`, cur);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Operation cannot be fulfilled on clonesets.apps.kruise.io "a1": the object has been modified; please apply your changes to the latest version and try again',
    );
  });
  it('§E generation bumps on spec change only; unchanged writes keep the resourceVersion', async () => {
    const before = (await call(s.url, 'GET', `${CS}/a1`)).body;
    const same = await call(
      s.url,
      'PATCH',
      `${CS}/a1`,
      { metadata: { labels: { v: '2' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(same.body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const r = await call(
      s.url,
      'PATCH',
      `${CS}/a1`,
      [{ op: 'add', path: '/spec/minReadySeconds', value: 3 }],
      { 'Content-Type': 'application/json-patch+json' },
    );
    expect(r.status).toBe(200);
    expect(r.body.metadata.generation).toBe(before.metadata.generation + 1);
  });
  it('§E 415 for a strategic merge patch on a custom resource', async () => {
    const r = await call(
      s.url,
      'PATCH',
      `${CS}/a1`,
      { spec: {} },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect(r.status).toBe(415);
    expect(r.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });
  it('§E server-side apply: 201 when it creates, 200 when it updates, managedFields entry; 400 without fieldManager', async () => {
    const h = { 'Content-Type': 'application/apply-patch+yaml' };
    const c = await call(
      s.url,
      'PATCH',
      `${CS}/ssa?fieldManager=kubectl&force=false`,
      sampleCloneSet('ssa', 1),
      h,
    );
    expect(c.status).toBe(201);
    // the same manager applies its whole configuration again (a field it leaves out is removed)
    const u = await call(s.url, 'PATCH', `${CS}/ssa?fieldManager=kubectl`, sampleCloneSet('ssa', 2), h);
    expect(u.status).toBe(200);
    expect(u.body.spec.replicas).toBe(2);
    expect(
      u.body.metadata.managedFields.some((m: any) => m.manager === 'kubectl' && m.operation === 'Apply'),
    ).toBe(true);
    expect((await call(s.url, 'PATCH', `${CS}/ssa`, {}, h)).status).toBe(400);
  });
  it('§E strategic merge for pods merges containers by name', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p1' },
      spec: {
        containers: [
          { name: 'a', image: 'a:1' },
          { name: 'b', image: 'b:1' },
        ],
      },
    };
    expect((await call(s.url, 'POST', PODS, pod)).status).toBe(201);
    const r = await call(
      s.url,
      'PATCH',
      `${PODS}/p1`,
      { spec: { containers: [{ name: 'b', image: 'b:2' }] } },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect(r.status).toBe(200);
    expect(r.body.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual(['a=a:1', 'b=b:2']);
  });
});

describe('§I subresources', () => {
  it('§I /scale GET maps the CRD scale paths; merge PATCH changes only spec.replicas', async () => {
    await call(s.url, 'POST', CS, sampleCloneSet('sc', 2));
    s.advance(60_000);
    const g = await call(s.url, 'GET', `${CS}/sc/scale`);
    expect(g.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 2, selector: 'app=sc' },
    });
    const p = await call(
      s.url,
      'PATCH',
      `${CS}/sc/scale`,
      { spec: { replicas: 3 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(p.status).toBe(200);
    expect(p.body.spec.replicas).toBe(3);
    expect((await call(s.url, 'GET', `${CS}/sc`)).body.spec.replicas).toBe(3);
  });
  it('§I /status PUT changes only .status; a main-resource PUT keeps the stored status', async () => {
    const cur = (await call(s.url, 'GET', `${CS}/sc`)).body;
    const r = await call(s.url, 'PUT', `${CS}/sc/status`, {
      ...cur,
      spec: { ...cur.spec, replicas: 9 },
      status: { ...cur.status, observedGeneration: 99 },
    });
    expect(r.status).toBe(200);
    expect(r.body.status.observedGeneration).toBe(99);
    expect(r.body.spec.replicas).toBe(3);
    const now = (await call(s.url, 'GET', `${CS}/sc`)).body;
    const u = await call(s.url, 'PUT', `${CS}/sc`, { ...now, status: { replicas: 0 } });
    expect(u.body.status.observedGeneration).toBe(99);
  });
});

describe('§F tables and selectors', () => {
  it('§F CRD printer columns: Name first, integers as JSON integers, missing values null, date as HumanDuration', async () => {
    s.advance(60_000);
    const r = await call(s.url, 'GET', `${CS}?limit=500`, undefined, { Accept: TABLE });
    expect(r.body.kind).toBe('Table');
    expect(r.body.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'DESIRED',
      'UPDATED',
      'UPDATED_READY',
      'UPDATED_AVAILABLE',
      'READY',
      'TOTAL',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    const row = r.body.rows.find((x: any) => x.cells[0] === 'sc');
    expect(row.cells.slice(1, 7)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(row.cells[7]).toMatch(/^\d+[smhd]/);
    expect(row.cells[8]).toBe('nginx');
    expect(row.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'sc' } });
  });
  it('§F pod table: READY ready/total, STATUS, RESTARTS as a string, wide columns with priority 1', async () => {
    const r = await call(s.url, 'GET', `${PODS}?labelSelector=app%3Dsc`, undefined, { Accept: TABLE });
    expect(r.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Ready:0',
      'Status:0',
      'Restarts:0',
      'Age:0',
      'IP:1',
      'Node:1',
      'Nominated Node:1',
      'Readiness Gates:1',
    ]);
    expect(r.body.rows).toHaveLength(3);
    for (const row of r.body.rows) expect(row.cells.slice(1, 4)).toEqual(['1/1', 'Running', '0']);
  });
  it('§E label selectors k=v, k!=v, k, !k and field selector metadata.name', async () => {
    const names = async (q: string) =>
      (await call(s.url, 'GET', `${CS}?${q}`)).body.items.map((o: any) => o.metadata.name).sort();
    expect(await names('labelSelector=app%3Dsc')).toEqual(['sc']);
    expect(await names('labelSelector=v')).toEqual(['a1']);
    expect(await names('labelSelector=!v,app')).toEqual(['sc', 'ssa']);
    expect(await names('labelSelector=app!%3Dsc,app')).toEqual(['a1', 'ssa']);
    expect(await names('fieldSelector=metadata.name%3Dssa')).toEqual(['ssa']);
    expect((await call(s.url, 'GET', `${CS}?labelSelector=%3D%3D`)).status).toBe(400);
  });
});

describe('§G watch', () => {
  it('§G headers flushed at once on an empty collection; resume from a resourceVersion; DELETED after finalizers', async () => {
    const empty = new WatchReader(`${s.url}/api/v1/namespaces/kube-public/configmaps?watch=true`);
    await empty.ready;
    expect(empty.status).toBe(200);
    expect(empty.contentType).toBe('application/json;stream=watch');
    empty.close();
    const list = (await call(s.url, 'GET', '/api/v1/namespaces/default/configmaps')).body;
    const w = new WatchReader(
      `${s.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
    );
    await w.ready;
    await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'cm1', finalizers: ['x/y'] },
      data: { a: '1' },
    });
    await call(s.url, 'DELETE', '/api/v1/namespaces/default/configmaps/cm1', {
      propagationPolicy: 'Background',
    });
    const still = await call(s.url, 'GET', '/api/v1/namespaces/default/configmaps/cm1');
    expect(still.body.metadata.deletionTimestamp).toBeDefined();
    await call(
      s.url,
      'PATCH',
      '/api/v1/namespaces/default/configmaps/cm1',
      { metadata: { finalizers: null } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(await w.until((e) => e.length >= 3)).toBe(true);
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs[2]).toBeGreaterThan(rvs[1]);
    w.close();
    const replay = new WatchReader(
      `${s.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rvs[0]}`,
    );
    expect(await replay.until((e) => e.length >= 2)).toBe(true);
    expect(replay.events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    replay.close();
  });
  it('§G resourceVersion absent: synthetic ADDED events; Table watch has column definitions on the first event only', async () => {
    const w = new WatchReader(`${s.url}${CS}?watch=true`, { Accept: TABLE });
    expect(await w.until((e) => e.length >= 4)).toBe(true);
    expect(w.events[0].type).toBe('ADDED');
    expect(w.events[0].object.kind).toBe('Table');
    expect(w.events[0].object.columnDefinitions.length).toBeGreaterThan(0);
    expect(w.events[1].object.columnDefinitions).toEqual([]);
    w.close();
  });
  it('§G a resumed watch older than the history gets a 410 Expired ERROR and the stream ends', async () => {
    const open = new WatchReader(
      `${s.url}${CS}?watch=true&resourceVersion=${(await call(s.url, 'GET', CS)).body.metadata.resourceVersion}`,
    );
    await open.ready;
    s.expireWatchHistory();
    expect(await open.until(() => false, 2000)).toBe(false);
    expect(open.ended).toBe(true);
    const w = new WatchReader(`${s.url}${CS}?watch=true&resourceVersion=1`);
    expect(await w.until((e) => e.length >= 1)).toBe(true);
    expect(w.events[0]).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', reason: 'Expired', code: 410 },
    });
    expect(await w.until(() => false, 2000)).toBe(false);
    expect(w.ended).toBe(true);
  });
  it('§G bookmarks only with allowWatchBookmarks; timeoutSeconds ends the stream; fieldSelector filters', async () => {
    const rv = (await call(s.url, 'GET', CS)).body.metadata.resourceVersion;
    const w = new WatchReader(
      `${s.url}${CS}?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dsc&resourceVersion=${rv}&timeoutSeconds=2&watch=true`,
    );
    await w.ready;
    await call(
      s.url,
      'PATCH',
      `${CS}/a1`,
      { metadata: { labels: { z: '1' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    await call(
      s.url,
      'PATCH',
      `${CS}/sc`,
      { metadata: { labels: { z: '1' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(await w.until(() => false, 4000)).toBe(false);
    expect(w.ended).toBe(true);
    const types = w.events.map((e) => e.type);
    expect(types).toContain('BOOKMARK');
    const mods = w.events.filter((e) => e.type === 'MODIFIED');
    expect(mods.map((e) => e.object.metadata.name)).toEqual(['sc']);
    expect(w.events.find((e) => e.type === 'BOOKMARK').object).toMatchObject({
      kind: 'CloneSet',
      apiVersion: 'apps.kruise.io/v1alpha1',
    });
  });
});

describe('§E delete', () => {
  it('§E delete returns 200 with the object; then 404; pods of a deleted CloneSet are garbage-collected', async () => {
    const r = await call(s.url, 'DELETE', `${CS}/sc`, { propagationPolicy: 'Background' });
    expect(r.status).toBe(200);
    expect(r.body.metadata.name).toBe('sc');
    expect((await call(s.url, 'GET', `${CS}/sc`)).status).toBe(404);
    s.advance(60_000);
    expect((await call(s.url, 'GET', `${PODS}?labelSelector=app%3Dsc`)).body.items).toEqual([]);
  });
});
