// fast-check properties over random node sets (labels, taints) and DaemonSets, driven through
// reconcileDaemonSet and a simulated cluster (@kruise-ts/cluster: store, scheduler and a kubelet
// that readies pods on seeded, jittered timings and, in some runs, crashes containers or fails
// their readiness on its own). Each invariant is stated with the spec's own exceptions
// (docs/reference/daemonset.md §7.3 U4/§7.4 S3: old pods that are already unavailable are replaced
// regardless of the budget), which is where the kubelet's failures show up.
import type { DaemonSet, IntOrString } from '@kruise-ts/api';
import { isPodAvailable, scaledValueFromIntOrPercent } from '@kruise-ts/core';
import fc from 'fast-check';
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { getTargetNodeName, nodeShouldRunDaemonPod } from '../src';
import { makeDaemonSet, makeNode } from './helpers';
import { podActions, World } from './world';

type Mode =
  | { kind: 'standard'; maxUnavailable: IntOrString }
  | { kind: 'inplace'; maxUnavailable: IntOrString }
  | { kind: 'surge'; maxSurge: IntOrString };

interface Scenario {
  nodes: { id: number; pool: 'a' | 'b'; taints: Taint[] }[];
  nodeSelector: boolean;
  tolerateDedicated: boolean;
  mode: Mode;
  partition: number | null;
  selector: boolean;
  minReadySeconds: number;
  burst: number | null;
  seed: number;
  breakOld: boolean;
  addPool: number;
}

const taintArb = fc.constantFrom<Taint>(
  { key: 'dedicated', value: 'infra', effect: 'NoSchedule' },
  { key: 'evict', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
  { key: 'soft', effect: 'PreferNoSchedule' },
);
const budgetArb = fc.oneof(
  fc.integer({ min: 1, max: 3 }),
  fc.constantFrom<IntOrString>('25%', '50%', '100%'),
);
const modeArb: fc.Arbitrary<Mode> = fc.oneof(
  budgetArb.map((maxUnavailable) => ({ kind: 'standard' as const, maxUnavailable })),
  budgetArb.map((maxUnavailable) => ({ kind: 'inplace' as const, maxUnavailable })),
  budgetArb.map((maxSurge) => ({ kind: 'surge' as const, maxSurge })),
);
const scenarioArb = (addPool: boolean): fc.Arbitrary<Scenario> =>
  fc.record({
    nodes: fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 30 }),
        pool: fc.constantFrom<'a' | 'b'>('a', 'b'),
        taints: fc.oneof(
          { weight: 3, arbitrary: fc.constant<Taint[]>([]) },
          {
            weight: 1,
            arbitrary: fc.uniqueArray(taintArb, { maxLength: 2, selector: (t) => `${t.key}:${t.effect}` }),
          },
        ),
      }),
      { minLength: 1, maxLength: 12, selector: (n) => n.id },
    ),
    nodeSelector: fc.constantFrom(false, false, false, true),
    tolerateDedicated: fc.boolean(),
    mode: modeArb,
    partition: fc.option(fc.integer({ min: 0, max: 4 }), { freq: 2 }),
    selector: fc.constantFrom(false, false, false, true),
    minReadySeconds: fc.constantFrom(0, 15),
    burst: fc.option(fc.integer({ min: 1, max: 3 })),
    seed: fc.integer(),
    breakOld: fc.boolean(),
    addPool: addPool ? fc.integer({ min: 1, max: 4 }) : fc.constant(0),
  });

function buildDaemonSet(s: Scenario): DaemonSet {
  const rollingUpdate =
    s.mode.kind === 'surge'
      ? { maxSurge: s.mode.maxSurge, maxUnavailable: 0 }
      : { maxUnavailable: s.mode.maxUnavailable, maxSurge: 0 };
  const ds = makeDaemonSet({
    image: 'app:v1',
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        ...rollingUpdate,
        ...(s.mode.kind === 'inplace' ? { rollingUpdateType: 'InPlaceIfPossible' as const } : {}),
        ...(s.partition !== null ? { partition: s.partition } : {}),
        ...(s.selector ? { selector: { matchLabels: { pool: 'b' } } } : {}),
      },
    },
    minReadySeconds: s.minReadySeconds,
    ...(s.burst !== null ? { burstReplicas: s.burst } : {}),
    ...(s.nodeSelector ? { nodeSelector: { pool: 'a' } } : {}),
    ...(s.tolerateDedicated ? { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } : {}),
  });
  return ds;
}

const nodeName = (id: number) => `node-${id}`;
const isUpdated = (p: Pod, h: string) => p.metadata?.labels?.['controller-revision-hash'] === h;
const live = (pods: Pod[]) => pods.filter((p) => !p.metadata?.deletionTimestamp);

function podsByNode(pods: Pod[]): Map<string, Pod[]> {
  const m = new Map<string, Pod[]>();
  for (const p of live(pods)) {
    const n = getTargetNodeName(p) ?? '';
    m.set(n, [...(m.get(n) ?? []), p]);
  }
  return m;
}

function effectiveBudget(ds: DaemonSet, desired: number): { maxUnavailable: number; maxSurge: number } {
  const ru = ds.spec.updateStrategy?.rollingUpdate ?? {};
  let maxUnavailable = scaledValueFromIntOrPercent(ru.maxUnavailable ?? 0, desired, true);
  const maxSurge = scaledValueFromIntOrPercent(ru.maxSurge ?? 0, desired, true);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxUnavailable, maxSurge };
}

/** Runs a scenario: converge at v1, roll to v2, checking every invariant at every step. */
function runScenario(s: Scenario): void {
  const nodes: Node[] = s.nodes.map((n) => makeNode(nodeName(n.id), { pool: n.pool }, n.taints));
  const world = new World(buildDaemonSet(s), nodes, {
    failureProbability: s.breakOld ? 0.1 : 0,
    oldPodFailureProbability: s.breakOld ? 0.03 : 0,
    seed: s.seed,
  });

  // Phase 1: converge at v1 (every pod created and available).
  for (let i = 0; ; i++) {
    expect(i).toBeLessThan(60);
    const r = world.reconcile();
    expect(r.errors).toEqual([]);
    world.apply(r);
    world.advance(20_000);
    const allAvailable = live(world.pods).every((p) => isPodAvailable(p, s.minReadySeconds, world.now));
    if (podActions(r.actions).length === 0 && allAvailable) break;
  }

  // Phase 2: a new image.
  world.replaceDs((ds) => {
    const spec = structuredClone(ds.spec);
    spec.template.spec!.containers[0].image = 'app:v2';
    return { ...ds, metadata: { ...ds.metadata, generation: (ds.metadata.generation ?? 1) + 1 }, spec };
  });
  const minReady = s.minReadySeconds;
  const selector = s.selector;
  // Nodes where a new pod was created while the old ones there were unavailable (S3: the budget is
  // ignored); an old pod the kubelet failed may recover next to it, which is no surge beyond budget.
  const surgedForUnavailable = new Set<string>();
  let rest = false;
  for (let step = 0; step < 400; step++) {
    if (s.addPool > 0 && step === 4) {
      world.addNodes(
        Array.from({ length: s.addPool }, (_, i) => makeNode(`pool2-${i}`, { pool: i % 2 ? 'a' : 'b' })),
      );
    }
    const ds = world.ds;
    const desired = world.nodes.filter((n) => nodeShouldRunDaemonPod(n, ds).shouldRun);
    const desiredNames = new Set(desired.map((n) => n.metadata?.name ?? ''));
    const now = world.now;
    const before = live(world.pods);
    const r = world.reconcile();
    expect(world.reconcile()).toEqual(r); // idempotence: same observed state, same answer
    expect(r.errors).toEqual([]);
    const H = r.status.daemonSetHash as string;
    const budget = effectiveBudget(ds, desired.length);
    const available = (p: Pod) => isPodAvailable(p, minReady, now);

    // Available old pods the controller takes down stay within maxUnavailable (standard and
    // in-place), except old pods that were already unavailable (U4).
    if (s.mode.kind !== 'surge') {
      const beforeByName = new Map(before.map((p) => [p.metadata?.name, p]));
      const takenDown = new Set<string>();
      for (const a of r.actions) {
        const hit =
          (a.verb === 'delete' && a.target.kind === 'Pod') ||
          (a.verb === 'patch' && a.target.kind === 'Pod' && a.reason === 'InPlaceUpdate');
        if (!hit) continue;
        const p = beforeByName.get(a.target.name);
        if (p && !isUpdated(p, H) && available(p)) takenDown.add(a.target.name);
      }
      if (takenDown.size > 0) {
        const byNode = podsByNode(before);
        let unavailable = 0;
        for (const n of desiredNames) {
          const pods = byNode.get(n) ?? [];
          if (pods.some(available)) continue;
          if (pods.length > 0 && pods.every((p) => !isUpdated(p, H))) continue; // the U4 exception
          unavailable++;
        }
        expect(takenDown.size + unavailable).toBeLessThanOrEqual(budget.maxUnavailable);
      }
    }

    if (s.mode.kind === 'surge') {
      const byNode = podsByNode(before);
      for (const a of r.actions) {
        if (a.verb !== 'create' || a.object.kind !== 'Pod') continue;
        const n = getTargetNodeName(a.object as Pod) ?? '';
        const old = (byNode.get(n) ?? []).filter((p) => !isUpdated(p, H));
        if (old.length > 0 && !old.some(available)) surgedForUnavailable.add(n);
      }
    }

    world.apply(r);

    // Nodes outside `selector` or inside `partition` never update (static node sets).
    if (s.addPool === 0) {
      const updatedNodes = [...podsByNode(world.pods)].filter(([, pods]) =>
        pods.some((p) => isUpdated(p, H)),
      );
      expect(updatedNodes.length).toBeLessThanOrEqual(Math.max(0, desired.length - (s.partition ?? 0)));
      if (selector) {
        for (const [n] of updatedNodes)
          expect(world.nodes.find((x) => x.metadata?.name === n)?.metadata?.labels?.pool).toBe('b');
      }
    }

    world.advance(10_000);
    world.disturb(H);

    // Surge pods stay within maxSurge: nodes running a not-yet-available new pod next to an
    // available old one (old pods already unavailable are replaced regardless, S3).
    if (s.mode.kind === 'surge') {
      const nowAfter = world.now;
      let surging = 0;
      for (const [n, pods] of podsByNode(world.pods)) {
        if (!desiredNames.has(n) || surgedForUnavailable.has(n)) continue;
        const fresh = pods.some((p) => isUpdated(p, H) && !isPodAvailable(p, minReady, nowAfter));
        const oldUp = pods.some((p) => !isUpdated(p, H) && isPodAvailable(p, minReady, nowAfter));
        if (fresh && oldUp) surging++;
      }
      expect(surging).toBeLessThanOrEqual(budget.maxSurge);
    }

    const quiet = podActions(r.actions).length === 0;
    // An old pod the kubelet failed and the rollout leaves alone (partition, selector) may still
    // be recovering: the world's doing, not a rollout that has not converged.
    const settled = before.every(
      (p) => available(p) || (world.failed.has(p.metadata?.name ?? '') && !isUpdated(p, H)),
    );
    if (quiet && settled) {
      rest = true;
      break;
    }
  }
  // Convergence.
  expect(rest).toBe(true);

  // At rest: at most one pod per node, none where it must not run, one on every desired node.
  const ds = world.ds;
  const H = world.reconcile().status.daemonSetHash;
  const byNode = podsByNode(world.pods);
  for (const n of world.nodes) {
    const name = n.metadata?.name ?? '';
    const pods = byNode.get(name) ?? [];
    const sr = nodeShouldRunDaemonPod(n, ds);
    expect(pods.length).toBeLessThanOrEqual(1);
    if (!sr.shouldContinueRunning) expect(pods).toEqual([]);
    if (sr.shouldRun) expect(pods).toHaveLength(1);
  }
  expect([...byNode.keys()].every((n) => world.nodes.some((x) => x.metadata?.name === n))).toBe(true);
  // Every eligible node updated: N − partition nodes (only selected ones with a selector).
  if (s.addPool === 0) {
    const desired = world.nodes.filter((n) => nodeShouldRunDaemonPod(n, ds).shouldRun);
    const selected = desired.filter((n) => !selector || n.metadata?.labels?.pool === 'b').length;
    const expected = Math.min(Math.max(0, desired.length - (s.partition ?? 0)), selected);
    const updated = [...byNode.values()].filter((pods) => pods.some((p) => isUpdated(p, H))).length;
    expect(updated).toBe(expected);
  }
}

describe('rollout properties (reconcile + a simulated cluster with seeded readiness and failures)', () => {
  it('budgets, partition/selector, convergence, at-rest shape and idempotence on static node sets', () => {
    fc.assert(fc.property(scenarioArb(false), runScenario));
  });

  it('a node pool added mid-way: budgets, convergence and at-rest shape still hold', () => {
    fc.assert(fc.property(scenarioArb(true), runScenario));
  });
});
