#!/usr/bin/env node
// Command line for the real control plane (./controlPlane.mjs):
//   node scripts/real-cluster/run.mjs build          build (or reuse) kube-apiserver and etcd
//   node scripts/real-cluster/run.mjs up [--dir D]   start them in the background, install the CRDs,
//                                                   print the kubeconfig path (default D: a temp folder)
//   node scripts/real-cluster/run.mjs down --dir D   stop what `up` started in D
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildControlPlane, installCrds, kubernetesVersion, startControlPlane } from './controlPlane.mjs';

const [command, ...rest] = process.argv.slice(2);
const dirFlag = rest.indexOf('--dir');
const dirArg = dirFlag >= 0 ? rest[dirFlag + 1] : undefined;
const log = (m) => console.error(`[real-cluster] ${m}`);

async function main() {
  switch (command) {
    case 'build': {
      const t0 = Date.now();
      const bins = buildControlPlane({ log });
      log(
        `kubernetes ${kubernetesVersion()}: ${bins.apiserver}, ${bins.etcd} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
      return 0;
    }
    case 'up': {
      const dir = dirArg ?? mkdtempSync(join(tmpdir(), 'kruise-ts-real-'));
      const cp = await startControlPlane({ dir, detached: true, log });
      writeFileSync(join(dir, 'pids.json'), JSON.stringify(cp.pids));
      installCrds(cp.kubeconfigPath, join(dir, 'kubectl-cache'));
      log(`${cp.version} ready at ${cp.url}; stop with: node scripts/real-cluster/run.mjs down --dir ${dir}`);
      console.log(cp.kubeconfigPath);
      return 0;
    }
    case 'down': {
      if (!dirArg || !existsSync(join(dirArg, 'pids.json'))) {
        log('down needs --dir D, the folder `up` printed');
        return 2;
      }
      for (const pid of JSON.parse(readFileSync(join(dirArg, 'pids.json'), 'utf8'))) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      log(`stopped the control plane in ${dirArg}`);
      return 0;
    }
    default:
      log('usage: run.mjs build | up [--dir D] | down --dir D');
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    log(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
