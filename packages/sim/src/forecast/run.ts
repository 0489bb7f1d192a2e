// Running a forecast: the saved cluster state is loaded as it is into a fresh simulation (nodes
// with their capacity, labels, taints and cached images; revisions, workloads and pods with their
// uids, owners, revisions and status), the kubelet model starts the containers of the pods that
// run (their images are on their nodes already), pods that were not ready stay not ready, pending
// pods wait for the scheduler. Once the pods that were ready are ready again (the warm-up, a few
// simulated seconds), the change is applied and the clock of the forecast starts: the rollout
// runs until the workload is rolled out (as far as its partition lets it), makes no progress for
// `stallAfterMs`, or reaches `maxDurationMs`. What happened is read off the timeline, the event
// log and the store (analysis.ts). Deterministic: the same state, change, options and seed give
// the same answer.
import type { KubeObject } from '@kruise-ts/api';
import type { Change, NodeConfig } from '@kruise-ts/cluster';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { INVARIANT_NAMES } from '../invariantTypes';
import { meetsCondition } from '../scenario/conditions';
import type { RunResult, StepResult } from '../scenario/run';
import { Simulation } from '../simulation';
import { analyzeForecast, belongs, type ForecastBatch, type ForecastStall, type PodWrite } from './analysis';
import { applyChange, type ForecastChange } from './change';
import type { LiveState } from './liveState';
import {
  DEFAULT_FORECAST_TIMINGS,
  describeTimings,
  type FailureMode,
  type ForecastTimings,
  simTimings,
} from './timing';

/** Options of a forecast. */
export interface ForecastOptions {
  seed?: number;
  timings?: Partial<ForecastTimings>;
  failure?: FailureMode;
  /** The longest rollout simulated (default 2 h). */
  maxDurationMs?: number;
  /** No progress for this long is a stall (default 10 min). */
  stallAfterMs?: number;
  /** Keep the full event log (for the report); default true. A sweep keeps only the summary. */
  fullLog?: boolean;
}

/** The answer of a forecast. */
export interface ForecastResult {
  target: string;
  change: string[];
  seed: number;
  timingModel: string;
  failure: FailureMode;
  errors: string[];
  /** Rolled out (as far as the partition lets it). */
  completed: boolean;
  /** From the change to rolled out (or to the end of the run when it did not complete). */
  durationMs: number;
  /** ms after the change of the last progress (the rollout's last visible change). */
  lastProgressMs: number;
  /** The fewest available pods (against desired) from the change on, and when (ms after it). */
  floor?: { available: number; desired: number; atMs: number };
  batches: ForecastBatch[];
  stalls: ForecastStall[];
  /** The state the forecast started from, in words. */
  start: string;
  /** Simulated ms at which the change was applied (after the warm-up). */
  changeAtMs: number;
  invariantsViolated: string[];
  /** The run, for the HTML report (steps: warm-up and the change). */
  run?: RunResult;
}

type J = Record<string, any>;

/** The NodeConfig of a saved Node: allocatable (or capacity), labels, taints, cached images. */
export function nodeConfigOf(node: KubeObject): NodeConfig {
  const st = (node.status ?? {}) as J;
  const spec = (node.spec ?? {}) as J;
  const res = st.allocatable ?? st.capacity ?? {};
  const capacity: Record<string, string> = {};
  for (const k of ['cpu', 'memory', 'pods']) if (res[k] !== undefined) capacity[k] = String(res[k]);
  const images = ((st.images ?? []) as J[])
    .flatMap((i) => (i.names ?? []) as string[])
    .filter((n) => !n.includes('@'))
    .map((n) => n.replace(/^docker\.io\/library\//, '').replace(/^docker\.io\//, ''));
  return {
    name: node.metadata.name ?? '',
    capacity: Object.keys(capacity).length ? capacity : undefined,
    labels: node.metadata.labels,
    taints: spec.taints,
    unschedulable: spec.unschedulable === true,
    images,
  };
}

const isReady = (p: KubeObject | undefined) =>
  ((p?.status as Pod['status'])?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The latest creationTimestamp of the state (the forecast's "now"), whole seconds. */
function latestTime(st: LiveState): string | undefined {
  let best = Number.NEGATIVE_INFINITY;
  for (const o of [...st.nodes, ...st.pods, ...st.workloads, ...st.revisions, ...st.others]) {
    const t = Date.parse(o.metadata.creationTimestamp ?? '');
    if (Number.isFinite(t) && t > best) best = t;
  }
  return Number.isFinite(best) ? `${new Date(best).toISOString().slice(0, 19)}Z` : undefined;
}

/** The revision a workload is rolling to (CloneSet/StatefulSet updateRevision, DaemonSet hash). */
export function updateRevisionOf(w: KubeObject | undefined): string | undefined {
  const s = (w?.status ?? {}) as J;
  return s.updateRevision ?? s.daemonSetHash;
}

/** Runs one forecast. Never throws on user data: problems come back in `errors`. */
export function runForecast(
  state: LiveState,
  targetLive: KubeObject,
  change: ForecastChange,
  opts: ForecastOptions = {},
): ForecastResult {
  const seed = opts.seed ?? 1;
  const timings: ForecastTimings = { ...DEFAULT_FORECAST_TIMINGS, ...(opts.timings ?? {}) };
  const failure = opts.failure ?? 'none';
  const target =
    `${targetLive.kind}/${targetLive.metadata.namespace ?? (targetLive.kind === 'SidecarSet' ? '' : 'default')}/${targetLive.metadata.name}`.replace(
      '//',
      '/',
    );
  const base: ForecastResult = {
    target,
    change: [],
    seed,
    timingModel: describeTimings(timings, failure),
    failure,
    errors: [],
    completed: false,
    durationMs: 0,
    lastProgressMs: 0,
    batches: [],
    stalls: [],
    start: '',
    changeAtMs: 0,
    invariantsViolated: [],
  };
  const changed = applyChange(targetLive, change);
  base.change = changed.description;
  if (!changed.object) return { ...base, errors: changed.errors };

  const sim = new Simulation({
    seed,
    startTime: latestTime(state),
    nodes: state.nodes.length ? state.nodes.map(nodeConfigOf) : undefined,
    timings: simTimings(timings),
    invariants: INVARIANT_NAMES.map((name) => ({ name })),
    logLevel: opts.fullLog === false ? 'summary' : 'all',
  });
  // Running pods have their images on their nodes already.
  for (const p of state.pods) {
    const node = (p.spec as J | undefined)?.nodeName;
    if (node)
      for (const c of ((p.spec as J).containers ?? []) as J[])
        if (c.image) sim.kubelet.images(node).add(c.image);
  }
  for (const o of [...state.others, ...state.revisions, ...state.workloads, ...state.pods]) sim.store.load(o);

  // Pods that were not ready stay not ready; the new revision fails as asked.
  const heldUnready = new Set(
    state.pods
      .filter((p) => (p.spec as J | undefined)?.nodeName && !isReady(p))
      .map((p) => p.metadata.uid ?? ''),
  );
  const failed = new Set<string>();
  let changeApplied = false;
  let oldRevision: string | undefined;
  const targetNow = () =>
    sim.get(
      targetLive.kind,
      targetLive.metadata.name ?? '',
      targetLive.metadata.namespace,
      targetLive.apiVersion,
    );
  sim.onSettle(() => {
    const newRev = changeApplied ? updateRevisionOf(targetNow()) : undefined;
    const failNew = failure !== 'none' && newRev !== undefined && newRev !== oldRevision;
    for (const uid of [...heldUnready, ...(failNew ? podsAt(sim, newRev) : [])]) {
      const rt = sim.kubelet.runtime(uid);
      if (!rt) continue;
      for (const c of rt.containers) {
        if (c.state !== 'running') continue;
        const mark = `${uid}/${c.name}/${c.restartCount}/${c.containerID ?? ''}`;
        if (failed.has(mark)) continue;
        failed.add(mark);
        if (heldUnready.has(uid) || failure === 'never-ready') sim.kubelet.failReadiness(rt.rt, c, 1e12);
        else sim.kubelet.crash(rt.rt, c, 'CrashLoop');
      }
    }
  });

  // Warm-up: the containers of the running pods start again in the model.
  const wasReady = state.pods.filter(isReady).map((p) => p.metadata.uid ?? '');
  sim.record({
    type: 'StepStarted',
    source: 'step',
    detail: { index: 0, step: 'start from the saved state' },
  });
  sim.runUntil(
    (s) => wasReady.every((uid) => isReady(s.store.list('v1', 'Pod').find((p) => p.metadata.uid === uid))),
    { timeoutMs: 10 * 60_000 },
  );
  const t0 = sim.nowMs;
  sim.record({ type: 'StepDone', source: 'step', detail: { index: 0, step: 'start from the saved state' } });
  const startPods = sim.store.list('v1', 'Pod').filter((p) => belongs(sim, p, targetNow()));
  const startReady = startPods.filter(isReady).length;
  base.start = `${startPods.length} pod(s) of ${target} (${startReady} ready, ${startPods.length - startReady} not ready) on ${sim.list('Node').length} node(s)`;
  oldRevision = updateRevisionOf(targetNow());

  // The change, and the rollout.
  const watcher = recordPodWrites(sim, targetNow, t0);
  sim.record({
    type: 'StepStarted',
    source: 'step',
    detail: { index: 1, step: changed.description.join(', ') },
  });
  const res = sim.apply(changed.object);
  changeApplied = true;
  if (!res.ok) {
    watcher.stop();
    return { ...base, errors: [`the change was rejected: ${res.message}`] };
  }
  const maxMs = opts.maxDurationMs ?? 2 * 3_600_000;
  const stallMs = opts.stallAfterMs ?? 10 * 60_000;
  let lastSig = '';
  let lastProgress = sim.nowMs;
  let doneAt: number | undefined;
  const check = (s: Simulation): boolean => {
    const w = targetNow();
    if (s.nowMs > t0 && meetsCondition(w, 'RolledOut')) {
      doneAt = s.nowMs;
      return true;
    }
    const sig = progressSignature(s, w);
    if (sig !== lastSig) {
      lastSig = sig;
      lastProgress = s.nowMs;
    }
    return s.nowMs - lastProgress >= stallMs;
  };
  // In slices of 30 s, so a quiet cluster (nothing scheduled, or only far-off events) still
  // reaches the stall and time limits.
  const deadline = t0 + maxMs;
  let stalled = false;
  while (doneAt === undefined && !stalled && sim.nowMs < deadline) {
    const sliceEnd = Math.min(deadline, sim.nowMs + 30_000);
    if (sim.runUntil(check, { timeoutMs: sliceEnd })) {
      stalled = doneAt === undefined;
      break;
    }
    sim.runUntil(sliceEnd);
    stalled = check(sim) && doneAt === undefined;
  }
  watcher.stop();
  const end = doneAt ?? sim.nowMs;
  sim.record({
    type: doneAt !== undefined ? 'StepDone' : 'StepFailed',
    source: 'step',
    detail: {
      index: 1,
      step: changed.description.join(', '),
      ...(doneAt === undefined ? { message: 'did not complete' } : {}),
    },
  });
  const analysis = analyzeForecast(sim, targetNow(), t0, watcher.writes, doneAt !== undefined, oldRevision);
  const invariants = sim.invariantResults();
  const steps: StepResult[] = [
    { index: 0, description: 'start from the saved state', status: 'done', startedMs: 0, endedMs: t0 },
    {
      index: 1,
      description: changed.description.join(', '),
      status: doneAt !== undefined ? 'done' : 'failed',
      startedMs: t0,
      endedMs: end,
      message: doneAt === undefined ? analysis.stalls.map((s) => s.message).join('; ') : undefined,
    },
  ];
  return {
    ...base,
    completed: doneAt !== undefined,
    durationMs: end - t0,
    lastProgressMs: Math.max(0, Math.min(end, lastProgress) - t0),
    floor: analysis.floor,
    batches: analysis.batches,
    stalls: analysis.stalls,
    changeAtMs: t0,
    invariantsViolated: invariants.filter((i) => i.violations.length).map((i) => i.name),
    run: {
      status: doneAt !== undefined ? 'passed' : 'failed',
      errors: [],
      sim,
      steps,
      invariants,
      failure: doneAt === undefined ? `the rollout of ${target} did not complete` : undefined,
    },
  };
}

/** Pod uids at a revision (controller-revision-hash). */
function podsAt(sim: Simulation, rev: string): string[] {
  return sim.store
    .list('v1', 'Pod')
    .filter((p) => p.metadata.labels?.['controller-revision-hash'] === rev && !p.metadata.deletionTimestamp)
    .map((p) => p.metadata.uid ?? '');
}

/** What changes as a rollout progresses: the workload's status and its pods' revisions and readiness. */
function progressSignature(sim: Simulation, w: KubeObject | undefined): string {
  const pods = sim.store.list('v1', 'Pod').filter((p) => belongs(sim, p, w));
  return `${JSON.stringify(w?.status ?? {})}|${pods
    .map(
      (p) =>
        `${p.metadata.name}:${p.metadata.labels?.['controller-revision-hash'] ?? ''}:${isReady(p)}:${Boolean(p.metadata.deletionTimestamp)}`,
    )
    .join(',')}`;
}

/** Records the controllers' pod writes of the workload from `t0` on. */
function recordPodWrites(sim: Simulation, w: () => KubeObject | undefined, t0: number) {
  const writes: PodWrite[] = [];
  const stop = sim.store.watch((c: Change) => {
    if (c.object.kind !== 'Pod' || !c.source.startsWith('controller:')) return;
    if (!belongs(sim, c.object, w()) && !(c.old && belongs(sim, c.old, w()))) return;
    const t = sim.nowMs - t0;
    const pod = c.object.metadata.name ?? '';
    if (c.type === 'added') writes.push({ t, pod, action: 'created' });
    else if (
      c.type === 'deleted' ||
      (c.object.metadata.deletionTimestamp && !c.old?.metadata.deletionTimestamp)
    )
      writes.push({ t, pod, action: 'deleted' });
    else if (
      c.old &&
      (c.old.metadata.labels?.['controller-revision-hash'] !==
        c.object.metadata.labels?.['controller-revision-hash'] ||
        c.old.metadata.annotations?.['kruise.io/sidecarset-hash'] !==
          c.object.metadata.annotations?.['kruise.io/sidecarset-hash'])
    )
      writes.push({ t, pod, action: 'updated in place' });
  });
  return { writes, stop };
}
