// Bad input and safety: random methods, paths, queries, content types and
// bodies (fast-check, bounded, loopback only) never crash the server; every
// error is a Kubernetes Status; raw garbage on the socket gets a 400.
import { connect } from 'node:tls';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer } from './helpers';

let s: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'apis',
    'v1',
    'namespaces',
    'default',
    'pods',
    'clonesets',
    'apps.kruise.io',
    'v1alpha1',
    'status',
    'scale',
    'openapi',
    'v3',
    'version',
    'x',
    '%2F',
    '..',
    '%',
  ),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);
const query = fc.constantFrom(
  '',
  '?watch=false',
  '?labelSelector=a%3D',
  '?fieldSelector=x',
  '?labelSelector=!!',
  '?resourceVersion=abc',
  '?limit=-1',
  '?fieldManager=',
);
const contentType = fc.constantFrom(
  'application/json',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'text/plain',
  'application/apply-patch+cbor',
);
const body = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 64 }),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    '{"metadata":null}',
    '{"metadata":{"name":5}}',
    '[{"op":"remove","path":"/metadata"}]',
    '{"kind":"CloneSet","apiVersion":"v1","metadata":{"name":"z"}}',
    'a: [b',
    'null',
    '[]',
  ),
);

describe('request fuzzing', () => {
  it('every answer is a valid HTTP status; errors are Status objects; the server keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        fc.array(segment, { maxLength: 7 }),
        query,
        contentType,
        body,
        async (method, segs, q, ct, b) => {
          const path = `/${segs.join('/')}${q}`;
          if (/[?&]watch=(true|1)/.test(path)) return;
          const hasBody = method !== 'GET' && method !== 'HEAD';
          const r = await call(s.url, method, path, hasBody ? b : undefined, { 'Content-Type': ct });
          expect(r.status).toBeGreaterThanOrEqual(200);
          expect(r.status).toBeLessThan(600);
          expect(r.status).not.toBe(500);
          if (r.status >= 400 && method !== 'HEAD') expect(r.body.kind).toBe('Status');
        },
      ),
      { numRuns: 300 },
    );
    expect((await call(s.url, 'GET', '/version')).status).toBe(200);
  });

  it('malformed HTTP on the socket gets 400 and does not stop the server', async () => {
    const reply = await new Promise<string>((resolve) => {
      const sock = connect({ port: s.port, host: '127.0.0.1', ca: s.caCert }, () =>
        sock.write('GARBAGE \x00\x01 HTTP/9\r\n\r\n'),
      );
      let out = '';
      sock.on('data', (d) => {
        out += d.toString();
      });
      sock.on('close', () => resolve(out));
      sock.on('error', () => resolve(out));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await call(s.url, 'GET', '/version')).status).toBe(200);
  });

  it('a body above the limit is refused with 413', async () => {
    const small = await startTestServer({ maxBodyBytes: 1024 });
    try {
      const r = await call(small.url, 'POST', '/api/v1/namespaces/default/configmaps', 'x'.repeat(4096));
      expect(r.status).toBe(413);
      expect(r.body.kind).toBe('Status');
    } finally {
      await small.close();
    }
  });
});
