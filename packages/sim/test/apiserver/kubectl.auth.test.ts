// The real kubectl (/usr/bin/kubectl) through the kubeconfig the server writes: the bearer token
// and the self-signed certificate it carries are enough for `kubectl create` and `kubectl get`
// (kubectl sends a token only over TLS, which is why the server speaks HTTPS); the same
// kubeconfig with a wrong token gets kubectl's "You must be logged in", and without any
// credentials kubectl asks for a user name (stdin is closed here, so it gives up) and writes
// nothing; a server started with `insecureNoAuth` works with its plain-HTTP kubeconfig.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';
import { startTestServer } from './helpers';

const KUBECTL = '/usr/bin/kubectl';
const SKIP = skipWithoutRealTool('kubectl with the token kubeconfig', missingFile(KUBECTL, existsSync));
const EXAMPLE = fileURLToPath(new URL('../../../../examples/cloneset.yaml', import.meta.url));

function kubectl(
  kubeconfig: string,
  home: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig };
  return new Promise((resolve) => {
    const child = execFile(KUBECTL, args, { env, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(); // no terminal: a credential prompt reads end-of-file
  });
}

describe.skipIf(SKIP)('kubectl with the token kubeconfig', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let home: string;
  /** The server's kubeconfig with its user replaced by `user`. */
  const kubeconfigWith = (file: string, user: Record<string, unknown>) => {
    const kc = parse(readFileSync(s.kubeconfigPath, 'utf8'));
    kc.users[0].user = user;
    const p = join(s.dir, file);
    writeFileSync(p, stringify(kc), { mode: 0o600 });
    return p;
  };

  beforeAll(async () => {
    s = await startTestServer();
    home = join(s.dir, 'home');
    mkdirSync(home);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('create -f and get work over HTTPS with the token', async () => {
    const created = await kubectl(s.kubeconfigPath, home, 'create', '-f', EXAMPLE);
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('cloneset.apps.kruise.io/sample created\n');
    const got = await kubectl(
      s.kubeconfigPath,
      home,
      'get',
      'clone',
      'sample',
      '-o',
      'jsonpath={.metadata.name}',
    );
    expect(got.stdout).toBe('sample');
    const ns = await kubectl(s.kubeconfigPath, home, 'get', 'namespaces', '-o', 'name');
    expect(ns.stdout).toContain('namespace/default\n');
  });

  it('with a wrong token kubectl says "You must be logged in to the server"; without credentials it creates nothing', async () => {
    const wrong = kubeconfigWith('wrong.kubeconfig', { token: 'f'.repeat(64) });
    const r = await kubectl(wrong, home, 'get', 'pods');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
    const denied = await kubectl(wrong, home, 'create', '-f', EXAMPLE, '--validate=false');
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('Unauthorized');
    // kubectl prompts for a user name when the kubeconfig names no credentials
    const anonymous = await kubectl(kubeconfigWith('anonymous.kubeconfig', {}), home, 'get', 'pods');
    expect(anonymous.code).not.toBe(0);
    expect(s.simulation.store.list('apps.kruise.io/v1alpha1', 'CloneSet', 'default')).toHaveLength(1);
  });

  it('an insecureNoAuth server works through its plain-HTTP kubeconfig', async () => {
    const open = await startTestServer({ insecureNoAuth: true });
    try {
      const r = await kubectl(open.kubeconfigPath, join(open.dir, 'home'), 'create', '-f', EXAMPLE);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('cloneset.apps.kruise.io/sample created\n');
    } finally {
      await open.close();
    }
  });
});
