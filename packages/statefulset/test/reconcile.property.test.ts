// Properties of reconcileStatefulSet driven to convergence: a converged set gets a random change
// (replicas, reserveOrdinals, image, strategy, specified deletes), then reconcile + the
// @kruise-ts/cluster world (its kubelet readies and terminates pods on seeded, jittered timings,
// now and then crashes a container or fails its readiness, and the rounds come at random
// intervals) until stable.
// Each round is checked against the spec's per-round rules (stated with the spec's own
// exceptions), and the final state against convergence.
import type { IntOrString, StatefulSet } from '@kruise-ts/api';
import { type Action, checkPodUpdateCompleted, legacyValueFromIntOrPercent } from '@kruise-ts/core';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileStatefulSet } from '../src/reconcile';
import { makeSet, WORLD_TIMINGS, World } from './world';

interface Change {
  policy: 'OrderedReady' | 'Parallel';
  initialReplicas: number;
  initialReserve: number[];
  start: number;
  replicas: number;
  reserve: IntOrString[];
  imageChange: boolean;
  type: 'RollingUpdate' | 'OnDelete';
  partition: number;
  maxUnavailable: number;
  inPlace: boolean;
  unordered: boolean;
  scaleBudget: number | undefined;
  minReadySeconds: number;
  specifiedDelete: number[];
  whenScaled: 'Retain' | 'Delete';
  seed: number;
}

const arbFields = fc.record({
  policy: fc.constantFrom('OrderedReady' as const, 'Parallel' as const),
  initialReplicas: fc.integer({ min: 0, max: 4 }),
  initialReserve: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 2 }),
  start: fc.integer({ min: 0, max: 2 }),
  replicas: fc.integer({ min: 0, max: 5 }),
  reserveInts: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 3 }),
  reserveRange: fc.option(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 2 })), {
    nil: undefined,
  }),
  imageChange: fc.boolean(),
  type: fc.constantFrom('RollingUpdate' as const, 'RollingUpdate' as const, 'OnDelete' as const),
  partition: fc.integer({ min: 0, max: 4 }),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  inPlace: fc.boolean(),
  unordered: fc.boolean(),
  scaleBudget: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  minReadySeconds: fc.constantFrom(0, 0, 5),
  specifiedDelete: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 2 }),
  whenScaled: fc.constantFrom('Retain' as const, 'Delete' as const),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});
type Fields = typeof arbFields extends fc.Arbitrary<infer F> ? F : never;

function toChange(r: Fields): Change {
  const reserve: IntOrString[] = [...r.reserveInts];
  if (r.reserveRange) reserve.push(`${r.reserveRange[0]}-${r.reserveRange[0] + r.reserveRange[1]}`);
  const parallel = r.policy === 'Parallel';
  return {
    ...r,
    reserve,
    maxUnavailable: parallel ? r.maxUnavailable : 1,
    unordered: parallel && r.unordered,
    scaleBudget: parallel ? r.scaleBudget : undefined,
  };
}

/**
 * A Parallel rolling update of 3–4 running pods at the same replicas and a partition of 0–1:
 * more pods to update than maxUnavailable (1–2) lets down at once, the case the budget rule is
 * about, which the independent draws above rarely make.
 */
const rollout = (r: Fields): Fields => {
  const replicas = 3 + (r.initialReplicas % 2);
  return {
    ...r,
    policy: 'Parallel',
    initialReplicas: replicas,
    replicas,
    imageChange: true,
    type: 'RollingUpdate',
    partition: r.partition % 2,
    maxUnavailable: 1 + (r.maxUnavailable % 2),
  };
};

const arbChange: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: arbFields.map(toChange), weight: 4 },
  { arbitrary: arbFields.map((r) => toChange(rollout(r))), weight: 1 },
);

/** The desired ordinals, computed independently of the package (R3.3–R3.5). */
function desired(
  replicas: number,
  start: number,
  reserve: IntOrString[],
): { ordinals: number[]; reserved: Set<number> } {
  const reserved = new Set<number>();
  for (const r of reserve) {
    if (typeof r === 'number') reserved.add(r);
    else {
      const [a, b] = r.split('-').map(Number);
      for (let o = a; o <= b; o++) reserved.add(o);
    }
  }
  const ordinals: number[] = [];
  for (let o = start; ordinals.length < replicas; o++) if (!reserved.has(o)) ordinals.push(o);
  return { ordinals, reserved };
}

const ordOf = (p: { metadata?: { name?: string } }) => Number((p.metadata?.name ?? '').split('-').pop());
const rev = (p: Pod) => p.metadata?.labels?.['controller-revision-hash'];

function available(p: Pod, m: number, nowMs: number): boolean {
  const state = p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] ?? '';
  if (state !== '' && state !== 'Normal') return false;
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  if (p.status?.phase !== 'Running' || ready?.status !== 'True') return false;
  if (m === 0) return true;
  return !!ready.lastTransitionTime && Date.parse(ready.lastTransitionTime) + m * 1000 <= nowMs;
}

function buildSet(c: Change, initial: boolean): StatefulSet {
  return makeSet({
    replicas: initial ? c.initialReplicas : c.replicas,
    podManagementPolicy: c.policy,
    reserveOrdinals: initial ? c.initialReserve : c.reserve,
    ordinals: { start: c.start },
    volumeClaimTemplates: [
      { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } },
    ],
    persistentVolumeClaimRetentionPolicy: { whenScaled: c.whenScaled, whenDeleted: 'Retain' },
    ...(c.scaleBudget !== undefined ? { scaleStrategy: { maxUnavailable: c.scaleBudget } } : {}),
    updateStrategy: initial
      ? { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: c.maxUnavailable } }
      : c.type === 'OnDelete'
        ? { type: 'OnDelete' }
        : {
            type: 'RollingUpdate',
            rollingUpdate: {
              partition: c.partition,
              maxUnavailable: c.maxUnavailable,
              minReadySeconds: c.minReadySeconds,
              podUpdatePolicy: c.inPlace ? 'InPlaceIfPossible' : 'ReCreate',
              ...(c.unordered ? { unorderedUpdate: {} } : {}),
            },
          },
  });
}

interface Round {
  set: StatefulSet;
  before: Pod[];
  actions: Action[];
  nowMs: number;
  /** Reconciling the same observed state again gave the same result. */
  deterministic: boolean;
}

interface Trace {
  rounds: Round[];
  /** The run reached a state where nothing changes any more. */
  settled: boolean;
  initialRevision: string | undefined;
  set: StatefulSet;
  pods: Pod[];
  pvcs: { metadata?: { ownerReferences?: unknown[] } }[];
  nowMs: number;
  /** What a reconcile proposes at rest (events and status aside). */
  atRest: Action[];
}

const gates = { StatefulSetStartOrdinal: true };
/**
 * The world's timings with failures of its own: a started container crashes (restarting after
 * 10 s) or fails readiness for 20 s, each with probability 0.05. The per-round rules read what
 * the round observed, so a pod that failed counts as unavailable there, as the rules say.
 */
const FAILING_TIMINGS = {
  ...WORLD_TIMINGS,
  crashProbability: 0.05,
  crashWithinMs: 20_000,
  crashBackoffMs: 10_000,
  readinessFailureProbability: 0.05,
  readinessFailureMs: 20_000,
};
const traces = new Map<string, Trace>();

function mutating(actions: readonly Action[]): Action[] {
  return actions.filter((a) => a.verb !== 'event' && a.verb !== 'updateStatus');
}

/**
 * Converges the initial set, applies the change (and specified-delete labels), then runs
 * reconcile + the cluster at random intervals for 120 rounds, then at 10 s intervals until
 * three quiet rounds. Cached per change: every property below replays the same generated
 * values (same seed), so each run is simulated once.
 */
function simulate(c: Change): Trace {
  const key = JSON.stringify(c);
  const cached = traces.get(key);
  if (cached) return cached;
  const w = new World(buildSet(c, true), gates, c.seed, FAILING_TIMINGS);
  for (let i = 0; i < 60; i++) {
    w.reconcile();
    w.advance(10);
  }
  const initialRevision = w.set().status?.currentRevision;
  const next = buildSet(c, false);
  w.updateSpec(() => ({
    ...next.spec,
    template: c.imageChange
      ? {
          ...next.spec.template,
          spec: { ...next.spec.template.spec!, containers: [{ name: 'main', image: 'nginx:2' }] },
        }
      : next.spec.template,
  }));
  for (const o of c.specifiedDelete) {
    const p = w.pods().find((x) => ordOf(x) === o);
    if (p)
      w.writePod(p, {
        ...p,
        metadata: {
          ...p.metadata,
          labels: { ...p.metadata!.labels, 'apps.kruise.io/specified-delete': 'true' },
        },
      });
  }
  const rounds: Round[] = [];
  let quiet = 0;
  for (let i = 0; i < 400 && quiet < 3; i++) {
    const random = i < 120;
    const input = w.input();
    const before = w.pods();
    const set = w.set();
    const r = w.reconcile();
    const again = reconcileStatefulSet(input, { featureGates: gates });
    rounds.push({
      set,
      before,
      actions: r.actions,
      nowMs: w.nowMs,
      deterministic: JSON.stringify(again) === JSON.stringify(r),
    });
    const podsBefore = JSON.stringify(w.pods());
    // 0–6 s between rounds at first (a round may see a pod half-way to ready or terminating),
    // then 10 s, long enough for anything started to finish
    w.advance(random ? w.rng.int(7) : 10);
    quiet =
      !random && mutating(r.actions).length === 0 && JSON.stringify(w.pods()) === podsBefore ? quiet + 1 : 0;
  }
  const trace: Trace = {
    rounds,
    settled: quiet === 3,
    initialRevision,
    set: w.set(),
    pods: w.pods(),
    pvcs: w.pvcs(),
    nowMs: w.nowMs,
    atRest: mutating(reconcileStatefulSet(w.input(), { featureGates: gates }).actions),
  };
  traces.set(key, trace);
  return trace;
}

const podName = (a: Action): string | undefined =>
  a.verb === 'create'
    ? a.object.kind === 'Pod'
      ? a.object.metadata.name
      : undefined
    : 'target' in a && a.target.kind === 'Pod'
      ? a.target.name
      : undefined;
const reasonOf = (a: Action) => (a as { reason: string }).reason;
const createdOrdinals = (actions: Action[]) =>
  actions
    .filter((a) => a.verb === 'create' && a.object.kind === 'Pod')
    .map((a) => ordOf((a as { object: Pod }).object));
const minReady = (set: StatefulSet) => set.spec.updateStrategy?.rollingUpdate?.minReadySeconds ?? 0;
const desiredOf = (c: Change, set: StatefulSet) =>
  desired(set.spec.replicas ?? 1, c.start, set.spec.reserveOrdinals ?? []);

/** fast-check over the generated changes; the trace is simulated once per change. */
function forAllTraces(check: (c: Change, t: Trace) => void): void {
  fc.assert(
    fc.property(arbChange, (c) => check(c, simulate(c))),
    { numRuns: Number(process.env.FC_NUM_RUNS ?? 100) > 100 ? undefined : 60 },
  );
}

describe('reconcileStatefulSet properties (reconcile + a simulated cluster with random timings until stable)', () => {
  it('§14 OrderedReady creates at most one pod per round', () => {
    forAllTraces((c, t) => {
      if (c.policy !== 'OrderedReady') return;
      for (const r of t.rounds) expect(createdOrdinals(r.actions).length).toBeLessThanOrEqual(1);
    });
  });

  it('R7.4–R7.5 Parallel creation stops at the scaleStrategy.maxUnavailable budget (deletions are not limited, R7.2)', () => {
    forAllTraces((c, t) => {
      if (c.policy !== 'Parallel') return;
      for (const r of t.rounds) {
        const value = r.set.spec.scaleStrategy?.maxUnavailable;
        const creates = createdOrdinals(r.actions);
        if (value === undefined || creates.length === 0) continue;
        const budget = Math.max(legacyValueFromIntOrPercent(value, r.set.spec.replicas ?? 1, false), 1);
        // slots up to the highest created one that used budget: created now, terminating, or not available
        const top = Math.max(...creates);
        const byOrd = new Map(r.before.map((p) => [ordOf(p), p]));
        let used = 0;
        for (const o of desiredOf(c, r.set).ordinals) {
          if (o > top) break;
          const p = byOrd.get(o);
          if (
            creates.includes(o) ||
            !p?.status?.phase ||
            p.metadata?.deletionTimestamp ||
            !available(p, minReady(r.set), r.nowMs)
          )
            used++;
        }
        expect(used).toBeLessThanOrEqual(budget);
      }
    });
  });

  it('R8.4–R8.5, R10.1 healthy pods taken down for an update stay within maxUnavailable (already-unavailable and missing pods use the budget first; specified deletes of unavailable pods are free)', () => {
    forAllTraces((c, t) => {
      for (const r of t.rounds) {
        const ru = r.set.spec.updateStrategy?.rollingUpdate;
        if (r.set.spec.updateStrategy?.type !== 'RollingUpdate' || !ru) continue;
        const maxUnavailable = Math.max(
          legacyValueFromIntOrPercent(ru.maxUnavailable ?? 1, r.set.spec.replicas ?? 1, false),
          1,
        );
        const { ordinals } = desiredOf(c, r.set);
        const byOrd = new Map(r.before.map((p) => [ordOf(p), p]));
        const unavailable = new Set<number>();
        for (const o of ordinals) {
          const p = byOrd.get(o);
          const healthy = p && !p.metadata?.deletionTimestamp && available(p, 0, r.nowMs);
          if (
            !p ||
            !healthy ||
            !available(p, minReady(r.set), r.nowMs) ||
            !checkPodUpdateCompleted(p).completed
          )
            unavailable.add(o);
        }
        const takenDown = new Set<number>();
        for (const a of r.actions) {
          const name = podName(a);
          if (!name || a.verb === 'create') continue;
          if (
            !['RecreateUpdate', 'InPlaceUpdate', 'SpecifiedDelete', 'PreparingDelete'].includes(reasonOf(a))
          )
            continue;
          const o = ordOf({ metadata: { name } });
          if (ordinals.includes(o) && !unavailable.has(o)) takenDown.add(o);
        }
        if (takenDown.size > 0) expect(unavailable.size + takenDown.size).toBeLessThanOrEqual(maxUnavailable);
      }
    });
  });

  it("R9.1–R9.2 the partition's ordinals are never updated and keep an old revision (ordered updates)", () => {
    forAllTraces((c, t) => {
      for (const r of t.rounds) {
        const ru = r.set.spec.updateStrategy?.rollingUpdate;
        if (
          r.set.spec.updateStrategy?.type !== 'RollingUpdate' ||
          !ru ||
          ru.unorderedUpdate ||
          (ru.partition ?? 0) === 0
        )
          continue;
        const kept = new Set(desiredOf(c, r.set).ordinals.slice(0, ru.partition));
        for (const a of r.actions) {
          const name = podName(a);
          if (name && ['RecreateUpdate', 'InPlaceUpdate'].includes(reasonOf(a)))
            expect(kept.has(ordOf({ metadata: { name } }))).toBe(false);
        }
      }
      if (c.type !== 'RollingUpdate' || c.unordered || !t.settled) return;
      const status = t.set.status!;
      const byOrd = new Map(t.pods.map((p) => [ordOf(p), p]));
      // The initial revision, or the current revision the pod was created at (quirk: a round that
      // observes no created pods completes the rollout at once, R13.2).
      for (const o of desired(c.replicas, c.start, c.reserve).ordinals.slice(0, c.partition)) {
        expect([t.initialRevision, status.currentRevision]).toContain(rev(byOrd.get(o)!));
      }
    });
  });

  it('R3.6 reserved ordinals never hold a pod at rest', () => {
    forAllTraces((c, t) => {
      expect(t.settled).toBe(true);
      const { reserved } = desired(c.replicas, c.start, c.reserve);
      for (const p of t.pods) expect(reserved.has(ordOf(p))).toBe(false);
    });
  });

  it('convergence: exactly the desired ordinals, all available, at the update revision (partition and OnDelete aside)', () => {
    forAllTraces((c, t) => {
      expect(t.settled).toBe(true);
      const { ordinals } = desired(c.replicas, c.start, c.reserve);
      expect(t.pods.map(ordOf).sort((a, b) => a - b)).toEqual(ordinals);
      for (const p of t.pods) expect(available(p, 0, t.nowMs)).toBe(true);
      const status = t.set.status!;
      expect([status.replicas, status.readyReplicas]).toEqual([c.replicas, c.replicas]);
      const u = status.updateRevision;
      if (c.type === 'OnDelete') {
        // existing pods keep their revision; only new pods get the update revision (R6.9 rule 1)
        for (const p of t.pods) expect([t.initialRevision, u]).toContain(rev(p));
        return;
      }
      expect([t.initialRevision, u]).toContain(status.currentRevision);
      if (!c.unordered) {
        for (const o of ordinals.slice(c.partition)) expect(rev(t.pods.find((p) => ordOf(p) === o)!)).toBe(u);
      } else if (status.currentRevision !== u) {
        expect(t.pods.filter((p) => rev(p) === u).length).toBe(Math.max(0, c.replicas - c.partition));
      }
      if (c.partition === 0 || !c.imageChange) expect(status.currentRevision).toBe(u);
      // R12.2: with whenScaled Retain (and whenDeleted Retain) no claim carries an ownerReference
      if (c.whenScaled === 'Retain')
        for (const pvc of t.pvcs) expect(pvc.metadata?.ownerReferences ?? []).toEqual([]);
    });
  });

  it('idempotence: the same observed state always gives the same result, and at rest nothing is proposed', () => {
    forAllTraces((_c, t) => {
      for (const r of t.rounds) expect(r.deterministic).toBe(true);
      expect(t.settled).toBe(true);
      expect(t.atRest).toEqual([]);
    });
  });
});
