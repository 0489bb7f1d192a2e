// Golden tests with the real kubectl (/usr/bin/kubectl, the gcloud dispatcher:
// the server reports minor 32, so it runs its built-in 1.32) against the API
// server on a random loopback port with a fresh HOME and KUBECONFIG. The flow
// of OpenKruise's docs, then get -o yaml/wide/jsonpath, get -w, describe,
// apply (client- and server-side), scale, patch, label, replace with a stale
// resourceVersion, wait and delete. The clock runs at speed 0 and the tests
// advance it, so AGE columns are exact.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';
import { startTestServer } from './helpers';

const KUBECTL = '/usr/bin/kubectl';
const SKIP_KUBECTL = skipWithoutRealTool('kubectl golden flow', missingFile(KUBECTL, existsSync));
const EXAMPLE = fileURLToPath(new URL('../../../../examples/cloneset.yaml', import.meta.url));

let s: Awaited<ReturnType<typeof startTestServer>>;
let env: NodeJS.ProcessEnv;

function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, args, { env, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Collects a long-running kubectl's stdout until `pred` holds. */
function background(args: string[]): {
  child: ChildProcess;
  out: () => string;
  until: (pred: (s: string) => boolean, ms?: number) => Promise<boolean>;
} {
  const child = spawn(KUBECTL, args, { env });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return {
    child,
    out: () => out,
    until: async (pred, ms = 15_000) => {
      const end = Date.now() + ms;
      while (!pred(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return pred(out);
    },
  };
}

describe.skipIf(SKIP_KUBECTL)('kubectl golden flow', () => {
  beforeAll(async () => {
    s = await startTestServer();
    const home = join(s.dir, 'home');
    mkdirSync(home);
    env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: s.kubeconfigPath };
    writeFileSync(
      join(s.dir, 'v2.yaml'),
      'apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata:\n  labels:\n    app: sample\n  name: sample\nspec:\n  replicas: 5\n  selector:\n    matchLabels:\n      app: sample\n  template:\n    metadata:\n      labels:\n        app: sample\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\n',
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('kubectl version reports the server version v1.32.0-kruise-ts', async () => {
    const r = await kubectl('version');
    expect(r.stdout).toContain('Server Version: v1.32.0-kruise-ts');
  });

  it('create -f examples/cloneset.yaml prints "cloneset.apps.kruise.io/sample created"', async () => {
    const r = await kubectl('create', '-f', EXAMPLE);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('cloneset.apps.kruise.io/sample created\n');
  });

  it('get clone prints the columns of docs/reference/crds.md and 5 in every count column once the pods are ready', async () => {
    s.advance(60_000);
    const r = await kubectl('get', 'clone');
    expect(r.stdout).toBe(
      'NAME     DESIRED   UPDATED   UPDATED_READY   UPDATED_AVAILABLE   READY   TOTAL   AGE\n' +
        'sample   5         5         5               5                   5       5       60s\n',
    );
  });

  it('get clone -o wide adds CONTAINERS, IMAGES and SELECTOR', async () => {
    const r = await kubectl('get', 'clone', '-o', 'wide');
    const [head, row] = r.stdout.trimEnd().split('\n');
    expect(head.split(/\s+/)).toEqual([
      'NAME',
      'DESIRED',
      'UPDATED',
      'UPDATED_READY',
      'UPDATED_AVAILABLE',
      'READY',
      'TOTAL',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    expect(row.split(/\s+/).slice(-3)).toEqual(['nginx', 'nginx:alpine', 'app=sample']);
  });

  it('get -o yaml and -o jsonpath', async () => {
    const y = await kubectl('get', 'clone', 'sample', '-o', 'yaml');
    expect(y.stdout).toMatch(/^apiVersion: apps\.kruise\.io\/v1alpha1\nkind: CloneSet\n/);
    expect(y.stdout).toContain('  readyReplicas: 5\n');
    const j = await kubectl(
      'get',
      'clone',
      'sample',
      '-o',
      'jsonpath={.status.readyReplicas}/{.status.labelSelector}',
    );
    expect(j.stdout).toBe('5/app=sample');
  });

  it('get pods: five pods 1/1 Running with 0 restarts', async () => {
    const r = await kubectl('get', 'pods');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(lines).toHaveLength(6);
    for (const l of lines.slice(1)) expect(l).toMatch(/^sample-[a-z0-9]{5}\s+1\/1\s+Running\s+0\s+60s$/);
  });

  it('describe clone sample prints the fields and the controller events', async () => {
    const r = await kubectl('describe', 'clone', 'sample');
    expect(r.stdout).toMatch(/^Name:\s+sample$/m);
    expect(r.stdout).toMatch(/^Kind:\s+CloneSet$/m);
    expect(r.stdout).toMatch(/Normal\s+SuccessfulCreate\s+.*succeed to create pod sample-/);
  });

  it('apply (client-side) configures; apply --server-side is serverside-applied', async () => {
    const a = await kubectl('apply', '-f', join(s.dir, 'v2.yaml'));
    expect(a.stdout).toBe('cloneset.apps.kruise.io/sample configured\n');
    const ssa = await kubectl('apply', '--server-side', '-f', join(s.dir, 'v2.yaml'));
    expect(ssa.stdout).toBe('cloneset.apps.kruise.io/sample serverside-applied\n');
    const img = await kubectl(
      'get',
      'clone',
      'sample',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    );
    expect(img.stdout).toBe('nginx:1.25');
  });

  it('scale --replicas=3, then 3 in every count column', async () => {
    expect((await kubectl('scale', 'clone', 'sample', '--replicas=3')).stdout).toBe(
      'cloneset.apps.kruise.io/sample scaled\n',
    );
    s.advance(60_000);
    const r = await kubectl('get', 'clone', 'sample', '--no-headers');
    expect(r.stdout.split(/\s+/).slice(1, 7)).toEqual(['3', '3', '3', '3', '3', '3']);
  });

  it('patch --type=merge / --type=json; the default (strategic) patch is refused with 415', async () => {
    expect(
      (await kubectl('patch', 'clone', 'sample', '--type=merge', '-p', '{"spec":{"minReadySeconds":1}}'))
        .stdout,
    ).toBe('cloneset.apps.kruise.io/sample patched\n');
    expect(
      (
        await kubectl(
          'patch',
          'clone',
          'sample',
          '--type=json',
          '-p',
          '[{"op":"replace","path":"/spec/minReadySeconds","value":2}]',
        )
      ).stdout,
    ).toBe('cloneset.apps.kruise.io/sample patched\n');
    const sm = await kubectl('patch', 'clone', 'sample', '-p', '{"spec":{"minReadySeconds":3}}');
    expect(sm.code).not.toBe(0);
    expect(sm.stderr).toContain(
      'application/strategic-merge-patch+json is not supported by apps.kruise.io/v1alpha1, Kind=CloneSet',
    );
  });

  it('label, then get --show-labels', async () => {
    expect((await kubectl('label', 'clone', 'sample', 'tier=web')).stdout).toBe(
      'cloneset.apps.kruise.io/sample labeled\n',
    );
    const r = await kubectl('get', 'clone', '--show-labels', '--no-headers');
    expect(r.stdout.trim().split(/\s+/).pop()).toBe('app=sample,tier=web');
  });

  it('replace with a stale resourceVersion is a Conflict', async () => {
    const stale = (await kubectl('get', 'clone', 'sample', '-o', 'json')).stdout;
    await kubectl('label', 'clone', 'sample', 'tier=db', '--overwrite');
    writeFileSync(join(s.dir, 'stale.json'), stale);
    const r = await kubectl('replace', '-f', join(s.dir, 'stale.json'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (Conflict): error when replacing');
    expect(r.stderr).toContain(
      'Operation cannot be fulfilled on clonesets.apps.kruise.io "sample": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('a bad manifest gets the usual "is invalid" message with the field path', async () => {
    writeFileSync(
      join(s.dir, 'bad.yaml'),
      'apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata:\n  name: bad\nspec:\n  replicas: -1\n  selector:\n    matchLabels:\n      app: bad\n  template:\n    metadata:\n      labels:\n        app: bad\n    spec:\n      containers:\n      - name: c\n        image: x\n',
    );
    const r = await kubectl('create', '-f', join(s.dir, 'bad.yaml'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^The CloneSet "bad" is invalid: spec\.replicas: Invalid value: -1: /);
  });

  it('get clone -w prints the row again when it changes', async () => {
    const w = background(['get', 'clone', '-w']);
    try {
      expect(await w.until((o) => o.includes('sample'))).toBe(true);
      await kubectl('scale', 'clone', 'sample', '--replicas=4');
      s.advance(30_000);
      expect(await w.until((o) => /sample\s+4\s+4\s+4\s+4\s+4\s+4/.test(o))).toBe(true);
      expect(w.out().split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+UPDATED/);
    } finally {
      w.child.kill();
    }
  });

  it('wait --for=jsonpath returns once the condition is met', async () => {
    await kubectl('scale', 'clone', 'sample', '--replicas=6');
    const before = await kubectl('get', 'clone', 'sample', '-o', 'jsonpath={.status.readyReplicas}');
    expect(before.stdout).toBe('4');
    const waiting = kubectl(
      'wait',
      '--for=jsonpath={.status.readyReplicas}=6',
      'clone/sample',
      '--timeout=20s',
    );
    setTimeout(() => s.advance(60_000), 500);
    const r = await waiting;
    expect(r.stdout).toBe('cloneset.apps.kruise.io/sample condition met\n');
  });

  it('delete, then get prints "No resources found"', async () => {
    const d = await kubectl('delete', 'clone', 'sample');
    expect(d.stdout).toBe('cloneset.apps.kruise.io "sample" deleted\n');
    const g = await kubectl('get', 'clone');
    expect(g.stderr).toBe('No resources found in default namespace.\n');
    expect((await kubectl('get', 'clone', 'sample')).stderr).toBe(
      'Error from server (NotFound): clonesets.apps.kruise.io "sample" not found\n',
    );
  });

  it('api-resources lists clonesets with short name clone; explain has the CRD schema', async () => {
    const r = await kubectl('api-resources', '--api-group=apps.kruise.io');
    expect(r.stdout).toMatch(/^clonesets\s+clone\s+apps\.kruise\.io\/v1alpha1\s+true\s+CloneSet$/m);
    const e = await kubectl('explain', 'clone.spec.replicas');
    expect(e.stdout).toMatch(/FIELD:\s+replicas <integer>/);
  });
});
