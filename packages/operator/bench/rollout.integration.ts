// Benchmark: API writes per pod for a full in-place rollout of a CloneSet that the operator runs
// against `kruise-ts serve`, and the time to converge. Not part of `pnpm test`; run it with
//   OPERATOR_BENCH=<replicas> npx vitest run --config packages/operator/bench/vitest.config.ts
// (1,000 replicas when OPERATOR_BENCH is unset). Results go to stdout and to
// /tmp/kruise-ts-operator-bench.json.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  api,
  CS_PATH,
  isReady,
  podsOf,
  sampleCloneSet,
  startCluster,
  startOperator,
  waitFor,
} from '../test/helpers/cluster';

const N = Number(process.env.OPERATOR_BENCH ?? 1000);

describe('benchmark: full in-place rollout', () => {
  it(`rolls ${N} pods in place and reports API writes per pod and time to converge`, async () => {
    // The default cluster has 3 nodes × 110 pods = 330 pod slots; size it so every pod schedules.
    const server = await startCluster(20, Math.max(3, Math.ceil(N / 100)));
    const op = await startOperator(server.kubeconfigPath, 'bench', {
      events: false,
      writeConcurrency: 32,
      controllers: ['cloneset'], // only the CloneSet's writes are counted
    });
    const progress: unknown[] = [];
    const status = async () => (await api(server.url, 'GET', `${CS_PATH}/big`)).body;
    try {
      const base = server.url;
      const cs = sampleCloneSet('big') as { spec: Record<string, unknown> };
      cs.spec = {
        ...cs.spec,
        replicas: N,
        updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '20%' },
      };
      expect((await api(base, 'POST', CS_PATH, cs)).status).toBe(201);
      const tc = Date.now();
      await waitFor(async () => (await status()).status?.readyReplicas === N, 900_000, 'all ready');
      const scaleUpSeconds = (Date.now() - tc) / 1000;
      const w0 = await op.metrics.writes();
      const t0 = Date.now();
      const patch = {
        spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      };
      await api(base, 'PATCH', `${CS_PATH}/big`, patch, 'application/merge-patch+json');
      await waitFor(
        async () => {
          const c = await status();
          progress.push({ t: (Date.now() - t0) / 1000, ...c.status });
          const s = c.status;
          return (
            s?.observedGeneration === c.metadata.generation &&
            s?.updatedReadyReplicas === N &&
            s?.readyReplicas === N
          );
        },
        1_500_000,
        'rollout converged',
      );
      const convergeSeconds = (Date.now() - t0) / 1000;
      const writes = (await op.metrics.writes()) - w0;
      const pods = await podsOf(base, 'big');
      expect(pods.filter((p) => p.spec.containers[0].image === 'nginx:1.27' && isReady(p))).toHaveLength(N);
      const result = {
        replicas: N,
        scaleUpSeconds,
        writes,
        writesPerPod: writes / N,
        convergeSeconds,
        runner: op.runners.find((r) => r.controller.name === 'cloneset-controller')?.stats,
      };
      writeFileSync('/tmp/kruise-ts-operator-bench.json', JSON.stringify(result, null, 2));
      console.log(`BENCH ${JSON.stringify(result)}`);
    } finally {
      writeFileSync('/tmp/kruise-ts-operator-bench-progress.json', JSON.stringify(progress.slice(-20)));
      await op.stop();
      await server.close();
    }
  }, 3_000_000);
});
