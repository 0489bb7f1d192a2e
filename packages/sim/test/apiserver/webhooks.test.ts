// controllers: 'none': the server calls the webhooks of the stored
// Mutating/ValidatingWebhookConfiguration objects over HTTPS (AdmissionReview
// v1), trusting their caBundle, with rules, objectSelector and failurePolicy.
// The webhook server (fakeWebhook.ts) uses a throwaway self-signed certificate
// from openssl (skipped with a message where openssl is missing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const HAVE = haveOpenssl('webhook tests');

let s: Awaited<ReturnType<typeof startTestServer>>;
let hook: FakeWebhook;
const PODS = '/api/v1/namespaces/default/pods';
const CMS = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
let raced = false;

describe.skipIf(!HAVE)('external admission webhooks (controllers: none)', () => {
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    hook = await startFakeWebhook(s.dir, async (review, path) => {
      const r = review.request;
      const allowed = { uid: r.uid, allowed: true };
      if (path === '/race' && !raced && r.object?.metadata?.name === 'race') {
        // While this UPDATE is being admitted, another client writes the same object.
        raced = true;
        await call(s.url, 'PATCH', `${CMS}/race`, { data: { other: 'x' } }, MERGE);
        return admissionReview(allowed);
      }
      if (path === '/mutate' && r.object?.metadata?.name === 'strip-me')
        return admissionReview({ ...allowed, ...jsonPatch([{ op: 'remove', path: '/metadata' }]) });
      if (path === '/mutate')
        return admissionReview({
          ...allowed,
          ...jsonPatch([{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }]),
        });
      if (path === '/validate' && r.object?.metadata?.name === 'deny-me')
        return admissionReview({
          uid: r.uid,
          allowed: false,
          status: { code: 403, reason: 'Forbidden', message: 'names like that are not allowed' },
        });
      return admissionReview(allowed);
    });
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
    await call(s.url, 'POST', MUTATING_CONFIGS, {
      metadata: { name: 'm' },
      webhooks: [
        hook.webhook('mutate.test.io', '/mutate', rules, { objectSelector: { matchLabels: { hook: 'on' } } }),
      ],
    });
    await call(s.url, 'POST', VALIDATING_CONFIGS, {
      metadata: { name: 'v' },
      webhooks: [
        hook.webhook('validate.test.io', '/validate', rules),
        {
          ...hook.webhook('down-ignore.test.io', '/x', rules),
          clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: hook.ca },
          failurePolicy: 'Ignore',
        },
      ],
    });
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  const pod = (name: string, labels: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });

  it('a mutating webhook selected by objectSelector patches the object (AdmissionReview v1 over HTTPS with caBundle)', async () => {
    const r = await call(s.url, 'POST', PODS, pod('p1', { hook: 'on' }));
    expect(r.status).toBe(201);
    expect(r.body.metadata.labels).toEqual({ hook: 'on', injected: 'yes' });
    const review = hook.received.find((x) => x.review.request.object?.metadata?.name === 'p1');
    expect(review?.review).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        operation: 'CREATE',
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'default',
      },
    });
  });
  it('a mutating patch that removes the metadata is a failed webhook call (500), not an admitted object', async () => {
    const r = await call(s.url, 'POST', PODS, pod('strip-me', { hook: 'on' }));
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: failed calling webhook "mutate.test.io": invalid patch: the patched object has no apiVersion, kind or metadata',
    );
    expect((await call(s.url, 'GET', `${PODS}/strip-me`)).status).toBe(404);
  });
  it('objectSelector not matching: the mutating webhook is not called', async () => {
    const r = await call(s.url, 'POST', PODS, pod('p2', { hook: 'off' }));
    expect(r.body.metadata.labels).toEqual({ hook: 'off' });
  });
  it('a validating webhook denies with its status code and message; an unreachable Ignore webhook is skipped', async () => {
    const r = await call(s.url, 'POST', PODS, pod('deny-me', {}));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'admission webhook "validate.test.io" denied the request: names like that are not allowed',
    );
  });
  it('failurePolicy Fail on an unreachable webhook rejects the write with 500', async () => {
    await call(s.url, 'POST', VALIDATING_CONFIGS, {
      metadata: { name: 'z-down' },
      webhooks: [
        {
          name: 'down-fail.test.io',
          clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: hook.ca },
          rules: [
            { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
          ],
          failurePolicy: 'Fail',
          timeoutSeconds: 2,
        },
      ],
    });
    const r = await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'cm' },
    });
    expect(r.status).toBe(500);
    expect(r.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "down-fail\.test\.io": /,
    );
  });
  it('a PATCH that races another write during admission is re-applied (as kube-apiserver does), unless it pins a resourceVersion', async () => {
    // the previous test's Fail webhook on configmap CREATE would block the set-up
    await call(s.url, 'DELETE', `${VALIDATING_CONFIGS}/z-down`);
    await call(s.url, 'POST', VALIDATING_CONFIGS, {
      metadata: { name: 'race' },
      webhooks: [
        {
          name: 'race.test.io',
          clientConfig: { url: hook.url('/race'), caBundle: hook.ca },
          rules: [
            { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
          ],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    const created = await call(s.url, 'POST', CMS, { metadata: { name: 'race' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    const r = await call(s.url, 'PATCH', `${CMS}/race`, { data: { a: '2' } }, MERGE);
    expect(raced).toBe(true);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ a: '2', other: 'x' }); // both writes survive
    const stale = await call(
      s.url,
      'PATCH',
      `${CMS}/race`,
      { metadata: { resourceVersion: created.body.metadata.resourceVersion }, data: { a: '3' } },
      MERGE,
    );
    expect(stale.status).toBe(409);
  });
});
