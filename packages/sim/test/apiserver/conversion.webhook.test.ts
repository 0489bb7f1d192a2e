// CRD conversion webhooks (controllers: none): for a CRD whose spec.conversion.strategy is Webhook
// the server POSTs a ConversionReview over HTTPS (trusting the caBundle) and stores / serves what
// it returns (only labels and annotations of the returned metadata are kept); a failing webhook
// gives the client a 500 Status; strategy None rewrites only apiVersion; Webhook without a
// clientConfig falls back to the in-process converter. The webhook (fakeWebhook.ts) uses a
// throwaway openssl certificate (skipped with a message where openssl is missing).
import { convertStatefulSet } from '@kruise-ts/statefulset';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asts } from './conversionFixtures';
import { type FakeWebhook, haveOpenssl, startFakeWebhook } from './fakeWebhook';
import { call, startTestServer, WatchReader } from './helpers';

const HAVE = haveOpenssl('conversion webhook tests');

const A1 = '/apis/apps.kruise.io/v1alpha1/namespaces/default/statefulsets';
const B1 = '/apis/apps.kruise.io/v1beta1/namespaces/default/statefulsets';
const CRD = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/statefulsets.apps.kruise.io';

let s: Awaited<ReturnType<typeof startTestServer>>;
let hook: FakeWebhook;
/** How the fake webhook answers. */
let mode: 'ok' | 'failure' | 'bad-uid' | 'http-500' = 'ok';

function answer(review: any): unknown {
  const r = review.request;
  if (mode === 'failure')
    return { ...review, response: { uid: r.uid, result: { status: 'Failure', message: 'no can do' } } };
  if (mode === 'bad-uid')
    return {
      ...review,
      response: { uid: 'other', result: { status: 'Success' }, convertedObjects: r.objects },
    };
  const convertedObjects = r.objects.map((o: any) => {
    const c = convertStatefulSet(o, r.desiredAPIVersion) as any;
    // a webhook may change labels and annotations only; the name change is ignored by the server
    return {
      ...c,
      metadata: { ...c.metadata, name: 'renamed', labels: { ...c.metadata.labels, 'converted-by': 'fake' } },
    };
  });
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: { uid: r.uid, result: { status: 'Success' }, convertedObjects },
  };
}

async function setConversion(conversion: unknown): Promise<void> {
  const crd = (await call(s.url, 'GET', CRD)).body;
  const r = await call(s.url, 'PUT', CRD, { ...crd, spec: { ...crd.spec, conversion } });
  expect(r.status).toBe(200);
}

const webhookConversion = (versions = ['v1', 'v1beta1'], url = hook.url('/convert')) => ({
  strategy: 'Webhook',
  webhook: { clientConfig: { url, caBundle: hook.ca }, conversionReviewVersions: versions },
});

const stored = (name: string) =>
  s.simulation.store.get('apps.kruise.io/v1beta1', 'StatefulSet', 'default', name) as any;

describe.skipIf(!HAVE)('CRD conversion webhooks (controllers: none)', () => {
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    hook = await startFakeWebhook(s.dir, (review) => {
      if (mode === 'http-500') throw new Error('boom');
      return answer(review);
    });
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  it('strategy None (the CRD as packages/api ships it): only apiVersion is rewritten; a v1beta1-only field sent at v1alpha1 is pruned by the v1alpha1 schema', async () => {
    const r = await call(
      s.url,
      'POST',
      A1,
      asts('none', 'apps.kruise.io/v1alpha1', { reserveOrdinals: [0] }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(stored('none')).toMatchObject({ apiVersion: 'apps.kruise.io/v1beta1' });
    // kube-apiserver decodes the request at v1alpha1 and prunes what that schema does not declare
    expect((stored('none') as { spec: Record<string, unknown> }).spec.reserveOrdinals).toBeUndefined();
    expect(hook.received).toHaveLength(0);
  });

  it('strategy Webhook: a v1alpha1 CREATE is converted by the webhook (ConversionReview v1, ?timeout=30s) and stored at v1beta1', async () => {
    await setConversion(webhookConversion());
    const r = await call(
      s.url,
      'POST',
      A1,
      asts('hooked', 'apps.kruise.io/v1alpha1', { reserveOrdinals: [0] }),
    );
    expect(r.status).toBe(201);
    const review = hook.received.find((x) => x.review.request.desiredAPIVersion === 'apps.kruise.io/v1beta1');
    expect(review?.path).toBe('/convert?timeout=30s');
    expect(review?.review).toMatchObject({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { objects: [{ apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'hooked' } }] },
    });
    expect(typeof review?.review.request.uid).toBe('string');
    const obj = stored('hooked');
    expect(obj.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(obj.spec.reserveOrdinals).toBeUndefined(); // the webhook's field-by-field conversion
    expect(obj.metadata.labels['converted-by']).toBe('fake'); // labels come from the webhook
    expect(obj.metadata.name).toBe('hooked'); // everything else in metadata is the original's
    // the answer is converted back to the request's version through the webhook too
    expect(r.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
  });

  it('GET at v1alpha1 calls the webhook; GET at v1beta1 (the storage version) does not', async () => {
    const before = hook.received.length;
    const b = await call(s.url, 'GET', `${B1}/hooked`);
    expect(b.body.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(hook.received.length).toBe(before);
    const a = await call(s.url, 'GET', `${A1}/hooked`);
    expect(a.status).toBe(200);
    expect(a.body.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(hook.received.length).toBe(before + 1);
    expect(hook.received.at(-1)?.review.request.desiredAPIVersion).toBe('apps.kruise.io/v1alpha1');
  });

  it('LIST at v1alpha1 converts every item in one ConversionReview', async () => {
    const before = hook.received.length;
    const r = await call(s.url, 'GET', A1);
    expect(r.status).toBe(200);
    expect(r.body.items.map((o: any) => o.metadata.name).sort()).toEqual(['hooked', 'none']);
    expect(hook.received.length).toBe(before + 1);
    expect(hook.received.at(-1)?.review.request.objects).toHaveLength(2);
  });

  it('WATCH at v1alpha1 streams webhook-converted objects in order', async () => {
    const w = new WatchReader(`${s.url}${A1}?watch=true`);
    await w.ready;
    expect(await w.until((e) => e.filter((x) => x.type === 'ADDED').length === 2)).toBe(true);
    for (const r of [1, 2, 3])
      await call(
        s.url,
        'PATCH',
        `${B1}/none`,
        { spec: { replicas: r } },
        {
          'Content-Type': 'application/merge-patch+json',
        },
      );
    expect(await w.until((e) => e.filter((x) => x.type === 'MODIFIED').length >= 3)).toBe(true);
    w.close();
    const mods = w.events.filter((x) => x.type === 'MODIFIED');
    expect(mods.map((x) => x.object.spec.replicas)).toEqual([1, 2, 3]);
    expect(mods.every((x) => x.object.apiVersion === 'apps.kruise.io/v1alpha1')).toBe(true);
    expect(mods.every((x) => x.object.metadata.labels['converted-by'] === 'fake')).toBe(true);
  });

  it('conversionReviewVersions [v1beta1]: the review is sent as apiextensions.k8s.io/v1beta1', async () => {
    await setConversion(webhookConversion(['v1beta1']));
    await call(s.url, 'GET', `${A1}/hooked`);
    expect(hook.received.at(-1)?.review.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
    await setConversion(webhookConversion());
  });

  it.each([
    ['failure', /conversion webhook for apps\.kruise\.io\/v1beta1, Kind=StatefulSet failed: no can do$/],
    ['bad-uid', /failed: expected response\.uid="[^"]+", got "other"$/],
    ['http-500', /failed: HTTP 500$/],
  ] as const)('a webhook answering %s makes a v1alpha1 GET fail with a 500 Status', async (m, message) => {
    mode = m;
    try {
      const r = await call(s.url, 'GET', `${A1}/hooked`);
      expect(r.status).toBe(500);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
      expect(r.body.message).toMatch(/^Internal error occurred: conversion webhook for /);
      expect(r.body.message).toMatch(message);
    } finally {
      mode = 'ok';
    }
  });

  it('a failing webhook ends a v1alpha1 WATCH with an ERROR event carrying the 500 Status', async () => {
    mode = 'failure';
    try {
      const w = new WatchReader(`${s.url}${A1}?watch=true`);
      await w.ready;
      expect(await w.until((e) => e.some((x) => x.type === 'ERROR'))).toBe(true);
      expect(await w.until(() => w.ended)).toBe(true);
      const err = w.events.find((x) => x.type === 'ERROR');
      expect(err.object).toMatchObject({ kind: 'Status', code: 500, reason: 'InternalError' });
      expect(w.events.filter((x) => x.type !== 'ERROR')).toEqual([]);
      w.close();
    } finally {
      mode = 'ok';
    }
  });

  it('an unreachable webhook: a v1alpha1 CREATE fails with 500 and nothing is stored', async () => {
    await setConversion(webhookConversion(['v1'], 'https://127.0.0.1:1/convert'));
    const r = await call(s.url, 'POST', A1, asts('unreachable', 'apps.kruise.io/v1alpha1'));
    expect(r.status).toBe(500);
    expect(r.body.message).toMatch(
      /^Internal error occurred: conversion webhook for apps\.kruise\.io\/v1alpha1, Kind=StatefulSet failed: /,
    );
    expect(stored('unreachable')).toBeUndefined();
    // v1beta1 clients are unaffected: no conversion needed
    expect((await call(s.url, 'POST', B1, asts('unaffected', 'apps.kruise.io/v1beta1'))).status).toBe(201);
  });

  it('strategy Webhook without a clientConfig: the in-process converter (convertStatefulSet) is used', async () => {
    await setConversion({ strategy: 'Webhook' });
    const before = hook.received.length;
    const r = await call(
      s.url,
      'POST',
      A1,
      asts('inproc', 'apps.kruise.io/v1alpha1', { reserveOrdinals: [0] }),
    );
    expect(r.status).toBe(201);
    expect(stored('inproc').apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(stored('inproc').spec.reserveOrdinals).toBeUndefined();
    expect(hook.received.length).toBe(before);
  });
});
