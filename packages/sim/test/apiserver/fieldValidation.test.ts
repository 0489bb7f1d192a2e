// Unknown fields in custom resources (src/apiserver/fieldValidation.ts): pruned from every create,
// update and patch, and refused, warned about or ignored per `fieldValidation`, in
// kube-apiserver's words and paths.
import { crdManifests, type JSONSchema, type KubeObject } from '@kruise-ts/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneUnknownFields } from '../../src/apiserver/fieldValidation';
import { call, startTestServer } from './helpers';

const schemaOf = (kind: string): JSONSchema =>
  (crdManifests().find((c) => (c.spec as any).names.kind === kind)!.spec as any).versions[0].schema
    .openAPIV3Schema;

const cloneSet = (extra: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25', ...container }] },
    },
    ...extra,
  },
});

describe('pruneUnknownFields', () => {
  it('drops undeclared fields at any depth and names them as the API server does, sorted', () => {
    const obj = cloneSet({ replcias: 2 }, { imagePullPolcy: 'Always' }) as unknown as KubeObject;
    const { object, unknown } = pruneUnknownFields(schemaOf('CloneSet'), obj);
    expect(unknown).toEqual(['spec.replcias', 'spec.template.spec.containers[0].imagePullPolcy']);
    expect((object.spec as any).replcias).toBeUndefined();
    expect((object.spec as any).template.spec.containers[0]).toEqual({ name: 'main', image: 'nginx:1.25' });
    expect(obj.spec).toHaveProperty('replcias'); // the input is not touched
  });

  it("reports the root metadata's unknown keys first, and keeps what a map or free-form field holds", () => {
    const ud = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: { name: 'ud', labelz: { a: 'b' } },
      spec: {
        selector: { matchLabels: { app: 'ud' } },
        updateStrategy: { manualUpdate: { partitions: { 'subset-a': 1 } } },
        topology: { subsets: [{ name: 'a', patch: { anything: { goes: true } }, wat: 1 }] },
      },
    } as unknown as KubeObject;
    const { object, unknown } = pruneUnknownFields(schemaOf('UnitedDeployment'), ud);
    expect(unknown).toEqual(['metadata.labelz', 'spec.topology.subsets[0].wat']);
    expect((object.spec as any).topology.subsets[0].patch).toEqual({ anything: { goes: true } });
    expect((object.spec as any).updateStrategy.manualUpdate.partitions).toEqual({ 'subset-a': 1 });
    expect(object.metadata).toEqual({ name: 'ud' });
  });

  it('finds nothing in a valid object', () => {
    expect(pruneUnknownFields(schemaOf('CloneSet'), cloneSet() as unknown as KubeObject).unknown).toEqual([]);
  });
});

describe('fieldValidation over HTTP', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  const base = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
  const TYPO = 'unknown field "spec.template.spec.containers[0].imagePullPolcy"';

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('Strict refuses a create with the strict-decoding error and stores nothing', async () => {
    const r = await call(
      s.url,
      'POST',
      `${base}?fieldValidation=Strict`,
      cloneSet({}, { imagePullPolcy: 'Always' }),
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: `CloneSet in version "v1alpha1" cannot be handled as a CloneSet: strict decoding error: ${TYPO}`,
    });
    expect((await call(s.url, 'GET', `${base}/web`)).status).toBe(404);
  });

  it('Warn (the default) creates without the field and sends a Warning header', async () => {
    const r = await call(s.url, 'POST', base, cloneSet({}, { imagePullPolcy: 'Always' }));
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe(
      `299 - "unknown field \\"spec.template.spec.containers[0].imagePullPolcy\\""`,
    );
    expect(r.body.spec.template.spec.containers[0].imagePullPolcy).toBeUndefined();
  });

  it('Ignore drops the field silently; PUT and merge PATCH are checked too', async () => {
    const put = await call(s.url, 'GET', `${base}/web`);
    const next = { ...put.body, spec: { ...put.body.spec, paused: true } };
    const strictPut = await call(s.url, 'PUT', `${base}/web?fieldValidation=Strict`, next);
    expect(strictPut.status).toBe(400);
    expect(strictPut.body.message).toContain('strict decoding error: unknown field "spec.paused"');
    const ignored = await call(s.url, 'PUT', `${base}/web?fieldValidation=Ignore`, next);
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('warning')).toBeNull();
    expect(ignored.body.spec.paused).toBeUndefined();
    const patch = { spec: { foo: 1 } };
    const ct = { 'Content-Type': 'application/merge-patch+json' };
    const strictPatch = await call(s.url, 'PATCH', `${base}/web?fieldValidation=Strict`, patch, ct);
    expect(strictPatch.status).toBe(422);
    expect(strictPatch.body.message).toMatch(
      /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "spec.foo"$/,
    );
    const warned = await call(s.url, 'PATCH', `${base}/web`, patch, ct);
    expect(warned.status).toBe(200);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"spec.foo\\""');
    expect(warned.body.spec.foo).toBeUndefined();
  });
});
