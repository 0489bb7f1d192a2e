// Dry runs with the real kubectl (/usr/bin/kubectl, client 1.32): `delete --dry-run=server` (the
// dry run travels in the DeleteOptions body) leaves the CloneSet and its pods; `create
// --dry-run=server` of an invalid CloneSet fails with the validation error a real create gets; and
// `kubectl diff` of the file an object was created from shows nothing, because the dry-run patch
// it sends is defaulted like a real write (no imagePullPolicy or terminationMessage* "removed").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './helpers';
import { kubectlFor, skipWithoutKubectl } from './kubectlRunner';

const SKIP = skipWithoutKubectl('kubectl dry runs');
const EXAMPLE = fileURLToPath(new URL('../../../../examples/cloneset.yaml', import.meta.url));

describe.skipIf(SKIP)('kubectl dry runs', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let kubectl: ReturnType<typeof kubectlFor>;

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'all' });
    kubectl = kubectlFor(s.kubeconfigPath, s.dir);
    const created = await kubectl('create', '-f', EXAMPLE);
    expect(created.stderr).toBe('');
    s.advance(30_000);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('delete clone sample --dry-run=server leaves the CloneSet and its pods', async () => {
    const rv = s.simulation.store.resourceVersion;
    const r = await kubectl('delete', 'clone', 'sample', '--dry-run=server');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('cloneset.apps.kruise.io "sample" deleted (server dry run)\n');
    const pod = s.simulation.list('Pod')[0].metadata.name!;
    const p = await kubectl('delete', 'pod', pod, '--dry-run=server');
    expect(p.stdout).toBe(`pod "${pod}" deleted (server dry run)\n`);
    s.advance(60_000);
    const got = await kubectl('get', 'clone', 'sample', '-o', 'jsonpath={.metadata.name}');
    expect(got.stdout).toBe('sample');
    const pods = await kubectl('get', 'pods', '-l', 'app=sample', '-o', 'name');
    expect(pods.stdout.trim().split('\n')).toHaveLength(5);
    expect(pods.stdout).toContain(`pod/${pod}\n`);
    // no write happened in between (the clock moved, but the rollout had settled)
    expect(s.simulation.store.resourceVersion).toBe(rv);
  });

  it('create -f invalid.yaml --dry-run=server fails with the validation error and creates nothing', async () => {
    const file = join(s.dir, 'invalid.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apps.kruise.io/v1alpha1',
        'kind: CloneSet',
        'metadata: {name: broken}',
        'spec:',
        '  replicas: -1',
        '  selector: {matchLabels: {app: broken}}',
        '  template:',
        '    metadata: {labels: {app: broken}}',
        '    spec: {containers: [{name: c, image: nginx}]}',
        '',
      ].join('\n'),
    );
    const r = await kubectl('create', '-f', file, '--dry-run=server');
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('The CloneSet "broken" is invalid: spec.replicas');
    const real = await kubectl('create', '-f', file);
    expect(r.stderr).toBe(real.stderr);
    const ok = await kubectl('create', '-f', EXAMPLE, '--dry-run=server');
    // the example exists already: a dry run reports it as a real create would
    expect(ok.stderr).toContain('AlreadyExists');
  });

  /** The changed lines of a diff, less kubectl's own: it strips the last-applied annotation its
   * patch adds from the merged object and leaves the emptied map. */
  const changedLines = (out: string) =>
    out
      .split('\n')
      .filter((l) => /^[-+] /.test(l))
      .map((l) => l.trim())
      .filter((l) => l !== '+  annotations: {}');

  it('kubectl diff of the file the CloneSet was created from shows no defaulted field as changed', async () => {
    const r = await kubectl('diff', '-f', EXAMPLE);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/imagePullPolicy|terminationMessage|dnsPolicy|restartPolicy/);
    expect(changedLines(r.stdout)).toEqual([]);
  });

  it('kubectl diff of a changed file shows only the change', async () => {
    const file = join(s.dir, 'scaled.yaml');
    const { readFileSync } = await import('node:fs');
    writeFileSync(file, readFileSync(EXAMPLE, 'utf8').replace('replicas: 5', 'replicas: 6'));
    const r = await kubectl('diff', '-f', file);
    expect(r.code).toBe(1);
    expect(changedLines(r.stdout)).toEqual([
      '-  generation: 1',
      '+  generation: 2',
      '-  replicas: 5',
      '+  replicas: 6',
    ]);
  });
});
