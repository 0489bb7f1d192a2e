// controllers: 'none': the server calls the webhooks of the stored
// Mutating/ValidatingWebhookConfiguration objects over HTTPS (AdmissionReview
// v1), trusting their caBundle, with rules, objectSelector and failurePolicy.
// The webhook server uses a throwaway self-signed certificate from openssl
// (skipped with a message where openssl is missing).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer } from './helpers';

const OPENSSL = '/usr/bin/openssl';
const HAVE = existsSync(OPENSSL);
if (!HAVE) console.warn(`webhook tests skipped: ${OPENSSL} is missing`);

let s: Awaited<ReturnType<typeof startTestServer>>;
let hook: Server;
let hookPort = 0;
let ca = '';
const reviews: any[] = [];
const PODS = '/api/v1/namespaces/default/pods';
const CMS = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
let raced = false;

describe.skipIf(!HAVE)('external admission webhooks (controllers: none)', () => {
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    const key = join(s.dir, 'key.pem');
    const cert = join(s.dir, 'cert.pem');
    execFileSync(
      OPENSSL,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    ca = Buffer.from(readFileSync(cert)).toString('base64');
    hook = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review);
        const r = review.request;
        let response: Record<string, unknown> = { uid: r.uid, allowed: true };
        if (req.url === '/race' && !raced && r.object?.metadata?.name === 'race') {
          // While this UPDATE is being admitted, another client writes the same object.
          raced = true;
          void call(s.url, 'PATCH', `${CMS}/race`, { data: { other: 'x' } }, MERGE).then(() => {
            res.writeHead(200, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
          });
          return;
        }
        if (req.url === '/mutate') {
          const patch = [{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }];
          response = {
            ...response,
            patchType: 'JSONPatch',
            patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
          };
        } else if (req.url === '/validate' && r.object?.metadata?.name === 'deny-me')
          response = {
            uid: r.uid,
            allowed: false,
            status: { code: 403, reason: 'Forbidden', message: 'names like that are not allowed' },
          };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookPort = (hook.address() as AddressInfo).port;
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
    const wh = (name: string, path: string, extra: Record<string, unknown> = {}) => ({
      name,
      clientConfig: { url: `https://127.0.0.1:${hookPort}${path}`, caBundle: ca },
      rules,
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...extra,
    });
    await call(s.url, 'POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
      metadata: { name: 'm' },
      webhooks: [wh('mutate.test.io', '/mutate', { objectSelector: { matchLabels: { hook: 'on' } } })],
    });
    await call(s.url, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: { name: 'v' },
      webhooks: [
        wh('validate.test.io', '/validate'),
        {
          ...wh('down-ignore.test.io', '/x'),
          clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: ca },
          failurePolicy: 'Ignore',
        },
      ],
    });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => (hook ? hook.close(() => resolve()) : resolve()));
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
    const review = reviews.find((x) => x.request.object?.metadata?.name === 'p1');
    expect(review).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        operation: 'CREATE',
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'default',
      },
    });
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
    await call(s.url, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: { name: 'z-down' },
      webhooks: [
        {
          name: 'down-fail.test.io',
          clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: ca },
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
    await call(
      s.url,
      'DELETE',
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/z-down',
    );
    await call(s.url, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: { name: 'race' },
      webhooks: [
        {
          name: 'race.test.io',
          clientConfig: { url: `https://127.0.0.1:${hookPort}/race`, caBundle: ca },
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
