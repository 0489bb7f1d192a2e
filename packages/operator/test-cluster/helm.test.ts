// The Helm chart on a real kube-apiserver: charts/kruise-ts rendered by the real helm (built from
// its Go module, scripts/helm/build.sh) with the default values and with every value turned on,
// then applied with the real kubectl: a server-side dry run must accept every object (schemas,
// RBAC, webhooks, the DaemonSet, the hook Job), and the default install is then applied for real.
// This control plane runs no Deployment controller and no kubelet, so the operator's pod never
// starts here; readiness of the installed operator is what test-cluster's other files prove with
// the same manifests run in-process. The chart gets a control plane of its own: on the shared one
// the other files' operators have pointed the webhook configurations at their local URLs, and an
// apply of the chart's service-based clientConfig over those would merge into both at once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ControlPlane,
  kubectlPath,
  repoRoot,
  startControlPlane,
} from '../../../scripts/real-cluster/controlPlane.mjs';
import { CHART, helm, helmMissing } from '../../../test/helm/render';
import { skipWithoutRealTool } from '../../../test/support/realTools';
import { rememberServer } from '../test/helpers/serverAccess';
import { realCluster } from './helpers/harness';
import { api } from './helpers/rest';

const shared = realCluster('the Helm chart on a real kube-apiserver');
if (shared && !skipWithoutRealTool('the Helm chart on a real kube-apiserver', helmMissing())) {
  const work = mkdtempSync(join(tmpdir(), 'kruise-ts-helm-real-'));
  let cp: ControlPlane;
  beforeAll(async () => {
    cp = await startControlPlane({ dir: join(work, 'control-plane') });
    rememberServer(cp.url, { token: cp.token, caCert: cp.caCert });
    // a server-side dry run creates nothing, so the release namespace must exist beforehand
    const ns = kubectl([
      'apply',
      '--server-side',
      '-f',
      join(repoRoot, 'packages/operator/deploy/namespace.yaml'),
    ]);
    expect(ns.stderr).toBe('');
  });
  afterAll(async () => {
    await cp?.stop();
  });
  const kubectl = (args: string[]) =>
    spawnSync(
      kubectlPath(),
      [`--kubeconfig=${cp.kubeconfigPath}`, `--cache-dir=${join(work, 'cache')}`, ...args],
      {
        encoding: 'utf8',
      },
    );
  const rendered = (name: string, extra: string[]) => {
    const r = helm(['template', 'kruise-ts', CHART, '--namespace', 'kruise-system', ...extra]);
    expect(r.status, r.stderr).toBe(0);
    const file = join(work, `${name}.yaml`);
    writeFileSync(file, r.stdout);
    return file;
  };

  describe(`charts/kruise-ts against ${shared.version}`, () => {
    for (const [name, extra] of [
      ['default values', []],
      ['every value on (ci/all-on-values.yaml)', ['-f', join(CHART, 'ci/all-on-values.yaml')]],
    ] as const) {
      it(`${name}: a server-side dry run accepts every rendered object`, () => {
        const file = rendered(name.split(' ')[0] ?? 'x', [...extra]);
        const r = kubectl(['apply', '--server-side', '--force-conflicts', '--dry-run=server', '-f', file]);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        const lines = r.stdout.trim().split('\n');
        expect(lines.length).toBeGreaterThan(20);
        for (const line of lines)
          expect(line).toMatch(/ (serverside-applied|created|configured|unchanged) \(server dry run\)$/);
      });
    }

    it('the default rendering applies for real: the DaemonSet, Deployment and webhooks exist', async () => {
      const file = rendered('install', []);
      const r = kubectl(['apply', '--server-side', '--force-conflicts', '-f', file]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const manager = await api(cp.url, 'GET', '/apis/apps/v1/namespaces/kruise-system/deployments');
      expect(manager.body.items.map((d: any) => d.metadata.name)).toContain('kruise-controller-manager');
      const daemon = await api(cp.url, 'GET', '/apis/apps/v1/namespaces/kruise-system/daemonsets');
      expect(daemon.body.items.length).toBe(1);
    });
  });
}
