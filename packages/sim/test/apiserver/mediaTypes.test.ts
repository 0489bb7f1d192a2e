// Request bodies by Content-Type, as kube-apiserver negotiates them: create and update take JSON
// and YAML (none = JSON), PATCH takes its four patch types; anything else is 415
// UnsupportedMediaType before the body is decoded, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectBodyFormat } from '../../src/apiserver/bodies';
import { patchKind } from '../../src/apiserver/patch';
import { call, startTestServer } from './helpers';
import { request } from './transport';

const CM = '/api/v1/namespaces/default/configmaps';
const OBJECT_TYPES = 'application/json, application/yaml';

let s: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const body = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const exists = (name: string) => s.simulation.store.get('v1', 'ConfigMap', 'default', name) !== undefined;

describe('create and update bodies', () => {
  it.each([
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'application/vnd.kubernetes.protobuf',
  ])('POST with %s is 415 UnsupportedMediaType listing JSON and YAML, and creates nothing', async (ct) => {
    const name = `m-${ct.replace(/[^a-z]/g, '')}`;
    const r = await call(s.url, 'POST', CM, body(name), { 'Content-Type': ct });
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'UnsupportedMediaType',
      code: 415,
      message: `the body of the request was in an unknown format - accepted media types include: ${OBJECT_TYPES}`,
    });
    expect(exists(name)).toBe(false);
  });

  it('POST with application/json; charset=utf-8 and with no Content-Type (JSON by default) creates', async () => {
    const a = await call(s.url, 'POST', CM, body('json-charset'), {
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(a.status).toBe(201);
    // `call` always sends a Content-Type; the raw request sends none
    const b = await request(`${s.url}${CM}`, { method: 'POST', body: body('no-type') });
    expect(b.status).toBe(201);
    expect(exists('no-type')).toBe(true);
  });

  it('POST with application/yaml creates from YAML', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n';
    const r = await call(s.url, 'POST', CM, yaml, { 'Content-Type': 'application/yaml' });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({ k: 'v' });
  });

  it('PUT with text/plain is 415 and leaves the object as it was; PUT with YAML updates', async () => {
    const created = await call(s.url, 'POST', CM, body('put-me'));
    const rv = created.body.metadata.resourceVersion;
    const next = { ...created.body, data: { changed: 'yes' } };
    const r = await call(s.url, 'PUT', `${CM}/put-me`, JSON.stringify(next), {
      'Content-Type': 'text/plain',
    });
    expect(r.status).toBe(415);
    expect(r.body.reason).toBe('UnsupportedMediaType');
    expect(s.simulation.store.get('v1', 'ConfigMap', 'default', 'put-me')?.metadata.resourceVersion).toBe(rv);
    const y = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: put-me\n  resourceVersion: "${rv}"\ndata:\n  changed: "yes"\n`;
    const ok = await call(s.url, 'PUT', `${CM}/put-me`, y, { 'Content-Type': 'application/yaml' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ changed: 'yes' });
  });

  it('a YAML body that is not an object, or does not parse, is 400', async () => {
    const list = await call(s.url, 'POST', CM, '- a\n- b\n', { 'Content-Type': 'application/yaml' });
    expect(list.status).toBe(400);
    const broken = await call(s.url, 'POST', CM, 'a: [b', { 'Content-Type': 'application/yaml' });
    expect(broken.status).toBe(400);
    expect(broken.body.kind).toBe('Status');
  });

  it('objectBodyFormat reads the media type without parameters or case', () => {
    expect(objectBodyFormat(undefined)).toBe('json');
    expect(objectBodyFormat('Application/JSON;charset=utf-8')).toBe('json');
    expect(objectBodyFormat('application/yaml')).toBe('yaml');
    expect(objectBodyFormat('text/plain;charset=UTF-8')).toBeUndefined();
    expect(objectBodyFormat('application/json-patch+json')).toBeUndefined();
  });
});

describe('patch bodies', () => {
  it('the four patch types are accepted; application/json and text/plain are 415 listing the patch types', async () => {
    await call(s.url, 'POST', CM, body('patch-me'));
    const p = `${CM}/patch-me`;
    const merge = await call(
      s.url,
      'PATCH',
      p,
      { data: { a: '1' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(merge.status).toBe(200);
    const json = await call(s.url, 'PATCH', p, [{ op: 'add', path: '/data/b', value: '2' }], {
      'Content-Type': 'application/json-patch+json',
    });
    expect(json.status).toBe(200);
    const smp = await call(
      s.url,
      'PATCH',
      p,
      { data: { c: '3' } },
      {
        'Content-Type': 'application/strategic-merge-patch+json',
      },
    );
    expect(smp.status).toBe(200);
    const apply = await call(s.url, 'PATCH', `${p}?fieldManager=t`, 'data:\n  d: "4"\n', {
      'Content-Type': 'application/apply-patch+yaml',
    });
    expect(apply.status).toBe(200);
    expect(apply.body.data).toEqual({ a: '1', b: '2', c: '3', d: '4' });
    for (const ct of ['application/json', 'text/plain', 'application/apply-patch+json']) {
      const r = await call(s.url, 'PATCH', p, { data: { e: '5' } }, { 'Content-Type': ct });
      expect(r.status, ct).toBe(415);
      expect(r.body.message).toBe(
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json',
      );
    }
    expect(
      (s.simulation.store.get('v1', 'ConfigMap', 'default', 'patch-me') as any)?.data?.e,
    ).toBeUndefined();
  });

  it('patchKind knows exactly the four patch media types', () => {
    expect(patchKind('application/merge-patch+json; charset=utf-8')).toBe('merge');
    expect(patchKind('application/json-patch+json')).toBe('json');
    expect(patchKind('application/strategic-merge-patch+json')).toBe('strategic');
    expect(patchKind('application/apply-patch+yaml')).toBe('apply');
    expect(patchKind('application/apply-patch+json')).toBeUndefined();
    expect(patchKind('application/json')).toBeUndefined();
  });
});

describe('YAML bodies go through the manifest reader’s limits', () => {
  const deep = `${'- '.repeat(1500)}x\n`;
  it.each([
    ['nested 1,500 levels deep', deep],
    [
      'an alias inside its own anchor',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: &a {name: loop, labels: *a}\n',
    ],
    ['two documents', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: two}\n---\na: 1\n'],
  ])(
    'a create body %s is 400 BadRequest, twice in a row, and the server keeps answering',
    async (_n, text) => {
      for (let i = 0; i < 2; i++) {
        const r = await call(s.url, 'POST', CM, text, { 'Content-Type': 'application/yaml' });
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      }
      expect((await call(s.url, 'GET', '/version')).status).toBe(200);
    },
  );

  it('an apply patch nested 1,500 levels deep is 400, and the server keeps answering', async () => {
    await call(s.url, 'POST', CM, body('deep-apply'));
    for (let i = 0; i < 2; i++) {
      const r = await call(s.url, 'PATCH', `${CM}/deep-apply?fieldManager=t`, deep, {
        'Content-Type': 'application/apply-patch+yaml',
      });
      expect(r.status).toBe(400);
    }
    expect((await call(s.url, 'GET', '/version')).status).toBe(200);
  });
});
