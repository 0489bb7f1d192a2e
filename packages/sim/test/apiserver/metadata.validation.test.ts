// Object metadata validated as kube-apiserver does on create, update and the result of a patch:
// 422 Invalid with `details.causes` naming `metadata.*` fields and Kubernetes' messages, and
// nothing stored. Names by kind (DNS-1123 subdomain, Namespace DNS-1123 label, Service DNS-1035
// label), generateName, label keys and values, annotation keys, the 256 KiB annotation limit and
// the JSON types of metadata fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameRuleOf } from '../../src/apiserver/metadata';
import { Registry } from '../../src/apiserver/registry';
import { call, sampleCloneSet, startTestServer } from './helpers';

const CM = '/api/v1/namespaces/default/configmaps';
const CS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

let s: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const cm = (metadata: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata });
const causes = (body: any) =>
  (body.details?.causes ?? []).map((c: any) => ({ field: c.field, message: c.message }));
const storedConfigMaps = () => s.simulation.store.list('v1', 'ConfigMap', 'default').length;

describe('names on create', () => {
  it('`../../etc` is refused with 422 Invalid, the subdomain message at metadata.name, and nothing is stored', async () => {
    const before = storedConfigMaps();
    const r = await call(s.url, 'POST', CM, cm({ name: '../../etc' }));
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect(r.body.details).toMatchObject({ name: '../../etc', kind: 'ConfigMap' });
    expect(causes(r.body)).toEqual([
      { field: 'metadata.name', message: `Invalid value: "../../etc": ${SUBDOMAIN_MSG}` },
    ]);
    expect(r.body.message).toBe(
      `ConfigMap "../../etc" is invalid: metadata.name: Invalid value: "../../etc": ${SUBDOMAIN_MSG}`,
    );
    expect(storedConfigMaps()).toBe(before);
  });

  it('UpperCase and 254 characters are refused; 253 lower-case characters with dots are accepted', async () => {
    const upper = await call(s.url, 'POST', CM, cm({ name: 'UpperCase' }));
    expect(upper.status).toBe(422);
    expect(causes(upper.body)[0].field).toBe('metadata.name');
    const long = await call(s.url, 'POST', CM, cm({ name: 'a'.repeat(254) }));
    expect(long.status).toBe(422);
    expect(causes(long.body).map((c: any) => c.message)).toEqual([
      `Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
    ]);
    const ok = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(ok).toHaveLength(253);
    expect((await call(s.url, 'POST', CM, cm({ name: ok }))).status).toBe(201);
  });

  it('a custom resource (CloneSet) follows the subdomain rule too', async () => {
    const r = await call(s.url, 'POST', CS, { ...sampleCloneSet(), metadata: { name: 'Web_1' } });
    expect(r.status).toBe(422);
    expect(r.body.details).toMatchObject({ group: 'apps.kruise.io', kind: 'CloneSet' });
    expect(causes(r.body)).toEqual([
      { field: 'metadata.name', message: `Invalid value: "Web_1": ${SUBDOMAIN_MSG}` },
    ]);
  });

  it('a Namespace name is a DNS-1123 label: dots and 64 characters are refused', async () => {
    const dotted = await call(s.url, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team.a' },
    });
    expect(dotted.status).toBe(422);
    expect(causes(dotted.body)).toEqual([
      { field: 'metadata.name', message: `Invalid value: "team.a": ${LABEL_MSG}` },
    ]);
    const long = await call(s.url, 'POST', '/api/v1/namespaces', {
      metadata: { name: 'n'.repeat(64) },
    });
    expect(long.status).toBe(422);
    expect(causes(long.body)[0].message).toContain('must be no more than 63 characters');
  });

  it('a Service name is a DNS-1035 label: a leading digit is refused, `web` is accepted', async () => {
    const svc = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { ports: [{ port: 80 }] },
    });
    const r = await call(s.url, 'POST', '/api/v1/namespaces/default/services', svc('2web'));
    expect(r.status).toBe(422);
    expect(causes(r.body)).toEqual([
      { field: 'metadata.name', message: `Invalid value: "2web": ${DNS1035_MSG}` },
    ]);
    expect((await call(s.url, 'POST', '/api/v1/namespaces/default/services', svc('web'))).status).toBe(201);
  });

  it('the name rule per kind: Namespace label, Service DNS-1035, every other kind a subdomain', () => {
    const reg = new Registry([]);
    expect(nameRuleOf(reg.lookup('', 'v1', 'namespaces')!)('a.b')).not.toEqual([]);
    expect(nameRuleOf(reg.lookup('', 'v1', 'services')!)('2a')).not.toEqual([]);
    expect(nameRuleOf(reg.lookup('', 'v1', 'pods')!)('a.b')).toEqual([]);
    expect(nameRuleOf(reg.lookup('apps', 'v1', 'deployments')!)('2a.b')).toEqual([]);
  });

  it('generateName: `web-` is accepted (its trailing dash masked), `Web-` refused at metadata.generateName', async () => {
    const ok = await call(s.url, 'POST', CM, cm({ generateName: 'web-' }));
    expect(ok.status).toBe(201);
    expect(ok.body.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    const bad = await call(s.url, 'POST', CM, cm({ generateName: 'Web-' }));
    expect(bad.status).toBe(422);
    expect(causes(bad.body).map((c: any) => c.field)).toEqual(['metadata.generateName']);
  });

  it('a core/v1 Event skips name checks as in kube-apiserver (a recorder’s `generateName: web-0.`), not type checks', async () => {
    const ev = (metadata: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata,
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0' },
      reason: 'Killing',
      message: 'm',
    });
    const ok = await call(s.url, 'POST', '/api/v1/namespaces/default/events', ev({ generateName: 'web-0.' }));
    expect(ok.status).toBe(201);
    expect(ok.body.metadata.name).toMatch(/^web-0\.[a-z0-9]{5}$/);
    const bad = await call(s.url, 'POST', '/api/v1/namespaces/default/events', ev({ name: 'e', labels: [] }));
    expect(bad.status).toBe(422);
    expect(causes(bad.body)[0].field).toBe('metadata.labels');
  });

  it('a CustomResourceDefinition must be named <plural>.<group>', async () => {
    const crd = (name: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    });
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const bad = await call(s.url, 'POST', path, crd('gadgets.example.com'));
    expect(bad.status).toBe(422);
    expect(causes(bad.body)).toEqual([
      {
        field: 'metadata.name',
        message: 'Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
      },
    ]);
    expect((await call(s.url, 'POST', path, crd('widgets.example.com'))).status).toBe(201);
  });

  it('neither name nor generateName: `name or generateName is required`', async () => {
    const r = await call(s.url, 'POST', CM, cm({}));
    expect(r.status).toBe(422);
    expect(causes(r.body)).toEqual([
      { field: 'metadata.name', message: 'Required value: name or generateName is required' },
    ]);
  });
});

describe('labels and annotations', () => {
  it('a label key with two slashes and a value of 64 characters are refused with the qualified-name and label-value messages', async () => {
    const r = await call(s.url, 'POST', CM, cm({ name: 'l1', labels: { 'a/b/c': 'x', ok: 'v'.repeat(64) } }));
    expect(r.status).toBe(422);
    const c = causes(r.body);
    expect(c).toHaveLength(2);
    expect(c[0].field).toBe('metadata.labels');
    expect(c[0].message).toContain(
      "Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.'",
    );
    expect(c[1]).toEqual({
      field: 'metadata.labels',
      message: `Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    });
  });

  it('a label key with a prefix and a 63-character name, and a 63-character value, are accepted', async () => {
    const r = await call(
      s.url,
      'POST',
      CM,
      cm({ name: 'l2', labels: { [`app.kubernetes.io/${'n'.repeat(63)}`]: 'v'.repeat(63), empty: '' } }),
    );
    expect(r.status).toBe(201);
  });

  it('a label value with a space is refused with the label-value regex message', async () => {
    const r = await call(s.url, 'POST', CM, cm({ name: 'l3', labels: { app: 'a b' } }));
    expect(r.status).toBe(422);
    expect(causes(r.body)).toEqual([
      { field: 'metadata.labels', message: `Invalid value: "a b": ${LABEL_VALUE_MSG}` },
    ]);
  });

  it('a label value null, a number, and labels that are a string are type errors (nothing stored)', async () => {
    const before = storedConfigMaps();
    const nul = await call(s.url, 'POST', CM, cm({ name: 't1', labels: { app: null, n: 5 } }));
    expect(nul.status).toBe(422);
    expect(causes(nul.body)).toEqual([
      { field: 'metadata.labels[app]', message: 'Invalid value: "null": must be of type string' },
      { field: 'metadata.labels[n]', message: 'Invalid value: "integer": must be of type string' },
    ]);
    const str = await call(s.url, 'POST', CM, cm({ name: 't2', labels: 'x' }));
    expect(str.status).toBe(422);
    expect(causes(str.body)).toEqual([
      { field: 'metadata.labels', message: 'Invalid value: "string": must be of type object' },
    ]);
    const arr = await call(s.url, 'POST', CM, cm({ name: 't3', annotations: ['a'] }));
    expect(causes(arr.body)).toEqual([
      { field: 'metadata.annotations', message: 'Invalid value: "array": must be of type object' },
    ]);
    const num = await call(s.url, 'POST', CM, cm({ name: 5 }));
    expect(num.status).toBe(422);
    expect(causes(num.body)).toEqual([
      { field: 'metadata.name', message: 'Invalid value: "integer": must be of type string' },
    ]);
    expect(storedConfigMaps()).toBe(before);
  });

  it('annotation keys are qualified names, checked lower-cased (`Example.com/Key` passes, `a b` does not)', async () => {
    expect(
      (await call(s.url, 'POST', CM, cm({ name: 'a1', annotations: { 'Example.com/Key': 'v' } }))).status,
    ).toBe(201);
    const r = await call(s.url, 'POST', CM, cm({ name: 'a2', annotations: { 'a b': 'v' } }));
    expect(r.status).toBe(422);
    expect(causes(r.body)[0].field).toBe('metadata.annotations');
  });

  it('annotations total at most 262144 bytes, keys included: one byte more is Too long', async () => {
    // key "k" (1 byte) + value: exactly 256 KiB in all is accepted
    const exact = await call(s.url, 'POST', CM, cm({ name: 'big1', annotations: { k: 'v'.repeat(262143) } }));
    expect(exact.status).toBe(201);
    const over = await call(s.url, 'POST', CM, cm({ name: 'big2', annotations: { k: 'v'.repeat(262144) } }));
    expect(over.status).toBe(422);
    const c = causes(over.body);
    expect(c).toHaveLength(1);
    expect(c[0].field).toBe('metadata.annotations');
    expect(c[0].message).toMatch(/^Too long: .*262144 bytes$/);
  });
});

describe('updates and patches', () => {
  it('PUT with a bad label is 422 and leaves the stored object as it was', async () => {
    const created = await call(s.url, 'POST', CM, cm({ name: 'u1', labels: { app: 'a' } }));
    expect(created.status).toBe(201);
    const next = { ...created.body, metadata: { ...created.body.metadata, labels: { app: '-bad-' } } };
    const r = await call(s.url, 'PUT', `${CM}/u1`, next);
    expect(r.status).toBe(422);
    expect(causes(r.body)[0]).toEqual({
      field: 'metadata.labels',
      message: `Invalid value: "-bad-": ${LABEL_VALUE_MSG}`,
    });
    expect((await call(s.url, 'GET', `${CM}/u1`)).body.metadata.labels).toEqual({ app: 'a' });
  });

  it('the object a merge patch or JSON patch produces is validated: a null label value and a bad key are 422', async () => {
    await call(s.url, 'POST', CM, cm({ name: 'p1' }));
    const merge = await call(
      s.url,
      'PATCH',
      `${CM}/p1`,
      { metadata: { labels: { 'bad key': 'x' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(merge.status).toBe(422);
    expect(causes(merge.body)[0].field).toBe('metadata.labels');
    const json = await call(
      s.url,
      'PATCH',
      `${CM}/p1`,
      [{ op: 'add', path: '/metadata/labels', value: { app: null } }],
      { 'Content-Type': 'application/json-patch+json' },
    );
    expect(json.status).toBe(422);
    expect(causes(json.body)).toEqual([
      { field: 'metadata.labels[app]', message: 'Invalid value: "null": must be of type string' },
    ]);
    expect((await call(s.url, 'GET', `${CM}/p1`)).body.metadata.labels).toBeUndefined();
  });

  it('a server-side apply that creates an object validates its name', async () => {
    const r = await call(s.url, 'PATCH', `${CM}/Applied?fieldManager=test`, cm({ name: 'Applied' }), {
      'Content-Type': 'application/apply-patch+yaml',
    });
    expect(r.status).toBe(422);
    expect(causes(r.body)[0].field).toBe('metadata.name');
  });
});

describe('empty metadata maps and lists are not stored (Go omitempty)', () => {
  it('a merge patch of `annotations: {}` leaves no annotations, as after kubectl apply onto a server-side-applied object', async () => {
    const created = await call(s.url, 'POST', CM, cm({ name: 'omit-empty', labels: {}, finalizers: [] }));
    expect(created.status).toBe(201);
    expect(created.body.metadata).not.toHaveProperty('labels');
    expect(created.body.metadata).not.toHaveProperty('finalizers');
    const patched = await call(
      s.url,
      'PATCH',
      `${CM}/omit-empty`,
      { metadata: { annotations: {}, ownerReferences: [] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).not.toHaveProperty('annotations');
    expect(patched.body.metadata).not.toHaveProperty('ownerReferences');
    const read = await call(s.url, 'GET', `${CM}/omit-empty`);
    expect(read.body.metadata).not.toHaveProperty('annotations');
  });

  it('a non-empty map is kept, and a wrongly typed one is still refused', async () => {
    const kept = await call(s.url, 'POST', CM, cm({ name: 'omit-kept', annotations: { a: 'b' } }));
    expect(kept.body.metadata.annotations).toEqual({ a: 'b' });
    const wrong = await call(s.url, 'POST', CM, cm({ name: 'omit-wrong', annotations: [] }));
    expect(wrong.status).toBe(422);
  });
});
