// Server-side apply with the real kubectl (/usr/bin/kubectl) against `kruise-ts serve`, the flows
// of Kubernetes' server-side apply documentation: `apply --server-side` records what it set; a
// second field manager changing spec.replicas gets kube-apiserver's conflict, and takes the
// field with --force-conflicts; a field left out of a re-apply is removed; `kubectl scale` (an
// Update) makes the next apply of another replica count conflict; a client-side `kubectl apply`
// keeps working and its manager is named in conflicts. Each kubectl has its own HOME (its own
// discovery cache).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';
import { startTestServer } from './helpers';

const KUBECTL = '/usr/bin/kubectl';
const SKIP = skipWithoutRealTool('server-side apply with kubectl', missingFile(KUBECTL, existsSync));

const cloneSet = (name: string, replicas: number, labels: Record<string, string> = {}) =>
  JSON.stringify({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, labels: { app: name, ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine', ports: [{ containerPort: 80 }] }] },
      },
    },
  });

describe.skipIf(SKIP)('kubectl apply --server-side', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let run: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  const file = (name: string, text: string) => {
    const p = join(s.dir, name);
    writeFileSync(p, text);
    return p;
  };
  const managedFields = async (name: string) => {
    const r = await run('get', 'clone', name, '-o', 'json', '--show-managed-fields');
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout).metadata.managedFields as {
      manager: string;
      operation: string;
      fieldsV1: Record<string, any>;
      subresource?: string;
    }[];
  };

  beforeAll(async () => {
    s = await startTestServer();
    const home = mkdtempSync(join(s.dir, 'home-'));
    const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: s.kubeconfigPath };
    run = (...args) =>
      new Promise((resolve) => {
        const child = execFile(KUBECTL, args, { env, timeout: 30_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
        });
        child.stdin?.end();
      });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('creates with a real fieldsV1, refuses another manager with a conflict, and --force-conflicts takes over', async () => {
    const created = await run('apply', '--server-side', '-f', file('web.json', cloneSet('web', 5)));
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('cloneset.apps.kruise.io/web serverside-applied\n');
    const [entry] = await managedFields('web');
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(entry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']).toEqual({
      '.': {},
      'f:image': {},
      'f:name': {},
      'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
    });

    const other = file('other.json', cloneSet('web', 3));
    const refused = await run('apply', '--server-side', '--field-manager=other', '-f', other);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect((await run('get', 'clone', 'web', '-o', 'jsonpath={.spec.replicas}')).stdout).toBe('5');

    const forced = await run(
      'apply',
      '--server-side',
      '--field-manager=other',
      '--force-conflicts',
      '-f',
      other,
    );
    expect(forced.stderr).toBe('');
    expect((await run('get', 'clone', 'web', '-o', 'jsonpath={.spec.replicas}')).stdout).toBe('3');
    const entries = await managedFields('web');
    const byManager = Object.fromEntries(entries.map((e) => [e.manager, e]));
    expect(byManager.other.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(byManager.kubectl.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    // the image both set to the same value is shared
    expect(byManager.other.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toBeDefined();
    expect(byManager.kubectl.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toBeDefined();
  });

  it('removes a field the manager applied before and leaves out now', async () => {
    const withTier = await run(
      'apply',
      '--server-side',
      '-f',
      file('tier.json', cloneSet('tiered', 2, { tier: 'web' })),
    );
    expect(withTier.stderr).toBe('');
    expect((await run('get', 'clone', 'tiered', '-o', 'jsonpath={.metadata.labels.tier}')).stdout).toBe(
      'web',
    );
    const without = await run('apply', '--server-side', '-f', file('untier.json', cloneSet('tiered', 2)));
    expect(without.stderr).toBe('');
    const labels = await run('get', 'clone', 'tiered', '-o', 'jsonpath={.metadata.labels}');
    expect(JSON.parse(labels.stdout)).toEqual({ app: 'tiered' });
  });

  it('kubectl scale (an Update) then an apply of another replica count conflicts with the scaler', async () => {
    expect(
      (await run('apply', '--server-side', '-f', file('scaled.json', cloneSet('scaled', 2)))).stderr,
    ).toBe('');
    const scaled = await run('scale', 'clone', 'scaled', '--replicas=4');
    expect(scaled.stderr).toBe('');
    const entries = await managedFields('scaled');
    const scaler = entries.find((e) => e.operation === 'Update');
    expect(scaler?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    const again = await run('apply', '--server-side', '-f', file('scaled.json', cloneSet('scaled', 2)));
    expect(again.code).toBe(1);
    // kubectl scale writes as manager "kubectl" through the scale subresource: another identity
    expect(scaler).toMatchObject({ manager: 'kubectl', subresource: 'scale' });
    expect(again.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps.kruise.io/v1alpha1: .spec.replicas',
    );
  });

  it('client-side kubectl apply keeps working, and its manager is named in conflicts', async () => {
    const csa = file('csa.json', cloneSet('csa', 2));
    const first = await run('apply', '-f', csa);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('cloneset.apps.kruise.io/csa created\n');
    const second = await run('apply', '-f', file('csa2.json', cloneSet('csa', 6)));
    expect(second.stdout).toBe('cloneset.apps.kruise.io/csa configured\n');
    const entries = await managedFields('csa');
    expect(entries.map((e) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);
    const ssa = await run('apply', '--server-side', '--field-manager=other', '-f', csa);
    expect(ssa.code).toBe(1);
    expect(ssa.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps.kruise.io/v1alpha1: .spec.replicas',
    );
  });
});
