// One benchmark part, run in its own process by run.mjs (so the peak memory is this rollout's):
// the simulator runs a CloneSet of N pods on 100 nodes from creation through a full in-place
// rollout (maxUnavailable 20%); prints one JSON object with the CPU time and the peak RSS.
//   node [--max-old-space-size=...] scripts/bench/rollout.mjs <pods>
import { writeFileSync } from 'node:fs';
import { dist } from './dist.mjs';

const { runScenario } = await dist('sim');
const pods = Number(process.argv[2] ?? 1000);
const nodes = 100;

const scenario = {
  apiVersion: 'sim.kruise-ts.io/v1alpha1',
  kind: 'Scenario',
  metadata: { name: `rollout-${pods}` },
  spec: {
    seed: 7,
    cluster: {
      nodes: [
        {
          namePrefix: 'node',
          count: nodes,
          capacity: { cpu: '64', memory: '256Gi', pods: Math.ceil((pods * 1.3) / nodes) + 10 },
        },
      ],
      timings: { imagePull: '5s', containerStart: '1s', readinessDelay: '2s' },
    },
    invariants: ['maxUnavailable', 'maxSurge', 'partition'],
    manifests: [
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'big', labels: { app: 'big' } },
        spec: {
          replicas: pods,
          selector: { matchLabels: { app: 'big' } },
          template: {
            metadata: { labels: { app: 'big' } },
            spec: { containers: [{ name: 'main', image: 'app:v1' }] },
          },
          updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '20%' },
        },
      },
    ],
    steps: [
      { waitFor: { kind: 'CloneSet', name: 'big', condition: 'Available', timeout: '1h' } },
      { setImage: { kind: 'CloneSet', name: 'big', container: 'main', image: 'app:v2' } },
      { waitFor: { kind: 'CloneSet', name: 'big', condition: 'RolledOut', timeout: '2h' } },
    ],
  },
};

const rssBefore = process.memoryUsage().rss;
const t0 = process.cpuUsage();
const w0 = performance.now();
// where the run has got to, written every few seconds when run.mjs asks (BENCH_PROGRESS names the
// file): a run stopped at the time limit still says how much CPU it had used and how far it got
const progressFile = process.env.BENCH_PROGRESS;
let lastWrite = 0;
const onTick = (sim) => {
  if (!progressFile || performance.now() - lastWrite < 5000) return;
  lastWrite = performance.now();
  const cpu = process.cpuUsage(t0);
  writeFileSync(
    progressFile,
    JSON.stringify({
      cpuMs: (cpu.user + cpu.system) / 1000,
      simulatedSeconds: sim.nowMs / 1000,
      rssMiB: process.memoryUsage().rss / 2 ** 20,
    }),
  );
};
const r = runScenario(scenario, { logLevel: 'summary', onTick });
const cpu = process.cpuUsage(t0);
const wallMs = performance.now() - w0;
if (r.status !== 'passed') throw new Error(`rollout of ${pods} pods: ${r.status} ${r.failure ?? ''}`);
const heapAfter = process.memoryUsage().heapUsed;
console.log(
  JSON.stringify({
    pods,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    startRssMiB: rssBefore / 2 ** 20,
    heapAfterMiB: heapAfter / 2 ** 20,
    logRecords: r.sim.events.length,
  }),
);
