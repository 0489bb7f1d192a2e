// Admission webhook `matchPolicy` (admissionregistration.k8s.io/v1; default Equivalent): a request
// at a version no rule lists still reaches a webhook whose rule lists another version of the same
// group and resource, with the object converted to that version (`kind`/`resource` name it,
// `requestKind`/`requestResource` the request's), and a mutation converted back; `Exact` does not.
// The pure choice (`webhookResource`) first, then over HTTPS against a webhook server with an
// openssl certificate (fakeWebhook.ts; skipped with a message where openssl is missing).
import { crdManifests } from '@kruise-ts/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from '../../src/apiserver/registry';
import { webhookResource } from '../../src/apiserver/webhooks';
import {
  admissionReview,
  type FakeWebhook,
  haveOpenssl,
  jsonPatch,
  MUTATING_CONFIGS,
  startFakeWebhook,
  VALIDATING_CONFIGS,
} from './fakeWebhook';
import { call, startTestServer } from './helpers';

const reg = new Registry(crdManifests());
const ilpj = (v: string) => reg.lookup('apps.kruise.io', v, 'imagelistpulljobs')!;
const equivalents = reg.all().filter((r) => r.group === 'apps.kruise.io' && r.plural === 'imagelistpulljobs');
const rule = (version: string, resources = ['imagelistpulljobs'], operations = ['CREATE']) => ({
  operations,
  apiGroups: ['apps.kruise.io'],
  apiVersions: [version],
  resources,
});

describe('webhookResource (kube-apiserver ShouldCallHook)', () => {
  it('a rule listing the request version matches it directly', () => {
    expect(
      webhookResource({ rules: [rule('v1beta1')] }, ilpj('v1beta1'), 'CREATE', undefined, equivalents),
    ).toBe(ilpj('v1beta1'));
  });
  it('default (Equivalent): a v1beta1 request goes to a v1alpha1-only rule at v1alpha1', () => {
    const at = webhookResource(
      { rules: [rule('v1alpha1')] },
      ilpj('v1beta1'),
      'CREATE',
      undefined,
      equivalents,
    );
    expect(at?.apiVersion).toBe('apps.kruise.io/v1alpha1');
  });
  it('matchPolicy: Exact skips it', () => {
    const w = { rules: [rule('v1alpha1')], matchPolicy: 'Exact' };
    expect(webhookResource(w, ilpj('v1beta1'), 'CREATE', undefined, equivalents)).toBeUndefined();
  });
  it('Equivalent still needs the same group and resource, and the operation', () => {
    const other = { rules: [rule('v1alpha1', ['clonesets'])] };
    expect(webhookResource(other, ilpj('v1beta1'), 'CREATE', undefined, equivalents)).toBeUndefined();
    const upd = { rules: [rule('v1alpha1', ['imagelistpulljobs'], ['UPDATE'])] };
    expect(webhookResource(upd, ilpj('v1beta1'), 'CREATE', undefined, equivalents)).toBeUndefined();
  });
  it('subresources are matched at the equivalent version too (imagelistpulljobs/status)', () => {
    const w = { rules: [rule('v1alpha1', ['imagelistpulljobs/status'], ['UPDATE'])] };
    expect(webhookResource(w, ilpj('v1beta1'), 'UPDATE', 'status', equivalents)?.version).toBe('v1alpha1');
    expect(webhookResource(w, ilpj('v1beta1'), 'UPDATE', undefined, equivalents)).toBeUndefined();
  });
});

const HAVE = haveOpenssl('matchPolicy webhook tests');

let s: Awaited<ReturnType<typeof startTestServer>>;
let hook: FakeWebhook;
const ILPJ = (v: string) => `/apis/apps.kruise.io/${v}/namespaces/default/imagelistpulljobs`;
const ASTS = (v: string) => `/apis/apps.kruise.io/${v}/namespaces/default/statefulsets`;
const seen = (path: string) => hook.received.filter((r) => r.path === path).map((r) => r.review.request);

describe.skipIf(!HAVE)('matchPolicy over HTTPS (controllers: none)', () => {
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    hook = await startFakeWebhook(s.dir, (review, path) => {
      const r = review.request;
      if (path === '/mutate')
        // a patch valid only at v1alpha1's shape would do the same: it is applied at the webhook's version
        return admissionReview({
          uid: r.uid,
          allowed: true,
          ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { seen: r.kind.version } }]),
        });
      if (path === '/validate' && (r.object ?? r.oldObject)?.metadata?.name === 'deny-me')
        return admissionReview({
          uid: r.uid,
          allowed: false,
          status: { code: 403, message: 'not that one' },
        });
      return admissionReview({ uid: r.uid, allowed: true });
    });
    await call(s.url, 'POST', MUTATING_CONFIGS, {
      metadata: { name: 'm' },
      webhooks: [hook.webhook('milpj.test.io', '/mutate', [rule('v1alpha1')])],
    });
    await call(s.url, 'POST', VALIDATING_CONFIGS, {
      metadata: { name: 'v' },
      webhooks: [
        hook.webhook('vexact.test.io', '/exact', [rule('v1alpha1')], { matchPolicy: 'Exact' }),
        hook.webhook(
          'vilpj.test.io',
          '/validate',
          [rule('v1alpha1', ['imagelistpulljobs'], ['CREATE', 'DELETE'])],
          { matchPolicy: 'Equivalent' },
        ),
        hook.webhook('vsts.test.io', '/sts', [rule('v1beta1', ['statefulsets'])]),
      ],
    });
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  it('an ImageListPullJob created at v1beta1 reaches the v1alpha1 webhooks at v1alpha1 (kind v1alpha1, requestKind v1beta1)', async () => {
    hook.received.length = 0;
    const r = await call(s.url, 'POST', ILPJ('v1beta1'), {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImageListPullJob',
      metadata: { name: 'warm' },
      spec: { images: ['nginx:1.25'] },
    });
    expect(r.status).toBe(201);
    for (const path of ['/mutate', '/validate']) {
      const [req] = seen(path);
      expect(req.kind).toEqual({ group: 'apps.kruise.io', version: 'v1alpha1', kind: 'ImageListPullJob' });
      expect(req.resource).toEqual({
        group: 'apps.kruise.io',
        version: 'v1alpha1',
        resource: 'imagelistpulljobs',
      });
      expect(req.requestKind).toEqual({
        group: 'apps.kruise.io',
        version: 'v1beta1',
        kind: 'ImageListPullJob',
      });
      expect(req.requestResource.version).toBe('v1beta1');
      expect(req.object.apiVersion).toBe('apps.kruise.io/v1alpha1');
    }
    expect(seen('/exact')).toEqual([]); // matchPolicy: Exact
    // the mutation made at v1alpha1 is converted back: answered and stored at v1beta1
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(r.body.metadata.labels).toEqual({ seen: 'v1alpha1' });
    expect((await call(s.url, 'GET', `${ILPJ('v1beta1')}/warm`)).body.metadata.labels).toEqual({
      seen: 'v1alpha1',
    });
  });

  it('at v1alpha1 every webhook is called directly (kind = requestKind = v1alpha1), Exact included', async () => {
    hook.received.length = 0;
    const r = await call(s.url, 'POST', ILPJ('v1alpha1'), {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImageListPullJob',
      metadata: { name: 'direct' },
      spec: { images: ['nginx:1.25'] },
    });
    expect(r.status).toBe(201);
    expect(seen('/exact')).toHaveLength(1);
    expect(seen('/validate')[0].requestKind.version).toBe('v1alpha1');
  });

  it('a denial at the equivalent version is relayed: admission webhook "vilpj.test.io" denied the request', async () => {
    const r = await call(s.url, 'POST', ILPJ('v1beta1'), {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImageListPullJob',
      metadata: { name: 'deny-me' },
      spec: { images: ['nginx:1.25'] },
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('admission webhook "vilpj.test.io" denied the request: not that one');
  });

  it('DELETE at v1beta1: the webhook gets the oldObject at v1alpha1', async () => {
    hook.received.length = 0;
    expect((await call(s.url, 'DELETE', `${ILPJ('v1beta1')}/warm`)).status).toBe(200);
    const [req] = seen('/validate');
    expect(req.operation).toBe('DELETE');
    expect(req.object).toBeNull();
    expect(req.oldObject.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(req.requestKind.version).toBe('v1beta1');
  });

  it('a v1alpha1 Advanced StatefulSet reaches a v1beta1-only webhook as v1beta1', async () => {
    hook.received.length = 0;
    const sts = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    };
    expect((await call(s.url, 'POST', ASTS('v1alpha1'), sts)).status).toBe(201);
    const [req] = seen('/sts');
    expect(req.kind.version).toBe('v1beta1');
    expect(req.requestKind.version).toBe('v1alpha1');
    expect(req.object.apiVersion).toBe('apps.kruise.io/v1beta1');
  });
});
