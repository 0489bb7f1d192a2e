// Who may talk to the server: the bearer token (401 without it or with a wrong one; health
// checks and /version are public, as Kubernetes' system:public-info-viewer makes them), the
// Host header of a loopback-bound server (403 for any other name: DNS rebinding), cross-origin
// browser requests (403, no CORS headers, nothing created), the kubeconfig that carries the token
// and certificate, and `insecureNoAuth`.
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isLoopbackAddress, isLoopbackHostHeader } from '../../src/apiserver/guard';
import { call, startTestServer, WatchReader } from './helpers';
import { request } from './transport';

const CM = '/api/v1/namespaces/default/configmaps';
const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

let s: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const cm = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const exists = (name: string) => s.simulation.store.get('v1', 'ConfigMap', 'default', name) !== undefined;
const NO_TOKEN = { Authorization: '' };

describe('bearer token', () => {
  it('is 32 random bytes in hex, different per server, and in the kubeconfig (mode 0600) with the certificate', async () => {
    expect(s.token).toMatch(/^[0-9a-f]{64}$/);
    const other = await startTestServer();
    try {
      expect(other.token).not.toBe(s.token);
    } finally {
      await other.close();
    }
    const kc = parse(readFileSync(s.kubeconfigPath, 'utf8'));
    expect(kc.users[0].user).toEqual({ token: s.token });
    expect(kc.clusters[0].cluster).toEqual({
      server: s.url,
      'certificate-authority-data': Buffer.from(s.caCert ?? '').toString('base64'),
    });
    expect(statSync(s.kubeconfigPath).mode & 0o777).toBe(0o600);
  });

  it('a request without it is 401 with an Unauthorized Status, and a create without it stores nothing', async () => {
    for (const path of ['/api', '/apis', CM, '/openapi/v3']) {
      const r = await call(s.url, 'GET', path, undefined, NO_TOKEN);
      expect(r.status, path).toBe(401);
      expect(r.body).toEqual(UNAUTHORIZED);
    }
    const post = await call(s.url, 'POST', CM, cm('anon'), NO_TOKEN);
    expect(post.status).toBe(401);
    expect(exists('anon')).toBe(false);
    const w = new WatchReader(`${s.url}${CM}?watch=true`, NO_TOKEN);
    await w.ready;
    expect(w.status).toBe(401);
    w.close();
  });

  it('a wrong token, another scheme or an empty bearer is 401; the right one in any case of `Bearer` is served', async () => {
    for (const auth of [
      `Bearer ${'0'.repeat(64)}`,
      `Bearer ${s.token}x`,
      `Basic ${s.token}`,
      'Bearer ',
      s.token ?? '',
    ]) {
      const r = await call(s.url, 'GET', CM, undefined, { Authorization: auth });
      expect(r.status, auth).toBe(401);
      expect(r.body).toEqual(UNAUTHORIZED);
    }
    expect((await call(s.url, 'GET', CM, undefined, { Authorization: `bearer ${s.token}` })).status).toBe(
      200,
    );
    expect((await call(s.url, 'GET', CM)).status).toBe(200);
  });

  it('/healthz, /livez, /readyz and /version answer without a token; with a wrong token they are 401', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
      expect((await call(s.url, 'GET', path, undefined, NO_TOKEN)).status, path).toBe(200);
      expect((await call(s.url, 'GET', path, undefined, { Authorization: 'Bearer nope' })).status, path).toBe(
        401,
      );
    }
    // an encoded or suffixed spelling is not a public path
    expect((await call(s.url, 'GET', '/%76ersion', undefined, NO_TOKEN)).status).toBe(401);
    expect((await call(s.url, 'GET', '/healthz/extra', undefined, NO_TOKEN)).status).toBe(401);
  });
});

describe('Host header (DNS rebinding)', () => {
  it('a name other than a loopback host is 403 Forbidden, before authentication, and creates nothing', async () => {
    const port = s.port;
    const get = await call(s.url, 'GET', CM, undefined, { Host: `evil.example:${port}` });
    expect(get.status).toBe(403);
    expect(get.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(get.body.message).toContain('"evil.example:');
    const post = await call(s.url, 'POST', CM, cm('rebound'), { Host: `evil.example:${port}` });
    expect(post.status).toBe(403);
    expect(exists('rebound')).toBe(false);
    for (const host of ['127.0.0.1.evil.example', 'localhost.evil.example', '10.0.0.1', 'localhost:x'])
      expect((await call(s.url, 'GET', '/version', undefined, { Host: host })).status, host).toBe(403);
  });

  it('localhost, 127.x.y.z and [::1], with or without a port, are served', async () => {
    for (const host of [
      'localhost',
      `LOCALHOST:${s.port}`,
      '127.0.0.1',
      `127.1.2.3:${s.port}`,
      `[::1]:${s.port}`,
      '[::1]',
    ])
      expect((await call(s.url, 'GET', CM, undefined, { Host: host })).status, host).toBe(200);
  });

  it('a request without a Host header (HTTP/1.0) is 403', async () => {
    const reply = await new Promise<string>((resolve) => {
      const sock = connect({ port: s.port, host: '127.0.0.1', ca: s.caCert }, () =>
        sock.write(`GET /version HTTP/1.0\r\nAuthorization: Bearer ${s.token}\r\n\r\n`),
      );
      let out = '';
      sock.on('data', (d) => {
        out += d.toString();
      });
      sock.on('close', () => resolve(out));
      sock.on('error', () => resolve(out));
    });
    expect(reply).toMatch(/^HTTP\/1\.[01] 403/);
  });

  it('a server bound to a non-loopback address does not check the Host header', async () => {
    const open = await startTestServer({ host: '0.0.0.0' });
    try {
      // the URL and kubeconfig name loopback, which the certificate holds
      expect(open.url).toBe(`https://127.0.0.1:${open.port}`);
      const r = await call(open.url, 'GET', CM, undefined, { Host: `evil.example:${open.port}` });
      expect(r.status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('isLoopbackHostHeader and isLoopbackAddress', () => {
    for (const h of ['localhost', 'localhost:6443', '127.0.0.1', '127.255.0.9:1', '[::1]', '[::1]:6443'])
      expect(isLoopbackHostHeader(h), h).toBe(true);
    for (const h of [
      undefined,
      '',
      'evil.example',
      '128.0.0.1',
      '127.0.0.256',
      '[::2]',
      '[::1]x',
      '::1',
      'localhost:',
      '127.0.0.1:6443:1',
    ])
      expect(isLoopbackHostHeader(h), String(h)).toBe(false);
    for (const a of ['127.0.0.1', '127.9.9.9', '::1', 'localhost'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '192.168.1.10', 'example.com'])
      expect(isLoopbackAddress(a), a).toBe(false);
  });
});

describe('cross-origin requests from a browser', () => {
  it('a simple cross-origin POST (Origin: https://evil.example, text/plain, no token) creates nothing', async () => {
    const r = await call(s.url, 'POST', CM, cm('cors'), {
      Origin: 'https://evil.example',
      'Content-Type': 'text/plain;charset=UTF-8',
      ...NO_TOKEN,
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(exists('cors')).toBe(false);
  });

  it('a preflight (OPTIONS) gets no Access-Control-Allow-Origin, with or without a token', async () => {
    const preflight = {
      Origin: 'https://evil.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
    };
    for (const headers of [{ ...preflight, ...NO_TOKEN }, preflight]) {
      const r = await call(s.url, 'OPTIONS', CM, undefined, headers);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect([...r.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('a request naming another origin is 403 even with the token; the server’s own origin is served', async () => {
    const r = await call(s.url, 'GET', CM, undefined, { Origin: 'http://127.0.0.1:1' });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('origin "http://127.0.0.1:1" is not allowed');
    expect((await call(s.url, 'GET', CM, undefined, { Origin: s.url })).status).toBe(200);
  });
});

describe('insecureNoAuth', () => {
  it('serves plain HTTP without a token; the kubeconfig has no credentials', async () => {
    const open = await startTestServer({ insecureNoAuth: true });
    try {
      expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(open.token).toBeUndefined();
      expect(open.caCert).toBeUndefined();
      const kc = parse(readFileSync(open.kubeconfigPath, 'utf8'));
      expect(kc.users[0].user).toEqual({});
      expect(kc.clusters[0].cluster['insecure-skip-tls-verify']).toBe(true);
      expect((await call(open.url, 'POST', CM, cm('open'), NO_TOKEN)).status).toBe(201);
    } finally {
      await open.close();
    }
  });

  it('still refuses a cross-origin POST, whatever its Content-Type (a Blob body sends none), and a foreign Host', async () => {
    const open = await startTestServer({ insecureNoAuth: true });
    try {
      const has = (name: string) =>
        open.simulation.store.get('v1', 'ConfigMap', 'default', name) !== undefined;
      const plain = await call(open.url, 'POST', CM, cm('x1'), {
        Origin: 'https://evil.example',
        'Content-Type': 'text/plain',
      });
      expect(plain.status).toBe(403);
      const untyped = await request(`${open.url}${CM}`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example' },
        body: cm('x2'),
      });
      expect(untyped.status).toBe(403);
      const rebound = await call(open.url, 'POST', CM, cm('x3'), { Host: 'evil.example' });
      expect(rebound.status).toBe(403);
      expect([has('x1'), has('x2'), has('x3')]).toEqual([false, false, false]);
      // the same untyped body without an Origin is an ordinary JSON create
      const local = await request(`${open.url}${CM}`, { method: 'POST', body: cm('x4') });
      expect(local.status).toBe(201);
    } finally {
      await open.close();
    }
  });
});
