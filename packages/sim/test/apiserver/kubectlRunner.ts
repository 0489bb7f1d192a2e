// Runs the real kubectl (/usr/bin/kubectl) against a test server: each runner has its own HOME,
// so its discovery cache (HOME/.kube/cache) is its own and never sees another suite's server, and
// stdin is closed so a credential prompt reads end-of-file instead of hanging.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';

/** Where the real kubectl is. */
export const KUBECTL = '/usr/bin/kubectl';

/** Whether a suite that needs kubectl is skipped here (fails instead under CI=true). */
export const skipWithoutKubectl = (suite: string): boolean =>
  skipWithoutRealTool(suite, missingFile(KUBECTL, existsSync));

/** One kubectl run's outcome. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A kubectl bound to a kubeconfig and a fresh HOME under `dir`. */
export function kubectlFor(kubeconfig: string, dir: string): (...args: string[]) => Promise<KubectlResult> {
  const home = mkdtempSync(join(dir, 'home-'));
  const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig };
  return (...args) =>
    new Promise((resolve) => {
      const child = execFile(KUBECTL, args, { env, timeout: 30_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
      child.stdin?.end();
    });
}
