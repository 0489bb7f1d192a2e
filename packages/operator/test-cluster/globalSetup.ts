// Starts the real control plane once for the suite: builds (or reuses) kube-apiserver and etcd,
// starts them and applies kruise-ts's manifests (helpers/prepare.ts). Tests read the result with `inject('realCluster')`. Without Go or openssl the suite
// reports why (and fails under CI=true, as every real-tool suite does).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  buildControlPlane,
  missingControlPlaneTools,
  startControlPlane,
} from '../../../scripts/real-cluster/controlPlane.mjs';
import { prepareCluster } from './helpers/prepare';

/** What the suite's tests get from `inject('realCluster')`. */
export interface RealCluster {
  /** Why the control plane is not available; the other fields are then empty. */
  missing?: string;
  url: string;
  token: string;
  caCert: string;
  /** Admin kubeconfig (system:masters). */
  kubeconfig: string;
  /** Kubeconfig of the operator's ServiceAccount kruise-system/kruise-manager (deploy/rbac.yaml). */
  operatorKubeconfig: string;
  /** The control plane's folder (logs, data). */
  dir: string;
  /** The server's gitVersion. */
  version: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    realCluster: RealCluster;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const empty = {
    url: '',
    token: '',
    caCert: '',
    kubeconfig: '',
    operatorKubeconfig: '',
    dir: '',
    version: '',
  };
  const missing = missingControlPlaneTools();
  if (missing) {
    project.provide('realCluster', { ...empty, missing });
    return async () => {};
  }
  const log = (m: string) => console.error(`[real-cluster] ${m}`);
  const t0 = Date.now();
  buildControlPlane({ log });
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-real-'));
  const cp = await startControlPlane({ dir, log });
  try {
    const ctx = { url: cp.url, token: cp.token, caCert: cp.caCert };
    const operatorKubeconfig = await prepareCluster(ctx, cp.kubeconfigPath, dir);
    log(`${cp.version} ready at ${cp.url} in ${((Date.now() - t0) / 1000).toFixed(1)} s (folder ${dir})`);
    project.provide('realCluster', {
      ...ctx,
      kubeconfig: cp.kubeconfigPath,
      operatorKubeconfig,
      dir,
      version: cp.version,
    });
  } catch (e) {
    await cp.stop();
    throw e;
  }
  return async () => {
    await cp.stop();
  };
}
