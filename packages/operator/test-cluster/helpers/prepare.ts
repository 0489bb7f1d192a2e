// Makes a fresh control plane look like a cluster with kruise-ts's manifests applied: the CRDs
// (with the real kubectl), the kruise-system namespace, the operator's RBAC and the shipped webhook
// configurations from deploy/, and a kubeconfig holding a token of the kruise-manager
// ServiceAccount, so the operator runs with exactly the permissions a real install grants it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installCrds, kubeconfigText, repoRoot } from '../../../../scripts/real-cluster/controlPlane.mjs';
import { applyManifests, type ClusterAccess, requestJson } from './manifests';

/** Prepares the cluster behind `access` and returns the operator's kubeconfig path (in `dir`). */
export async function prepareCluster(
  access: ClusterAccess,
  kubeconfigPath: string,
  dir: string,
): Promise<string> {
  installCrds(kubeconfigPath, join(dir, 'kubectl-cache'));
  const deploy = join(repoRoot, 'packages/operator/deploy');
  await applyManifests(
    access,
    ['namespace.yaml', 'rbac.yaml', 'rbac-secrets.yaml', 'webhooks.yaml'].map((f) =>
      readFileSync(join(deploy, f), 'utf8'),
    ),
  );
  const r = await requestJson(
    access,
    'POST',
    '/api/v1/namespaces/kruise-system/serviceaccounts/kruise-manager/token',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 7200 },
    },
  );
  if (r.status !== 201)
    throw new Error(`TokenRequest for kruise-manager: ${r.status} ${JSON.stringify(r.body)}`);
  const path = join(dir, 'operator.kubeconfig');
  writeFileSync(path, kubeconfigText(access.url, r.body.status.token, access.caCert, 'kruise-manager'), {
    mode: 0o600,
  });
  return path;
}
