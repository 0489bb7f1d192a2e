// `kruise-ts serve` and `kruise-ts daemon` as the CLI wires them: flags are checked, the
// server answers on a loopback port with the kubeconfig it printed, and it stops cleanly.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIO, main, serveCommand, startServe } from '../src/index';

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
  it('serves /version on 127.0.0.1, writes the kubeconfig it prints, and closes', async () => {
    const c = capture();
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-serve-')), 'kubeconfig');
    const server = await startServe({ port: '0', kubeconfig, speed: '0' }, c.io);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(c.out()).toContain(`export KUBECONFIG=${kubeconfig}`);
      expect(readFileSync(kubeconfig, 'utf8')).toContain('insecure-skip-tls-verify: true');
      const version = (await (await fetch(`${server.url}/version`)).json()) as { major: string };
      expect(version.major).toBe('1');
      const clones = await fetch(`${server.url}/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets`);
      expect(clones.status).toBe(200);
    } finally {
      await server.close();
    }
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
      const created = await fetch(`${server.url}/api/v1/namespaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ns),
      });
      expect(created.status).toBe(201);
      const del = await fetch(`${server.url}/api/v1/namespaces/keep`, { method: 'DELETE' });
      expect(del.status).toBe(403);
      const status = (await del.json()) as { message: string };
      expect(status.message).toContain('admission webhook "vnamespace.kb.io" denied the request');
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
      const list = (await (await fetch(`${server.url}/api/v1/nodes`)).json()) as { items: unknown[] };
      expect(list.items).toHaveLength(5);
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
