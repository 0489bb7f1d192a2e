// Benchmark of the simulator's API server: `kubectl get pods`
// against 10k simulated pods (target < 1.5 s), and a watch fan-out of 1,000
// events/s to 10 watchers without loss. A script, not a timed test:
//   npx tsx --conditions=@kruise-ts/source packages/sim/bench/apiserver.ts
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rfc3339 } from '@kruise-ts/cluster';
import { Simulation } from '../src';
import { startApiServer } from '../src/apiserver/index';
import { ControllerRegistry } from '../src/controllers';

const PODS = Number(process.env.PODS ?? 10_000);
const RATE = Number(process.env.RATE ?? 1000);
const WATCHERS = Number(process.env.WATCHERS ?? 10);
const SECONDS = Number(process.env.SECONDS ?? 3);

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; lines: number; code: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(cmd, args, { env, maxBuffer: 256 * 1024 * 1024 }, (err, stdout) => {
      resolve({ ms: performance.now() - t0, lines: stdout.split('\n').length - 1, code: err ? 1 : 0 });
    });
  });
}

async function main(): Promise<void> {
  const now = rfc3339(Date.now());
  const sim = new Simulation({ startTime: now, registry: new ControllerRegistry() });
  for (let i = 0; i < PODS; i++) {
    sim.store.load({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `pod-${i}`, namespace: 'default', labels: { app: 'bench' }, creationTimestamp: now },
      spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: 'bench-node' },
      status: {
        phase: 'Running',
        podIP: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          { name: 'c', ready: true, restartCount: 0, state: { running: { startedAt: now } } },
        ],
      },
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-bench-'));
  const server = await startApiServer({
    simulation: sim,
    port: 0,
    speed: 0,
    kubeconfigPath: join(dir, 'kubeconfig'),
    // plain HTTP without a token: the watch fan-out below uses fetch, which cannot trust a CA
    insecureNoAuth: true,
  });
  console.log(`server ${server.url} with ${PODS} pods`);

  if (existsSync('/usr/bin/kubectl')) {
    const home = join(dir, 'home');
    mkdirSync(home);
    const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: server.kubeconfigPath };
    for (const label of ['cold (discovery)', 'warm', 'warm']) {
      const r = await run('/usr/bin/kubectl', ['get', 'pods'], env);
      console.log(
        `kubectl get pods [${label}]: ${r.ms.toFixed(0)} ms, ${r.lines} lines, exit ${r.code} ${r.ms < 1500 ? 'OK' : 'SLOW (> 1.5 s)'}`,
      );
    }
  } else console.log('kubectl missing: skipping the kubectl benchmark');

  // Watch fan-out.
  const counts = new Array(WATCHERS).fill(0);
  const ctrls: AbortController[] = [];
  const list = (await (await fetch(`${server.url}/api/v1/namespaces/default/configmaps`)).json()) as {
    metadata: { resourceVersion: string };
  };
  const rv = list.metadata.resourceVersion;
  await Promise.all(
    counts.map(async (_, i) => {
      const ctrl = new AbortController();
      ctrls.push(ctrl);
      const r = await fetch(
        `${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`,
        { signal: ctrl.signal },
      );
      const reader = r.body!.getReader();
      void (async () => {
        const dec = new TextDecoder();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            for (const ch of dec.decode(value, { stream: true })) if (ch === '\n') counts[i]++;
          }
        } catch {
          // aborted
        }
      })();
    }),
  );
  const total = RATE * SECONDS;
  let written = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.round(((performance.now() - t0) / 1000) * RATE));
      while (written < due) {
        sim.store.create(
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${written}`, namespace: 'default' },
            data: { i: String(written) },
          },
          'bench',
        );
        written++;
      }
      if (written >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const deadline = Date.now() + 5000;
  while (counts.some((c) => c < total) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `watch fan-out: ${total} events at ${RATE}/s to ${WATCHERS} watchers in ${secs.toFixed(2)} s; received ${counts.join(', ')} ${counts.every((c) => c === total) ? 'OK (no loss)' : 'LOSS'}`,
  );
  for (const c of ctrls) c.abort();
  await server.close();
}

void main();
