// Deletion protection and the uninstall check on a real kube-apiserver: with the
// ResourcesDeletionProtection gate on, the operator's validating webhook refuses to delete a
// namespace labelled Always (403 with the webhook's message, as the real API server words a
// denial); deploy/uninstall-check.sh, run with the real kubectl, refuses while a CloneSet exists
// and passes once none is left.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kubectlPath } from '../../../scripts/real-cluster/controlPlane.mjs';
import { realCluster, useRealTest } from './helpers/harness';
import { api, waitFor } from './helpers/rest';

const rc = realCluster('deletion protection and the uninstall check on a real kube-apiserver');
if (rc) {
  const t = useRealTest(rc);
  const base = rc.url;

  describe(`deletion protection against ${rc.version}`, () => {
    it('a namespace labelled delete-protection=Always cannot be deleted; an unlabelled one can', async () => {
      await t.operator('replica-a', { featureGates: { ResourcesDeletionProtection: true } });
      const keep = await t.namespace('keep');
      expect(
        (
          await api(
            base,
            'PATCH',
            `/api/v1/namespaces/${keep}`,
            { metadata: { labels: { 'policy.kruise.io/delete-protection': 'Always' } } },
            'application/merge-patch+json',
          )
        ).status,
      ).toBe(200);
      const del = await waitFor(
        async () => {
          const r = await api(base, 'DELETE', `/api/v1/namespaces/${keep}`);
          return r.status === 403 ? r : undefined;
        },
        20_000,
        'the webhook to deny',
      );
      expect(del.body.message).toBe(
        'admission webhook "vnamespace.kb.io" denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always',
      );
      expect((await api(base, 'GET', `/api/v1/namespaces/${keep}`)).body.status.phase).toBe('Active');
      const scratch = await t.namespace('scratch');
      const ok = await api(base, 'DELETE', `/api/v1/namespaces/${scratch}`);
      expect(ok.status).toBe(200);
      // no namespace controller runs here, so the namespace stays Terminating instead of going away
      expect(ok.body.status.phase).toBe('Terminating');
    });
  });

  describe(`deploy/uninstall-check.sh against ${rc.version}`, () => {
    const script = join(dirname(fileURLToPath(import.meta.url)), '../deploy/uninstall-check.sh');
    const run = () => {
      // the script calls `kubectl`: a PATH folder whose kubectl is the one matching the server
      const bin = mkdtempSync(join(tmpdir(), 'kruise-ts-kubectl-'));
      writeFileSync(
        join(bin, 'kubectl'),
        `#!/bin/sh\nexec "${kubectlPath()}" --cache-dir "${bin}/cache" "$@"\n`,
        {
          mode: 0o755,
        },
      );
      return spawnSync('sh', [script], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, KUBECONFIG: rc.kubeconfig },
      });
    };

    it('refuses while a CloneSet exists anywhere and passes once none is left', async () => {
      expect(readFileSync(script, 'utf8')).toContain('kubectl get');
      // the operator runs, as it does when a user uninstalls: its validating webhooks (failurePolicy
      // Fail) would otherwise refuse the deletes below
      await t.operator();
      const ns = await t.namespace('uninstall');
      const csPath = `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/clonesets`;
      // whatever earlier tests left behind is deleted first; the deletes pass the operator's
      // webhooks, which may still point at a stopped replica until this one has re-pointed them.
      // UnitedDeployments go too, and first: one left by its own test would recreate its subset
      // CloneSets as fast as they are deleted here.
      const leftovers = async () => {
        const found: string[] = [];
        for (const [version, plural] of [
          ['v1alpha1', 'uniteddeployments'],
          ['v1alpha1', 'clonesets'],
          ['v1alpha1', 'daemonsets'],
          ['v1beta1', 'statefulsets'],
        ])
          for (const o of (await api(base, 'GET', `/apis/apps.kruise.io/${version}/${plural}`)).body.items ??
            [])
            found.push(
              `/apis/apps.kruise.io/${version}/namespaces/${o.metadata.namespace}/${plural}/${o.metadata.name}`,
            );
        return found;
      };
      await waitFor(
        async () => {
          const found = await leftovers();
          for (const path of found) await api(base, 'DELETE', path);
          return found.length === 0;
        },
        30_000,
        'no workload left from earlier tests',
        async () => (await leftovers()).join('\n'),
      );
      await api(base, 'POST', csPath, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'left' },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: 'left' } },
          template: {
            metadata: { labels: { app: 'left' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      });
      const refused = run();
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('there still exists some clonesets in the cluster');
      await api(base, 'DELETE', `${csPath}/left`);
      await waitFor(
        async () =>
          ((await api(base, 'GET', '/apis/apps.kruise.io/v1alpha1/clonesets')).body.items ?? []).length === 0,
        20_000,
        'no CloneSet left',
      );
      const diagnose = () =>
        ['statefulsets.v1alpha1.apps.kruise.io', 'statefulsets.v1beta1.apps.kruise.io']
          .map((r) => {
            const k = spawnSync(
              kubectlPath(),
              ['--kubeconfig', rc.kubeconfig, 'get', r, '-A', '-o', 'name'],
              {
                encoding: 'utf8',
              },
            );
            return `${r}: ${k.stdout}${k.stderr}`;
          })
          .join('\n');
      // deletes take effect in the server's watch cache a moment later: the check is re-run until clean
      const passed = await waitFor(
        async () => {
          const r = run();
          return r.status === 0 ? r : undefined;
        },
        20_000,
        'the uninstall check to pass',
        async () => diagnose(),
      );
      expect(passed.stderr).toBe('');
      expect(passed.stdout.trim()).toBe('cluster is clean, ready to delete kruise');
      expect(passed.status).toBe(0);
    });
  });
}
