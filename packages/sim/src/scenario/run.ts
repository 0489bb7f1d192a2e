// Running a scenario: apply its manifests at time 0 (a rejected manifest stops
// the run with the API server's 422 message), then run its steps in order,
// checking the invariants at every simulation step.
import type { KubeObject } from '@kruise-ts/api';
import { displayRef, formatDuration, type LogLevel } from '@kruise-ts/cluster';
import { matchesSelectorString } from '@kruise-ts/core';
import type { ControllerRegistry } from '../controllers';
import type { InvariantReport } from '../invariants';
import { Simulation, type SimulationOptions } from '../simulation';
import { meetsCondition, meetsFields } from './conditions';
import { type ParseOptions, parseScenario, parseScenarioObject, type ScenarioError } from './parse';
import type { Scenario, Step } from './types';

/** What happened to one step. */
export interface StepResult {
  index: number;
  description: string;
  status: 'done' | 'failed' | 'skipped';
  startedMs: number;
  endedMs: number;
  message?: string;
}

/** The outcome of a run. */
export interface RunResult {
  /** `invalid`: the scenario did not parse (nothing ran); `failed`: a manifest was rejected, a step failed or an invariant was violated. */
  status: 'passed' | 'failed' | 'invalid';
  errors: ScenarioError[];
  scenario?: Scenario;
  sim?: Simulation;
  steps: StepResult[];
  invariants: InvariantReport[];
  /** Why the run failed, when it did. */
  failure?: string;
}

/** Options of `runScenario`. */
export interface RunOptions extends ParseOptions {
  /** Overrides the scenario's seed. */
  seed?: number;
  logLevel?: LogLevel;
  /** Event-log records kept, the most recent (default 10 000); `Infinity` for the full log. */
  eventLogCapacity?: number;
  registry?: ControllerRegistry;
  /** Called once the simulation exists, before anything is applied (subscribe to its log here). */
  onStart?: (sim: Simulation, scenario: Scenario) => void;
  /** Called after every simulation step (time advanced and settled). */
  onTick?: (sim: Simulation) => void;
  onStepStart?: (step: Step, description: string, sim: Simulation) => void;
  onStepEnd?: (result: StepResult, sim: Simulation) => void;
}

/** The simulation options a scenario describes (seed, cluster, timings, gates, failures, invariants). */
export function simulationOptionsFor(scenario: Scenario): SimulationOptions {
  return {
    seed: scenario.seed,
    startTime: scenario.startTime,
    nodes: scenario.nodes,
    timings: scenario.timings,
    featureGates: scenario.featureGates,
    resolutionMs: scenario.resolutionMs,
    invariants: scenario.invariants,
    failures: scenario.failures,
  };
}

/**
 * Creates a simulation from manifests, or from a parsed scenario (its cluster,
 * timings, seed, failures and invariants; its manifests applied at time 0; its
 * steps are not run — drive the simulation yourself with `step`/`runUntil`, or
 * use `runScenario`). Rejected manifests are in the event log (`Rejected`).
 *
 * Example: `createSimulation([cloneSet], { seed: 1 }).runUntil((s) => ready(s), { timeoutMs: 60_000 })`.
 */
export function createSimulation(
  input: KubeObject[] | Scenario = [],
  options: SimulationOptions = {},
): Simulation {
  if (Array.isArray(input)) {
    const sim = new Simulation(options);
    for (const o of input) sim.apply(o);
    return sim;
  }
  const sim = new Simulation({ ...simulationOptionsFor(input), ...options });
  for (const m of input.manifests) sim.apply(m.object);
  return sim;
}

/** A one-line description of a step: `setImage CloneSet/default/sample nginx=nginx:1.27-alpine`. */
export function describeStep(s: Step): string {
  if (s.name) return s.name;
  switch (s.action) {
    case 'apply':
      return `apply ${s.objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`;
    case 'patch':
      return `patch ${displayRef(s.target)} (${s.patchType})`;
    case 'scale':
      return `scale ${displayRef(s.target)} to ${s.replicas}`;
    case 'setImage':
      return `set image ${displayRef(s.target)} ${s.container ?? '*'}=${s.image}`;
    case 'delete':
      return `delete ${displayRef(s.target)}`;
    case 'deletePod':
    case 'crashPod':
    case 'failReadiness':
      return `${s.action} ${s.podName ?? `${s.count} pod(s) with ${s.selector}`}`;
    case 'failNode':
    case 'recoverNode':
      return `${s.action} ${s.node}`;
    case 'wait':
      return `wait ${formatDuration(s.durationMs)}`;
    case 'waitFor': {
      const u = s.until;
      const what =
        u.condition ??
        Object.entries(u.fields ?? {})
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(', ');
      return `wait for ${displayRef(u)} ${what}`;
    }
  }
}

/**
 * Parses (text or object) and runs a scenario. Never throws on user input: a bad
 * scenario returns `status: 'invalid'` with its errors.
 */
export function runScenario(
  input: string | Scenario | Record<string, unknown>,
  opts: RunOptions = {},
): RunResult {
  let scenario: Scenario | undefined;
  if (typeof input === 'string') {
    const r = parseScenario(input, opts);
    if (!r.scenario) return { status: 'invalid', errors: r.errors, steps: [], invariants: [] };
    scenario = r.scenario;
  } else if (isParsed(input)) scenario = input;
  else {
    const r = parseScenarioObject(input, opts);
    if (!r.scenario) return { status: 'invalid', errors: r.errors, steps: [], invariants: [] };
    scenario = r.scenario;
  }
  const sim = new Simulation({
    ...simulationOptionsFor(scenario),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    logLevel: opts.logLevel,
    ...(opts.eventLogCapacity !== undefined ? { eventLogCapacity: opts.eventLogCapacity } : {}),
    registry: opts.registry,
  });
  opts.onStart?.(sim, scenario);
  if (opts.onTick) sim.onSettle(opts.onTick);
  const result: RunResult = { status: 'passed', errors: [], scenario, sim, steps: [], invariants: [] };
  for (const m of scenario.manifests) {
    const res = sim.apply(m.object);
    if (!res.ok) {
      const where = m.file
        ? `${m.file}${m.line !== undefined ? `:${m.line}` : ''}${m.document !== undefined ? ` (document ${m.document})` : ''}: `
        : '';
      result.status = 'failed';
      result.failure = `${where}${res.message}`;
      result.errors.push({
        file: m.file ?? '<inline>',
        document: m.document,
        line: m.line,
        message: res.message,
      });
      result.invariants = sim.invariantResults();
      return result;
    }
  }
  const deadline = scenario.maxDurationMs;
  for (const step of scenario.steps) {
    const description = describeStep(step);
    if (result.status === 'failed') {
      result.steps.push({
        index: step.index,
        description,
        status: 'skipped',
        startedMs: sim.nowMs,
        endedMs: sim.nowMs,
      });
      continue;
    }
    if (step.atMs !== undefined && step.atMs > sim.nowMs) sim.runUntil(Math.min(step.atMs, deadline));
    opts.onStepStart?.(step, description, sim);
    const startedMs = sim.nowMs;
    sim.record({ type: 'StepStarted', source: 'step', detail: { index: step.index, step: description } });
    const message = runStep(sim, step, deadline);
    const sr: StepResult = {
      index: step.index,
      description,
      status: message ? 'failed' : 'done',
      startedMs,
      endedMs: sim.nowMs,
    };
    if (message) {
      sr.message = message;
      result.status = 'failed';
      result.failure = `step ${step.index + 1} (${description}): ${message}`;
    }
    sim.record({
      type: message ? 'StepFailed' : 'StepDone',
      source: 'step',
      detail: { index: step.index, step: description, ...(message ? { message } : {}) },
    });
    result.steps.push(sr);
    opts.onStepEnd?.(sr, sim);
  }
  result.invariants = sim.invariantResults();
  const violated = result.invariants.find((r) => r.violations.length > 0);
  if (violated && result.status === 'passed') {
    result.status = 'failed';
    result.failure = `invariant ${violated.name} violated ${violated.violations.length} time(s); first at ${formatDuration(violated.violations[0].t * 1000)}: ${violated.violations[0].message}`;
  }
  return result;
}

function isParsed(v: unknown): v is Scenario {
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as Scenario).steps) &&
    Array.isArray((v as Scenario).manifests) &&
    typeof (v as Scenario).seed === 'number'
  );
}

/** Runs one step; returns a failure message, or undefined on success. */
function runStep(sim: Simulation, s: Step, deadline: number): string | undefined {
  const write = (res: { ok: boolean; message?: string }) => (res.ok ? undefined : res.message);
  switch (s.action) {
    case 'apply':
      for (const o of s.objects) {
        const m = write(sim.apply(o, 'step'));
        if (m) return m;
      }
      return undefined;
    case 'patch':
      return write(
        sim.act(
          {
            verb: 'patch',
            target: s.target,
            patchType: s.patchType,
            patch: s.patch,
            reason: 'ScenarioPatch',
          },
          'step',
        ),
      );
    case 'scale':
      return write(
        sim.act(
          {
            verb: 'patch',
            target: s.target,
            patchType: 'merge',
            patch: { spec: { replicas: s.replicas } },
            reason: 'Scale',
          },
          'step',
        ),
      );
    case 'setImage':
      return setImage(sim, s);
    case 'delete':
      return write(sim.act({ verb: 'delete', target: s.target, reason: 'ScenarioDelete' }, 'step'));
    case 'deletePod':
    case 'crashPod':
    case 'failReadiness': {
      const names = pickPods(sim, s.namespace, s.podName, s.selector, s.count);
      if (typeof names === 'string') return names;
      for (const n of names) {
        if (s.action === 'deletePod') {
          const m = write(sim.deletePod(n, s.namespace, 'step'));
          if (m) return m;
        } else if (s.action === 'crashPod') {
          if (!sim.crashPod(n, s.namespace, s.container))
            return `pod ${n} has no running container${s.container ? ` ${s.container}` : ''} to crash`;
        } else if (!sim.failReadiness(n, s.durationMs, s.namespace, s.container))
          return `pod ${n} has no running container${s.container ? ` ${s.container}` : ''}`;
      }
      return undefined;
    }
    case 'failNode':
      sim.failNode(s.node);
      return undefined;
    case 'recoverNode':
      sim.recoverNode(s.node);
      return undefined;
    case 'wait':
      sim.runUntil(Math.min(sim.nowMs + s.durationMs, deadline));
      return undefined;
    case 'waitFor': {
      const u = s.until;
      const check = () => {
        const obj = sim.store.get(u.apiVersion ?? 'v1', u.kind, u.namespace, u.name);
        return u.condition
          ? meetsCondition(obj, u.condition) && (!u.fields || meetsFields(obj, u.fields))
          : meetsFields(obj, u.fields ?? {});
      };
      const limit = Math.min(sim.nowMs + u.timeoutMs, deadline);
      if (sim.runUntil(check, { timeoutMs: limit })) return undefined;
      const obj = sim.store.get(u.apiVersion ?? 'v1', u.kind, u.namespace, u.name);
      const status = obj?.status
        ? ` (status: ${JSON.stringify(obj.status)})`
        : obj
          ? ''
          : ' (the object does not exist)';
      const why =
        sim.nowMs >= deadline
          ? 'the scenario reached its maxDuration'
          : `timed out after ${formatDuration(u.timeoutMs)}`;
      return `${why} waiting for ${displayRef(u)} to be ${u.condition ?? JSON.stringify(u.fields)}${status}`;
    }
  }
}

function pickPods(
  sim: Simulation,
  namespace: string,
  name: string | undefined,
  selector: string | undefined,
  count: number,
): string[] | string {
  const active = sim.store.list('v1', 'Pod', namespace).filter((p) => !p.metadata.deletionTimestamp);
  if (name)
    return active.some((p) => p.metadata.name === name) ? [name] : `pod ${namespace}/${name} not found`;
  const pool = active
    .filter((p) => matchesSelectorString(selector ?? '', p.metadata.labels))
    .map((p) => p.metadata.name ?? '');
  if (pool.length === 0) return `no pod in namespace ${namespace} matches ${selector}`;
  return sim.pick(pool, Math.min(count, pool.length));
}

function setImage(sim: Simulation, s: Extract<Step, { action: 'setImage' }>): string | undefined {
  const obj = sim.store.get(s.target.apiVersion ?? 'v1', s.target.kind, s.target.namespace, s.target.name);
  if (!obj) return `${displayRef(s.target)} not found`;
  const isPod = obj.kind === 'Pod';
  const podSpec = (
    isPod ? obj.spec : (obj.spec as { template?: { spec?: unknown } } | undefined)?.template?.spec
  ) as { containers?: { name: string; image?: string }[] } | undefined;
  const containers = podSpec?.containers ?? [];
  const names = containers.map((c) => c.name);
  const targets = s.container ? [s.container] : names;
  if (s.container && !names.includes(s.container))
    return `${displayRef(s.target)} has no container ${s.container} (containers: ${names.join(', ')})`;
  const next = containers.map((c) => (targets.includes(c.name) ? { ...c, image: s.image } : c));
  const patch = isPod
    ? { spec: { containers: next } }
    : { spec: { template: { spec: { containers: next } } } };
  const res = sim.act(
    { verb: 'patch', target: s.target, patchType: 'merge', patch, reason: 'SetImage' },
    'step',
  );
  return res.ok ? undefined : res.message;
}

/** Re-exported for callers that build their own objects. */
export type { KubeObject };
