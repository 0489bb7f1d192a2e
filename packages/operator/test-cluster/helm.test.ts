// The Helm chart on a real kube-apiserver, with the real helm (built from its Go module,
// scripts/helm/build.sh) and the real kubectl: `helm install` as the chart's README gives it (the
// CRDs from the crds subchart's crds/ folder first, then every template), the release Secret well
// under the API server's 1 MiB limit for a Secret with the CRDs kept out of it, server-side dry
// runs of the renderings with the default values and with every value on, `helm upgrade` with
// new feature gates, the README's CRD upgrade with `kubectl apply --server-side`, and
// `helm uninstall`. This control plane runs no Deployment controller, Job controller or kubelet,
// so the operator's pod never starts here (no --wait anywhere); readiness of the installed
// operator is what test-cluster's other files prove with the same manifests run in-process. The
// chart gets a control plane of its own: on the shared one the other files' operators have pointed
// the webhook configurations at their local URLs, the CRDs are already there, and an install of the
// chart would meet objects it does not own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ControlPlane,
  kubectlPath,
  repoRoot,
  startControlPlane,
} from '../../../scripts/real-cluster/controlPlane.mjs';
import { CHART, helm, helmMissing, parseObjects } from '../../../test/helm/render';
import { skipWithoutRealTool } from '../../../test/support/realTools';
import { rememberServer } from '../test/helpers/serverAccess';
import { realCluster } from './helpers/harness';
import { api } from './helpers/rest';

/** The most a Secret's data may hold (the API server's limit, which the release Secret must meet). */
const SECRET_LIMIT = 1024 * 1024;
/** The margin the release keeps: a quarter of the limit, so that the chart can grow a little. */
const RELEASE_BUDGET = SECRET_LIMIT / 4;
const CRDS = join(repoRoot, 'packages/operator/deploy/crds');
const NS = 'kruise-system';
const MANAGER = `/apis/apps/v1/namespaces/${NS}/deployments/kruise-controller-manager`;

const shared = realCluster('the Helm chart on a real kube-apiserver');
if (shared && !skipWithoutRealTool('the Helm chart on a real kube-apiserver', helmMissing())) {
  const work = mkdtempSync(join(tmpdir(), 'kruise-ts-helm-real-'));
  let cp: ControlPlane;
  beforeAll(async () => {
    // a bare control plane: no CRDs and no kruise namespaces until `helm install` creates them
    cp = await startControlPlane({ dir: join(work, 'control-plane') });
    rememberServer(cp.url, { token: cp.token, caCert: cp.caCert });
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
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  /** helm against this control plane, the release in kruise-system. */
  const helmHere = (args: string[]) => helm([...args, '--kubeconfig', cp.kubeconfigPath, '--namespace', NS]);
  const rendered = (name: string, extra: string[]) => {
    const r = helm(['template', 'kruise-ts', CHART, '--namespace', NS, ...extra]);
    expect(r.status, r.stderr).toBe(0);
    const file = join(work, `${name}.yaml`);
    writeFileSync(file, r.stdout);
    return file;
  };
  const crdNames = readdirSync(CRDS).map((f) => f.replace(/\.yaml$/, ''));
  const kruiseCrds = async () =>
    (await api(cp.url, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).body.items.filter(
      (c: any) => c.spec.group === 'apps.kruise.io',
    );
  const managerArgs = async (): Promise<string[]> =>
    (await api(cp.url, 'GET', MANAGER)).body.spec.template.spec.containers[0].args;

  /**
   * Release `revision` as Helm stored it: its Secret's `release` value is the base64 text of the
   * gzipped release JSON, and that text's length is what counts against the Secret's limit.
   */
  const storedRelease = async (revision: number) => {
    const r = await api(
      cp.url,
      'GET',
      `/api/v1/namespaces/${NS}/secrets/sh.helm.release.v1.kruise-ts.v${revision}`,
    );
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    const stored = Buffer.from(r.body.data.release, 'base64');
    const release = JSON.parse(gunzipSync(Buffer.from(stored.toString('latin1'), 'base64')).toString('utf8'));
    return { bytes: stored.length, status: r.body.metadata.labels.status as string, release };
  };
  /** The release is small because the CRDs are neither among the stored chart's files nor in its manifest. */
  const expectSmallRelease = async (revision: number) => {
    const { bytes, status, release } = await storedRelease(revision);
    expect(status).toBe('deployed');
    expect(bytes).toBeLessThan(RELEASE_BUDGET);
    const files: string[] = release.chart.files.map((f: { name: string }) => f.name);
    expect(files).toContain('files/operator/manager.yaml');
    expect(files.filter((f) => f.includes('crds'))).toEqual([]);
    expect(release.manifest).toContain('kind: Deployment');
    expect(release.manifest).not.toMatch(/^kind: CustomResourceDefinition$/m);
  };

  describe(`charts/kruise-ts against ${shared.version}`, () => {
    it('helm install creates the CRDs from crds/ and every template object, in a release Secret far under 1 MiB', async () => {
      // the README's install into kruise-system: helm creates the namespace, so the chart must not
      const r = helmHere([
        'install',
        'kruise-ts',
        CHART,
        '--create-namespace',
        '--set',
        'createNamespace=false',
      ]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('STATUS: deployed');
      // ... and the README's next step: keep the operator's own pods out of its pod webhooks
      const label = kubectl(['label', 'namespace', NS, 'control-plane=openkruise']);
      expect(label.stderr).toBe('');

      const crds = await kruiseCrds();
      expect(crds.map((c: any) => c.metadata.name).sort()).toEqual(crdNames.sort());
      for (const c of crds)
        expect(c.status.conditions.find((x: any) => x.type === 'Established')?.status, c.metadata.name).toBe(
          'True',
        );
      expect(await managerArgs()).toContain('--feature-gates=ImagePullJobGate=true');
      const daemon = await api(cp.url, 'GET', `/apis/apps/v1/namespaces/${NS}/daemonsets/kruise-daemon`);
      expect(daemon.status).toBe(200);
      for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
        const w = await api(cp.url, 'GET', `/apis/admissionregistration.k8s.io/v1/${kind}`);
        expect(
          w.body.items.some((x: any) => x.metadata.name.startsWith('kruise-')),
          kind,
        ).toBe(true);
      }
      await expectSmallRelease(1);
    });

    for (const [name, extra] of [
      ['default values', []],
      ['every value on (ci/all-on-values.yaml)', ['-f', join(CHART, 'ci/all-on-values.yaml')]],
    ] as const) {
      it(`${name}: a server-side dry run accepts every rendered object`, () => {
        // the installed release's namespaces exist, which a dry run cannot create for itself
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

    it('helm upgrade with new feature gates changes the manager arguments; the new release stays small', async () => {
      const r = helmHere([
        'upgrade',
        'kruise-ts',
        CHART,
        '--reuse-values',
        // --set splits on commas: the one inside the value is escaped, as the README says
        '--set',
        'featureGates=ImagePullJobGate=true\\,ResourcesDeletionProtection=true',
        '--set',
        'manager.log.level=debug',
      ]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('REVISION: 2');
      const args = await managerArgs();
      expect(args).toContain('--feature-gates=ImagePullJobGate=true,ResourcesDeletionProtection=true');
      expect(args).toContain('--log-level=debug');
      expect(args).not.toContain('--feature-gates=ImagePullJobGate=true');
      await expectSmallRelease(2);
      expect((await storedRelease(1)).status).toBe('superseded');
    });

    it('helm upgrade leaves crds/ alone; kubectl apply --server-side --force-conflicts upgrades the CRDs', async () => {
      // a newer CRD, played by a changed schema description of nodeimages
      const file = join(CRDS, 'nodeimages.apps.kruise.io.yaml');
      const [original] = parseObjects(readFileSync(file, 'utf8'), file);
      if (!original) throw new Error(`${file} holds no object`);
      const newer = structuredClone(original);
      newer.spec.versions[0].schema.openAPIV3Schema.description = 'a newer NodeImage (test)';
      const newerFile = join(work, 'nodeimages-newer.json');
      writeFileSync(newerFile, JSON.stringify(newer));
      const description = async () =>
        (
          await api(
            cp.url,
            'GET',
            '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/nodeimages.apps.kruise.io',
          )
        ).body.spec.versions[0].schema.openAPIV3Schema.description;

      // Helm created the CRDs (field manager "helm"), so the first apply of a change must take the
      // fields over: without --force-conflicts the server refuses
      const plain = kubectl(['apply', '--server-side', '-f', newerFile]);
      expect(plain.status).not.toBe(0);
      expect(plain.stderr).toContain('conflict with "helm"');
      const forced = kubectl(['apply', '--server-side', '--force-conflicts', '-f', newerFile]);
      expect(forced.stderr).toBe('');
      expect(await description()).toBe('a newer NodeImage (test)');

      // an upgrade does not put the chart's crds/ back (nor would it install a newer one)
      const upgrade = helmHere(['upgrade', 'kruise-ts', CHART, '--reuse-values']);
      expect(upgrade.status, upgrade.stderr).toBe(0);
      expect(await description()).toBe('a newer NodeImage (test)');

      // the README's command brings every CRD to packages/operator/deploy/crds
      const readme = kubectl(['apply', '--server-side', '--force-conflicts', '-f', CRDS]);
      expect(readme.stderr).toBe('');
      expect(readme.stdout.trim().split('\n')).toHaveLength(crdNames.length);
      expect(await description()).toBe(original.spec.versions[0].schema.openAPIV3Schema.description);
    });

    it('helm uninstall (hooks off) removes the release and its objects and keeps the CRDs', async () => {
      // --no-hooks: the pre-delete hook is a Job, and with no Job controller (nor kubelet) here it
      // would never run to completion, so helm would wait for it until its timeout and fail;
      // the uninstall check itself is exercised with the operator in protection.test.ts
      const r = helmHere(['uninstall', 'kruise-ts', '--no-hooks']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('release "kruise-ts" uninstalled');
      const secrets = await api(cp.url, 'GET', `/api/v1/namespaces/${NS}/secrets?labelSelector=owner%3Dhelm`);
      expect(secrets.body.items).toEqual([]);
      expect((await api(cp.url, 'GET', MANAGER)).status).toBe(404);
      const hook = await api(cp.url, 'GET', `/apis/batch/v1/namespaces/${NS}/jobs/kruise-ts-finalizer`);
      expect(hook.status).toBe(404);
      // Helm never deletes a crds/ folder's CRDs: deleting them would delete every kruise object
      expect((await kruiseCrds()).map((c: any) => c.metadata.name).sort()).toEqual(crdNames.sort());
    });
  });
}
