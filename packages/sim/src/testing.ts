// The testing kit: fast-check arbitraries of clusters, CloneSet workloads,
// timings and whole scenarios, so users can property-test their own rollout
// settings against the simulator:
//
//   fc.assert(fc.property(arbCloneSetScenario(), (doc) => {
//     const r = runScenario(doc);
//     return r.invariants.every((i) => i.violations.length === 0);
//   }));
import type { KubeObject } from '@kruise-ts/api';
import fc from 'fast-check';
import { SCENARIO_API_VERSION } from './scenario/types';

export * from './testing/mutations';

/** A node entry of a scenario's `cluster.nodes`. */
export interface ArbNode {
  name: string;
  capacity: { cpu: string; memory: string; pods: number };
  labels: Record<string, string>;
}

/**
 * Random nodes: 1–`maxNodes` nodes, `minCpu`–16 cpu (default 2), 4–64 Gi, 20–110 pods, spread
 * over zones a–c.
 */
export function arbNodes(maxNodes = 6, opts: { minCpu?: number } = {}): fc.Arbitrary<ArbNode[]> {
  return fc
    .array(
      fc.record({
        cpu: fc.integer({ min: opts.minCpu ?? 2, max: 16 }),
        memGi: fc.integer({ min: 4, max: 64 }),
        pods: fc.integer({ min: 20, max: 110 }),
      }),
      { minLength: 1, maxLength: maxNodes },
    )
    .map((ns) =>
      ns.map((n, i) => ({
        name: `node-${i + 1}`,
        capacity: { cpu: String(n.cpu), memory: `${n.memGi}Gi`, pods: n.pods },
        labels: { 'topology.kubernetes.io/zone': `zone-${'abc'[i % 3]}` },
      })),
    );
}

/** Scenario timings: pulls up to 20 s, starts up to 3 s, readiness up to 10 s, jitter up to 30 %. */
export function arbTimings(opts: { failures?: boolean } = {}): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    imagePull: fc.integer({ min: 0, max: 20 }).map((s) => `${s}s`),
    containerStart: fc.integer({ min: 0, max: 3 }).map((s) => `${s}s`),
    readinessDelay: fc.integer({ min: 0, max: 10 }).map((s) => `${s}s`),
    termination: fc.integer({ min: 0, max: 10 }).map((s) => `${s}s`),
    jitter: fc.constantFrom(0, 0.1, 0.3),
    crashProbability: opts.failures ? fc.constantFrom(0, 0.05, 0.2) : fc.constant(0),
    readinessFailureProbability: opts.failures ? fc.constantFrom(0, 0.05, 0.2) : fc.constant(0),
  });
}

/** The rollout settings of a CloneSet. */
export interface ArbRollout {
  replicas: number;
  type: 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly';
  partition: number | string;
  maxUnavailable: number | string;
  maxSurge: number | string;
  minReadySeconds: number;
  cpu: string;
}

/**
 * CloneSet rollout settings the validating webhook accepts: 0–`maxReplicas`
 * replicas, any update type, an integer or percent partition, maxUnavailable
 * at least 1 (integer or percent), maxSurge 0–2 (always 0 for InPlaceOnly).
 */
export function arbRollout(maxReplicas = 10): fc.Arbitrary<ArbRollout> {
  return fc
    .record({
      replicas: fc.integer({ min: 0, max: maxReplicas }),
      type: fc.constantFrom('ReCreate' as const, 'InPlaceIfPossible' as const, 'InPlaceOnly' as const),
      partition: fc.oneof(
        fc.integer({ min: 0, max: maxReplicas }),
        fc.constantFrom('0%', '20%', '50%', '100%'),
      ),
      maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom('20%', '50%', '100%')),
      maxSurge: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('0%', '25%')),
      minReadySeconds: fc.constantFrom(0, 0, 5),
      cpu: fc.constantFrom('100m', '250m', '500m'),
    })
    .map((r) => (r.type === 'InPlaceOnly' ? { ...r, maxSurge: 0 } : r));
}

/** A CloneSet manifest named `name` with the given settings and image. */
export function cloneSetManifest(name: string, r: ArbRollout, image: string): KubeObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas: r.replicas,
      minReadySeconds: r.minReadySeconds,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'main', image, resources: { requests: { cpu: r.cpu, memory: '64Mi' } } }],
        },
      },
      updateStrategy: {
        type: r.type,
        partition: r.partition,
        maxUnavailable: r.maxUnavailable,
        maxSurge: r.maxSurge,
      },
    },
  };
}

/** Extra disturbances a scenario may contain during the rollout. */
export type Disturbance = { scale: number } | { deletePod: true } | { crashPod: true } | { wait: number };

/** Random disturbances: scaling, pod deletion, crashes, waits. */
export function arbDisturbances(maxReplicas = 10): fc.Arbitrary<Disturbance[]> {
  return fc.array(
    fc.oneof(
      fc.integer({ min: 0, max: maxReplicas }).map((n) => ({ scale: n })),
      fc.constant({ deletePod: true as const }),
      fc.constant({ crashPod: true as const }),
      fc.integer({ min: 1, max: 60 }).map((s) => ({ wait: s })),
    ),
    { maxLength: 3 },
  );
}

/**
 * A whole scenario document (plain object, manifests inline) for `runScenario`:
 * a CloneSet `app` becomes available, its image changes, some disturbances
 * happen (scale, pod deletion, crash, wait), the partition is lifted, and the
 * rollout must complete. Every invariant is checked.
 */
export function arbCloneSetScenario(
  opts: { maxReplicas?: number; failures?: boolean } = {},
): fc.Arbitrary<Record<string, unknown>> {
  const maxReplicas = opts.maxReplicas ?? 8;
  return fc
    .record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      // At least 8 cpu per node: even one node fits replicas + surge pods of 500m each, so the rollout can complete.
      nodes: arbNodes(4, { minCpu: 8 }),
      timings: arbTimings({ failures: opts.failures }),
      rollout: arbRollout(maxReplicas),
      disturbances: arbDisturbances(maxReplicas),
    })
    .map(({ seed, nodes, timings, rollout, disturbances }) => {
      const steps: Record<string, unknown>[] = [
        { waitFor: { kind: 'CloneSet', name: 'app', condition: 'Available', timeout: '30m' } },
        { setImage: { kind: 'CloneSet', name: 'app', container: 'main', image: 'app:v2' } },
      ];
      for (const d of disturbances) {
        if ('scale' in d) steps.push({ scale: { kind: 'CloneSet', name: 'app', replicas: d.scale } });
        else if ('wait' in d) steps.push({ wait: `${d.wait}s` });
        else steps.push({ wait: '2s' });
      }
      steps.push({
        patch: { kind: 'CloneSet', name: 'app', patch: { spec: { updateStrategy: { partition: 0 } } } },
      });
      steps.push({ waitFor: { kind: 'CloneSet', name: 'app', condition: 'RolledOut', timeout: '60m' } });
      const failures = disturbances.flatMap((d, i) =>
        'deletePod' in d || 'crashPod' in d
          ? [
              {
                at: `${20 + i * 7}s`,
                ['crashPod' in d ? 'crash' : 'deletePod']: { selector: 'app=app', count: 1 },
              },
            ]
          : [],
      );
      return {
        apiVersion: SCENARIO_API_VERSION,
        kind: 'Scenario',
        metadata: { name: 'random-cloneset-rollout' },
        spec: {
          seed,
          maxDuration: '4h',
          cluster: { nodes, timings, failures },
          invariants: ['maxUnavailable', 'maxSurge', 'partition'],
          manifests: [cloneSetManifest('app', rollout, 'app:v1')],
          steps,
        },
      };
    });
}
