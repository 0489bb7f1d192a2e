// `kruise-ts serve` and `kruise-ts daemon` as the CLI wires them: flags are checked, the
// server answers on a loopback port (HTTPS with a bearer token, or plain HTTP with
// --insecure-no-auth) with the kubeconfig it printed, and it stops cleanly.
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiServer } from '@kruise-ts/sim';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type CliIO, main, serveCommand, startServe } from '../src/index';

/**
 * A request to the server as a client of its kubeconfig: its certificate trusted, its token
 * sent (`token: null` sends none). Node's fetch cannot be given a CA, hence node:https.
 */
function send(
  server: ApiServer,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string | null } = {},
): Promise<{ status: number; body: any }> {
  const u = new URL(server.url + path);
  const token = opts.token === undefined ? server.token : opts.token;
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const o = { method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, headers };
  return new Promise((resolve, reject) => {
    const req = u.protocol === 'https:' ? https.request({ ...o, ca: server.caCert }) : http.request(o);
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
      );
    });
    req.end(body);
  });
}

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd: process.cwd(),
    isTTY: false,
    readFile: (p) => readFileSync(p, 'utf8'),
    writeFile: () => {},
  };
  return { io, out: () => out, err: () => err };
}

describe('kruise-ts serve', () => {
  it('serves HTTPS on 127.0.0.1, writes the kubeconfig it prints (token and certificate), and closes', async () => {
    const c = capture();
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-serve-')), 'kubeconfig');
    const server = await startServe({ port: '0', kubeconfig, speed: '0' }, c.io);
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(c.out()).toContain(`export KUBECONFIG=${kubeconfig}`);
      expect(c.out()).toContain('authentication: a bearer token, in the kubeconfig only');
      expect(c.out()).not.toContain(server.token);
      const kc = parse(readFileSync(kubeconfig, 'utf8'));
      expect(kc.users[0].user.token).toBe(server.token);
      expect(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(
        server.caCert,
      );
      const version = await send(server, 'GET', '/version', { token: null });
      expect(version.body.major).toBe('1');
      const path = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
      expect((await send(server, 'GET', path)).status).toBe(200);
      expect((await send(server, 'GET', path, { token: null })).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('--insecure-no-auth serves plain HTTP without a token and says so', async () => {
    const c = capture();
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-serve-')), 'kubeconfig');
    const server = await startServe({ port: '0', kubeconfig, speed: '0', insecureNoAuth: true }, c.io);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.token).toBeUndefined();
      expect(c.out()).toContain('authentication: off (--insecure-no-auth)');
      const kc = parse(readFileSync(kubeconfig, 'utf8'));
      expect(kc.users[0].user).toEqual({});
      const path = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
      expect((await send(server, 'GET', path)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('`kruise-ts serve --help` lists --insecure-no-auth', async () => {
    const c = capture();
    expect(await main(['serve', '--help'], c.io)).toBe(0);
    expect(c.out() + c.err()).toContain('--insecure-no-auth');
  });

  it('--feature-gates ResourcesDeletionProtection=true: a namespace labelled Always cannot be deleted (403)', async () => {
    const c = capture();
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-serve-')), 'kubeconfig');
    const server = await startServe(
      { port: '0', kubeconfig, speed: '0', featureGates: 'ResourcesDeletionProtection=true' },
      c.io,
    );
    try {
      const ns = {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'keep', labels: { 'policy.kruise.io/delete-protection': 'Always' } },
      };
      const created = await send(server, 'POST', '/api/v1/namespaces', { body: ns });
      expect(created.status).toBe(201);
      const del = await send(server, 'DELETE', '/api/v1/namespaces/keep');
      expect(del.status).toBe(403);
      expect(del.body.message).toContain('admission webhook "vnamespace.kb.io" denied the request');
    } finally {
      await server.close();
    }
  });

  it('rejects a malformed --feature-gates value with exit code 2', async () => {
    const c = capture();
    await expect(
      startServe({ port: '0', speed: '0', featureGates: 'NoSuchGate=true' }, c.io),
    ).rejects.toMatchObject({ exitCode: 2 });
  });

  it('stops when its signal aborts and exits 0', async () => {
    const c = capture();
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-serve-')), 'kubeconfig');
    const ac = new AbortController();
    const done = serveCommand({ port: '0', kubeconfig, speed: '0' }, c.io, ac.signal);
    await new Promise((r) => setTimeout(r, 200));
    ac.abort();
    await expect(done).resolves.toBe(0);
  });

  it('rejects a bad --controllers value with exit code 2 and a message naming the flag', async () => {
    const c = capture();
    expect(await main(['serve', '--controllers', 'some'], c.io)).toBe(2);
    expect(c.err()).toContain('--controllers must be "all" or "none"');
  });

  it('--nodes sets the number of simulated nodes', async () => {
    const c = capture();
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-serve-')), 'kubeconfig');
    const server = await startServe({ port: '0', kubeconfig, speed: '0', nodes: '5' }, c.io);
    try {
      const list = await send(server, 'GET', '/api/v1/nodes');
      expect(list.body.items).toHaveLength(5);
      expect(c.out()).toContain('(5 nodes)');
    } finally {
      await server.close();
    }
  });

  it('rejects a bad --port with exit code 2', async () => {
    const c = capture();
    expect(await main(['serve', '--port', 'abc'], c.io)).toBe(2);
    expect(c.err()).toContain('--port');
  });
});

describe('kruise-ts daemon', () => {
  it('requires --node', async () => {
    const c = capture();
    expect(await main(['daemon'], c.io)).toBe(2);
    expect(c.err()).toContain("required option '--node <name>' not specified");
  });
});

describe('kruise-ts operator', () => {
  it('rejects an unknown flag with exit code 2 and names it', async () => {
    const c = capture();
    expect(await main(['operator', '--bogus-flag'], c.io)).toBe(2);
    expect(c.err()).toContain('--bogus-flag');
  });
});
