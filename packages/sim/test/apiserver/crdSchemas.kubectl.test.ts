// The CRDs' schemas through the real kubectl (/usr/bin/kubectl, client 1.32) against `kruise-ts
// serve`: `kubectl explain` prints our descriptions of Kruise's fields and Kubernetes' own of the
// pod template's (the CRDs publish both, packages/api/src/crdSchemas.ts); `kubectl create
// --validate=strict` (kubectl's default) of a CloneSet with a typo in its template is refused with
// kube-apiserver's strict-decoding words, `--validate=warn` creates it without the field and prints
// the warning, as a real server does with these CRDs installed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './helpers';
import { kubectlFor, skipWithoutKubectl } from './kubectlRunner';

const SKIP = skipWithoutKubectl('kubectl explain and --validate=strict');

/** kubectl explain wraps text at 80 columns: compare with the whitespace folded. */
const folded = (text: string) => text.replace(/\s+/g, ' ');

const TYPO = [
  'apiVersion: apps.kruise.io/v1alpha1',
  'kind: CloneSet',
  'metadata: {name: typo}',
  'spec:',
  '  selector: {matchLabels: {app: typo}}',
  '  template:',
  '    metadata: {labels: {app: typo}}',
  '    spec:',
  '      containers:',
  '      - {name: main, image: nginx:1.25, imagePullPolcy: Always}',
  '',
].join('\n');
const UNKNOWN = 'unknown field "spec.template.spec.containers[0].imagePullPolcy"';

describe.skipIf(SKIP)('kubectl explain and --validate=strict', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let kubectl: ReturnType<typeof kubectlFor>;
  let file: string;

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    // its own HOME, so its own discovery and OpenAPI cache; the --cache-dir below says so again
    const run = kubectlFor(s.kubeconfigPath, s.dir);
    kubectl = (...args) => run(`--cache-dir=${join(s.dir, 'kubectl-cache')}`, ...args);
    file = join(s.dir, 'typo.yaml');
    writeFileSync(file, TYPO);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('explain clone.spec.updateStrategy prints our descriptions of the fields', async () => {
    const r = await kubectl('explain', 'clone.spec.updateStrategy');
    expect(r.stderr).toBe('');
    const out = folded(r.stdout);
    expect(out).toContain('FIELD: updateStrategy <Object>');
    expect(out).toContain('DESCRIPTION: How pods move to a new template.');
    expect(out).toContain('paused <boolean> Stops updating pods; scaling goes on. Default false.');
    expect(out).toMatch(
      / type <string> ReCreate \(delete the pod and create a new one\).* Default ReCreate\./,
    );
    expect(out).not.toContain('<no description>');
  });

  it("explain clone.spec.template.spec.containers.image prints Kubernetes' description", async () => {
    const r = await kubectl('explain', 'clone.spec.template.spec.containers.image');
    expect(r.stderr).toBe('');
    expect(folded(r.stdout)).toContain(
      'FIELD: image <string> DESCRIPTION: Container image name. More info: https://kubernetes.io/docs/concepts/containers/images',
    );
  });

  it('create --validate=strict of a template typo is refused with the strict-decoding error', async () => {
    const r = await kubectl('create', '--validate=strict', '-f', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error from server (BadRequest): error when creating "${file}": CloneSet in version "v1alpha1" cannot be handled as a CloneSet: strict decoding error: ${UNKNOWN}\n`,
    );
    const got = await kubectl('get', 'clone', 'typo');
    expect(got.stderr).toContain('NotFound');
  });

  it('create --validate=warn creates the CloneSet without the field and prints the warning', async () => {
    const r = await kubectl('create', '--validate=warn', '-f', file);
    expect(r.stdout).toBe('cloneset.apps.kruise.io/typo created\n');
    expect(r.stderr).toBe(`Warning: ${UNKNOWN}\n`);
    const got = await kubectl('get', 'clone', 'typo', '-o', 'jsonpath={.spec.template.spec.containers[0]}');
    expect(JSON.parse(got.stdout)).toEqual({ name: 'main', image: 'nginx:1.25' });
  });
});
