// What a forecast's run says, read off the simulation once it ended: the availability floor (the
// fewest available pods against desired from the change on, and when), the batches (the pods the
// controller created, updated in place or deleted at the same moment), and where the rollout
// stopped and why: the partition keeping pods on the old revision (by design), a paused update,
// pods no node can take (the scheduler's message), the maxUnavailable budget used up by pods that
// are not ready (new ones that never become ready, or old ones that were not ready to begin
// with), a PodUnavailableBudget the simulator does not model, or simply no progress.
import type { KubeObject } from '@kruise-ts/api';
import { displayName } from '@kruise-ts/cluster';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { type BudgetKind, workloadBudget } from '../invariantBudgets';
import { sidecarSetMaxUnavailable } from '../invariantSidecarSet';
import type { Simulation } from '../simulation';

/** A pod write of the rollout, for the batches. */
export interface PodWrite {
  /** ms after the change. */
  t: number;
  pod: string;
  action: 'created' | 'updated in place' | 'deleted';
}

/** Pods the controller acted on at one moment. */
export interface ForecastBatch {
  /** ms after the change. */
  atMs: number;
  action: PodWrite['action'];
  pods: string[];
}

/** Where and why a rollout stops. */
export interface ForecastStall {
  reason: 'partition' | 'paused' | 'unschedulable' | 'budget' | 'podUnavailableBudget' | 'noProgress';
  message: string;
  pods?: string[];
}

type J = Record<string, any>;

const ready = (p: KubeObject) =>
  ((p.status as Pod['status'])?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Batches from the recorded pod writes: one per moment and action, pods sorted. */
export function batchesOf(writes: readonly PodWrite[]): ForecastBatch[] {
  const out: ForecastBatch[] = [];
  for (const w of writes) {
    const last = out.find((b) => b.atMs === w.t && b.action === w.action);
    if (last) {
      if (!last.pods.includes(w.pod)) last.pods.push(w.pod);
    } else out.push({ atMs: w.t, action: w.action, pods: [w.pod] });
  }
  for (const b of out) b.pods.sort();
  return out;
}

/** Floor, batches and stalls of a finished forecast run. */
export function analyzeForecast(
  sim: Simulation,
  w: KubeObject | undefined,
  t0: number,
  writes: readonly PodWrite[],
  completed: boolean,
  oldRevision: string | undefined,
): {
  floor?: { available: number; desired: number; atMs: number };
  batches: ForecastBatch[];
  stalls: ForecastStall[];
} {
  const batches = batchesOf(writes);
  if (!w) return { batches, stalls: [{ reason: 'noProgress', message: 'the workload was deleted' }] };
  // The floor, from the sample in effect at the change on.
  const tl = sim.timeline.workloads.get(displayName(w));
  let floor: { available: number; desired: number; atMs: number } | undefined;
  const samples = tl?.samples ?? [];
  const startIdx = Math.max(
    0,
    samples.findLastIndex((s) => s.t * 1000 <= t0),
  );
  for (const s of samples.slice(startIdx)) {
    const atMs = Math.max(0, s.t * 1000 - t0);
    const ratio = s.available / Math.max(1, s.desired);
    if (!floor || ratio < floor.available / Math.max(1, floor.desired))
      floor = { available: s.available, desired: s.desired, atMs };
  }
  const stalls: ForecastStall[] = [];
  const spec = (w.spec ?? {}) as J;
  const pods = sim.store.list('v1', 'Pod').filter((p) => belongs(sim, p, w));
  const kind = w.kind;
  const strategy =
    kind === 'CloneSet' || kind === 'SidecarSet' ? spec.updateStrategy : spec.updateStrategy?.rollingUpdate;
  const partition = strategy?.partition;
  if (partition !== undefined && partition !== 0 && partition !== '0%') {
    const old = oldRevision
      ? pods.filter(
          (p) => p.metadata.labels?.['controller-revision-hash'] !== (w.status as J)?.updateRevision,
        )
      : [];
    stalls.push({
      reason: 'partition',
      message: `the partition ${partition} keeps ${old.length || 'some'} pod(s) on the old revision (by design; lower it to go on)`,
      pods: old.map((p) => p.metadata.name ?? ''),
    });
  }
  if (completed) return { floor, batches, stalls };
  if (strategy?.paused) stalls.push({ reason: 'paused', message: 'the update strategy is paused' });
  const pending = pods.filter(
    (p) =>
      !(p.spec as J)?.nodeName &&
      !p.metadata.deletionTimestamp &&
      ((p.status as Pod['status'])?.conditions ?? []).some(
        (c) => c.type === 'PodScheduled' && c.status === 'False',
      ),
  );
  if (pending.length) {
    const why = ((pending[0].status as Pod['status'])?.conditions ?? []).find(
      (c) => c.type === 'PodScheduled',
    )?.message;
    stalls.push({
      reason: 'unschedulable',
      message: `${pending.length} pod(s) cannot be scheduled${why ? `: ${why}` : ''}`,
      pods: pending.map((p) => p.metadata.name ?? ''),
    });
  }
  const notReady = pods.filter((p) => !p.metadata.deletionTimestamp && (p.spec as J)?.nodeName && !ready(p));
  const budget =
    kind === 'SidecarSet'
      ? sidecarSetMaxUnavailable(w, (w.status as J)?.matchedPods ?? pods.length)
      : kind === 'UnitedDeployment'
        ? undefined
        : workloadBudget(kind as BudgetKind, w).maxUnavailable;
  if (budget !== undefined && notReady.length >= Math.max(1, budget)) {
    const rev = (w.status as J)?.updateRevision ?? (w.status as J)?.daemonSetHash;
    const fresh = notReady.filter(
      (p) => rev && p.metadata.labels?.['controller-revision-hash'] === rev,
    ).length;
    stalls.push({
      reason: 'budget',
      message: `maxUnavailable ${budget} is used up by ${notReady.length} pod(s) that are not ready (${fresh} on the new revision, ${notReady.length - fresh} on an old one): the controller waits for them`,
      pods: notReady.map((p) => p.metadata.name ?? ''),
    });
  }
  const pubs = sim.store.list('apps.kruise.io/v1alpha1', 'PodUnavailableBudget');
  if (pubs.length)
    stalls.push({
      reason: 'podUnavailableBudget',
      message: `PodUnavailableBudget ${pubs.map((p) => p.metadata.name).join(', ')} may hold pods back on a cluster; the simulator does not model its admission`,
    });
  if (stalls.filter((s) => s.reason !== 'partition').length === 0)
    stalls.push({ reason: 'noProgress', message: 'the rollout made no progress before the time limit' });
  return { floor, batches, stalls };
}

/** True when a pod belongs to the workload: owned by it (through up to two owners: a UnitedDeployment's subsets) or, for a SidecarSet, injected by it. */
export function belongs(sim: Simulation, pod: KubeObject, w: KubeObject | undefined): boolean {
  if (!w?.metadata.uid) return false;
  if (w.kind === 'SidecarSet')
    return (pod.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '').includes(`"${w.metadata.name}"`);
  const uid = w.metadata.uid;
  let refs = pod.metadata.ownerReferences ?? [];
  for (let d = 0; d < 3 && refs.length; d++) {
    if (refs.some((r) => r.uid === uid)) return true;
    refs = refs.flatMap(
      (r) =>
        sim.store.list(r.apiVersion, r.kind, pod.metadata.namespace).find((o) => o.metadata.uid === r.uid)
          ?.metadata.ownerReferences ?? [],
    );
  }
  return false;
}
