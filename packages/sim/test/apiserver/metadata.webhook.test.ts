// Metadata validation around external admission webhooks (controllers: none), in kube-apiserver's
// order: an object with invalid metadata is refused before any webhook sees it, and an object a
// mutating webhook made invalid is refused after the mutation (422, nothing stored). The webhook
// is fakeWebhook.ts (openssl certificate; skipped with a message where openssl is missing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admissionReview,
  type FakeWebhook,
  haveOpenssl,
  jsonPatch,
  MUTATING_CONFIGS,
  startFakeWebhook,
} from './fakeWebhook';
import { call, startTestServer } from './helpers';

const HAVE = haveOpenssl('metadata validation around webhooks');
const CMS = '/api/v1/namespaces/default/configmaps';

describe.skipIf(!HAVE)('metadata validation around webhooks (controllers: none)', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let hook: FakeWebhook;

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    hook = await startFakeWebhook(s.dir, (review) => {
      const r = review.request;
      const allowed = { uid: r.uid, allowed: true };
      // names starting with `spoil` get a label key no API server accepts
      if (String(r.object?.metadata?.name ?? '').startsWith('spoil'))
        return admissionReview({
          ...allowed,
          ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { 'bad key': 'x' } }]),
        });
      return admissionReview(allowed);
    });
    const rules = [
      { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
    ];
    const r = await call(s.url, 'POST', MUTATING_CONFIGS, {
      metadata: { name: 'spoiler' },
      webhooks: [hook.webhook('spoil.test.io', '/mutate', rules)],
    });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  const reviewsOf = (name: string) =>
    hook.received.filter((x) => x.review.request?.object?.metadata?.name === name).length;

  it('an invalid name is refused before the webhook is called', async () => {
    const r = await call(s.url, 'POST', CMS, cm('Not_Valid'));
    expect(r.status).toBe(422);
    expect(reviewsOf('Not_Valid')).toBe(0);
    expect((await call(s.url, 'POST', CMS, cm('fine'))).status).toBe(201);
    expect(reviewsOf('fine')).toBe(1);
  });

  it('a label a mutating webhook adds is validated after the mutation: 422 on create and on update', async () => {
    const created = await call(s.url, 'POST', CMS, cm('spoiled'));
    expect(created.status).toBe(422);
    expect(created.body.details.causes).toEqual([
      expect.objectContaining({ field: 'metadata.labels', message: expect.stringContaining('"bad key"') }),
    ]);
    expect(s.simulation.store.get('v1', 'ConfigMap', 'default', 'spoiled')).toBeUndefined();
    // an object stored before the webhook existed is spoiled on its next update
    s.simulation.store.load({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'spoil-later', namespace: 'default' },
    });
    const updated = await call(
      s.url,
      'PATCH',
      `${CMS}/spoil-later`,
      { data: { a: 'b' } },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(updated.status).toBe(422);
    expect(
      s.simulation.store.get('v1', 'ConfigMap', 'default', 'spoil-later')?.metadata.labels,
    ).toBeUndefined();
  });
});
