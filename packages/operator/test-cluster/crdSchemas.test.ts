// The CRDs of deploy/crds on a real kube-apiserver, through the real kubectl: `kubectl explain`
// prints our descriptions of Kruise's fields and Kubernetes' own of the pod template's, and
// `kubectl create --validate=strict` of a CloneSet with a typo in its template is refused with
// the strict-decoding error; packages/sim/test/apiserver/crdSchemas.kubectl.test.ts holds
// `kruise-ts serve` to the same words.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubectlPath } from '../../../scripts/real-cluster/controlPlane.mjs';
import { realCluster, useRealTest } from './helpers/harness';

const rc = realCluster('the CRD schemas on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const work = mkdtempSync(join(tmpdir(), 'kruise-ts-crd-schemas-'));
  const kubectl = (...args: string[]) =>
    spawnSync(
      kubectlPath(),
      [`--kubeconfig=${rc.kubeconfig}`, `--cache-dir=${join(work, 'cache')}`, ...args],
      {
        encoding: 'utf8',
      },
    );
  const folded = (text: string) => text.replace(/\s+/g, ' ');
  const typo = (ns: string) => {
    const file = join(work, `${ns}.yaml`);
    writeFileSync(
      file,
      [
        'apiVersion: apps.kruise.io/v1alpha1',
        'kind: CloneSet',
        `metadata: {name: typo, namespace: ${ns}}`,
        'spec:',
        '  selector: {matchLabels: {app: typo}}',
        '  template:',
        '    metadata: {labels: {app: typo}}',
        '    spec:',
        '      containers:',
        '      - {name: main, image: nginx:1.25, imagePullPolcy: Always}',
        '',
      ].join('\n'),
    );
    return file;
  };

  describe(`the CRD schemas against ${rc.version}`, () => {
    it("kubectl explain prints our descriptions and Kubernetes' own for the pod template", () => {
      const strategy = kubectl('explain', 'clone.spec.updateStrategy');
      expect(strategy.stderr).toBe('');
      expect(folded(strategy.stdout)).toContain('DESCRIPTION: How pods move to a new template.');
      expect(folded(strategy.stdout)).toContain(
        'paused <boolean> Stops updating pods; scaling goes on. Default false.',
      );
      const image = kubectl('explain', 'clone.spec.template.spec.containers.image');
      expect(folded(image.stdout)).toContain('FIELD: image <string> DESCRIPTION: Container image name.');
    });

    it('create --validate=strict of a template typo is refused with the strict-decoding error', async () => {
      const ns = await t.namespace('crd');
      const file = typo(ns);
      const r = kubectl('create', '--validate=strict', '-f', file);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `Error from server (BadRequest): error when creating "${file}": CloneSet in version "v1alpha1" cannot be handled as a CloneSet: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"\n`,
      );
    });
  });
}
