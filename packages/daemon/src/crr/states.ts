// The CRR daemon's pure state machine (docs/reference/daemon.md §9.3 items 4–9): per-container states from the
// observed runtime containers and the controller's sync annotation, and the action pass that decides
// the next kill, completion or stop.
import {
  ANNOTATION_CRR_SYNC_CONTAINER_STATUSES,
  type ContainerRecreateRequest,
  type ContainerRecreateRequestContainerRecreateState as RecreateState,
} from '@kruise-ts/api';
import { parseTime } from '../clock';
import { findContainerStatus, type RuntimeContainerStatus } from './podStatus';

/** §9.3 item 4.2: the message of a container missing on the node. */
export const MESSAGE_NOT_FOUND_ON_NODE = 'not found container on Node';

/** One entry of the `sync-container-statuses` annotation (§1). */
export interface SyncContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  containerID: string;
}

/** Reads the controller's `sync-container-statuses` annotation; unparsable → empty. */
export function syncContainerStatuses(crr: ContainerRecreateRequest): SyncContainerStatus[] {
  const raw = crr.metadata.annotations?.[ANNOTATION_CRR_SYNC_CONTAINER_STATUSES];
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? (v as SyncContainerStatus[]) : [];
  } catch {
    return [];
  }
}

function state(
  name: string,
  phase: RecreateState['phase'],
  isKilled?: boolean,
  message?: string,
): RecreateState {
  const s: RecreateState = { name, phase };
  if (message) s.message = message;
  if (isKilled) s.isKilled = true;
  return s;
}

/** Normalises a state list the way Go's JSON (omitempty) would show it, for comparisons. */
export function normalizeStates(states: readonly RecreateState[] | undefined): RecreateState[] {
  return (states ?? []).map((s) => state(s.name, s.phase, s.isKilled, s.message));
}

/** True when two state lists are equal as JSON after normalisation. */
export function statesEqual(
  a: readonly RecreateState[] | undefined,
  b: readonly RecreateState[] | undefined,
): boolean {
  return JSON.stringify(normalizeStates(a)) === JSON.stringify(normalizeStates(b));
}

/**
 * §9.3 item 4: the per-container states, in spec order.
 * 1. previous Succeeded/Failed → kept; 2. no container → Pending "not found container on Node";
 * 3. newest EXITED → Recreating; 4. forceRecreate and not yet killed → Pending (isKilled false);
 * 5. newest differs from the context (new id, higher restartCount, or started after the CRR was
 * created) → Recreating, or Succeeded when the sync annotation shows the same id ready and
 * `now − startedAt > minStartedSeconds`; 6. else Pending. `isKilled` is kept except in 4.
 *
 * Example: context `{containerID: 'containerd://a', restartCount: 0}`, newest `containerd://b`
 * running since 10 s, annotation `[{name, ready: true, containerID: 'containerd://b'}]`,
 * minStartedSeconds 5 → `Succeeded`.
 */
export function computeContainerStates(
  crr: ContainerRecreateRequest,
  podStatus: readonly RuntimeContainerStatus[],
  nowMs: number,
): RecreateState[] {
  const prevStates = crr.status?.containerRecreateStates ?? [];
  const strategy = crr.spec.strategy ?? {};
  const createdMs = parseTime(crr.metadata.creationTimestamp) ?? 0;
  const synced = syncContainerStatuses(crr);
  const minStartedMs = (strategy.minStartedSeconds ?? 0) * 1000;
  return (crr.spec.containers ?? []).map((c) => {
    const prev = prevStates.find((s) => s.name === c.name);
    if (prev && (prev.phase === 'Succeeded' || prev.phase === 'Failed'))
      return state(prev.name, prev.phase, prev.isKilled, prev.message);
    const cs = findContainerStatus(podStatus, c.name);
    if (!cs) return state(c.name, 'Pending', prev?.isKilled, MESSAGE_NOT_FOUND_ON_NODE);
    if (cs.state === 'exited') return state(c.name, 'Recreating', prev?.isKilled);
    if (strategy.forceRecreate && !prev?.isKilled) return state(c.name, 'Pending', false);
    const ctx = c.statusContext;
    const started = cs.startedAtMs ?? 0;
    if (
      cs.id !== (ctx?.containerID ?? '') ||
      cs.restartCount > (ctx?.restartCount ?? 0) ||
      (cs.startedAtMs !== undefined && started > createdMs)
    ) {
      const s = synced.find((x) => x.name === c.name);
      if (s && s.containerID === cs.id && s.ready && nowMs - started > minStartedMs) {
        return state(c.name, 'Succeeded', prev?.isKilled);
      }
      return state(c.name, 'Recreating', prev?.isKilled);
    }
    return state(c.name, 'Pending', prev?.isKilled);
  });
}

/** The outcome of (a segment of) the action pass, §9.3 item 6. */
export type ActionPassResult =
  /** Kill container `index` next (then call {@link applyKillResult}). */
  | {
      kind: 'kill';
      index: number;
      container: RuntimeContainerStatus;
      states: RecreateState[];
      completed: number;
    }
  /** A Failed state under failurePolicy Fail: complete the CRR (message ""). */
  | { kind: 'completeFailed'; states: RecreateState[]; completed: number }
  /** The pass ended (or stopped early). */
  | { kind: 'done'; states: RecreateState[]; completed: number };

/**
 * §9.3 item 6, from `from` on: Succeeded → completed++; Failed → completed++ then continue with
 * Ignore or complete with Fail; Recreating → isKilled = true, and stop if orderedRecreate; Pending →
 * stop when its container is missing, else kill it. Returns a new state list.
 *
 * Example: states `[Succeeded a, Pending b]`, b running → `{kind: 'kill', index: 1, completed: 1}`.
 */
export function actionPass(
  crr: ContainerRecreateRequest,
  statesIn: readonly RecreateState[],
  podStatus: readonly RuntimeContainerStatus[],
  from = 0,
  completedIn = 0,
): ActionPassResult {
  const states = statesIn.map((s) => ({ ...s }));
  const strategy = crr.spec.strategy ?? {};
  let completed = completedIn;
  for (let i = from; i < states.length; i++) {
    const s = states[i];
    switch (s.phase) {
      case 'Succeeded':
        completed++;
        break;
      case 'Failed':
        completed++;
        if (strategy.failurePolicy === 'Ignore') break;
        return { kind: 'completeFailed', states, completed };
      case 'Recreating':
        s.isKilled = true;
        if (strategy.orderedRecreate) return { kind: 'done', states, completed };
        break;
      case 'Pending': {
        const cs = findContainerStatus(podStatus, s.name);
        if (!cs) return { kind: 'done', states, completed };
        return { kind: 'kill', index: i, container: cs, states, completed };
      }
      default:
        break;
    }
  }
  return { kind: 'done', states, completed };
}

/**
 * §9.3 item 6, after a kill of `index`: success → isKilled, Recreating, stop the pass; error →
 * Failed "kill container error: <err>", then continue (Ignore) or patch and return (Fail).
 *
 * Example: error "boom" under Fail → `{states: [… Failed "kill container error: boom"], next: 'patch'}`.
 */
export function applyKillResult(
  crr: ContainerRecreateRequest,
  statesIn: readonly RecreateState[],
  index: number,
  error: string | undefined,
): { states: RecreateState[]; next: 'stop' | 'continue' | 'patch' } {
  const states = statesIn.map((s) => ({ ...s }));
  const s = states[index];
  if (error === undefined) {
    states[index] = state(s.name, 'Recreating', true);
    return { states, next: 'stop' };
  }
  states[index] = state(s.name, 'Failed', s.isKilled, `kill container error: ${error}`);
  return { states, next: crr.spec.strategy?.failurePolicy === 'Ignore' ? 'continue' : 'patch' };
}
