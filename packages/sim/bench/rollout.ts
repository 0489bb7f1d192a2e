// Benchmark (a script, not a timed test): a CloneSet of N pods on M nodes from
// creation through a full in-place rollout (maxUnavailable 20%). Prints the
// simulated time, the wall time, their ratio and the memory used.
//   npx tsx --conditions=@kruise-ts/source packages/sim/bench/rollout.ts [pods...]
import { type ControllerRegistration, ControllerRegistry, defaultRegistry } from '../src/controllers';
import { runScenario } from '../src/scenario/run';
import { formatDuration } from '../src/time';

/** The default controllers, timed: how much of the wall time is the controllers' own reconciles. */
let reconcileMs = 0;
const timedReconcile =
  (reconcile: ControllerRegistration['reconcile']): ControllerRegistration['reconcile'] =>
  (...args) => {
    const t = performance.now();
    try {
      return reconcile(...args);
    } finally {
      reconcileMs += performance.now() - t;
    }
  };
const timed = new ControllerRegistry();
for (const reg of defaultRegistry.all()) {
  const make = reg.makeReconcile;
  timed.register({
    ...reg,
    reconcile: timedReconcile(reg.reconcile),
    ...(make ? { makeReconcile: () => timedReconcile(make()) } : {}),
  });
}

function scenario(pods: number, nodes: number): Record<string, unknown> {
  return {
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
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
for (const pods of sizes.length ? sizes : [1000, 10000]) {
  const nodes = 100;
  const before = process.memoryUsage().rss;
  reconcileMs = 0;
  const t0 = performance.now();
  const r = runScenario(scenario(pods, nodes), { logLevel: 'summary', registry: timed });
  const wall = performance.now() - t0;
  const mem = process.memoryUsage();
  const sim = r.sim!;
  const simMs = sim.nowMs;
  console.log(
    `${pods} pods / ${nodes} nodes: ${r.status}; simulated ${formatDuration(simMs)} in ${(wall / 1000).toFixed(2)} s wall ` +
      `(${Math.round(simMs / wall)}x real time); ${sim.stats.reconciles} reconciles taking ${(reconcileMs / 1000).toFixed(2)} s, ` +
      `simulator ${((wall - reconcileMs) / 1000).toFixed(2)} s; ${sim.stats.steps} steps, ` +
      `${sim.events.length} log records; rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB (+${((mem.rss - before) / 2 ** 20).toFixed(0)}), heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB` +
      (r.failure ? `; failure: ${r.failure}` : ''),
  );
}
