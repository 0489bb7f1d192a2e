// Wait conditions of `waitFor` steps: built-in conditions per kind (Ready,
// RolledOut, Available, Exists, Deleted) and field equality on dotted paths.
import type { KubeObject } from '@kruise-ts/api';

/** Reads a dotted path (`status.readyReplicas`, `spec.template.spec.containers.0.image`). */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** The fields the built-in conditions read, named on the object: counters its controller writes. */
interface WorkloadLike extends KubeObject {
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    updatedReplicas?: number;
    updatedReadyReplicas?: number;
    expectedUpdatedReplicas?: number;
    conditions?: { type: string; status: string }[];
  };
}

function hasCondition(obj: WorkloadLike, type: string): boolean {
  return (obj.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/**
 * Whether `obj` (undefined when missing) meets a built-in condition.
 *
 * - `Exists` / `Deleted`: the object is present / absent.
 * - Pods and Nodes: `Ready` and `Available` mean condition Ready=True.
 * - DaemonSets and SidecarSets: their own status counters (see below).
 * - Workloads: `Ready` = the status is current (observedGeneration ≥ generation) and
 *   replicas = readyReplicas = spec.replicas; `Available` also needs availableReplicas =
 *   spec.replicas; `RolledOut` = Available and updatedReplicas and updatedReadyReplicas reach
 *   expectedUpdatedReplicas (replicas − partition; spec.replicas when absent).
 */
export function meetsCondition(obj: KubeObject | undefined, condition: string): boolean {
  if (condition === 'Deleted') return obj === undefined;
  if (!obj) return false;
  if (condition === 'Exists') return true;
  // a typed view of the counters, not a check: the comparisons below read whatever JSON is there
  const w = obj as WorkloadLike;
  if (obj.kind === 'Pod' || obj.kind === 'Node') return hasCondition(w, 'Ready');
  if (obj.kind === 'DaemonSet') return daemonSetCondition(obj, condition);
  if (obj.kind === 'SidecarSet') return sidecarSetCondition(obj, condition);
  const s = w.status;
  if (!s) return false;
  const r = w.spec?.replicas ?? 1;
  const current = (s.observedGeneration ?? 0) >= (w.metadata.generation ?? 0);
  const ready = current && (s.replicas ?? 0) === r && (s.readyReplicas ?? 0) === r;
  if (condition === 'Ready') return ready;
  const available = ready && (s.availableReplicas ?? s.readyReplicas ?? 0) === r;
  if (condition === 'Available') return available;
  if (condition === 'RolledOut') {
    const expected = s.expectedUpdatedReplicas ?? r;
    return (
      available &&
      (s.updatedReplicas ?? 0) >= expected &&
      (s.updatedReadyReplicas ?? s.updatedReplicas ?? 0) >= expected
    );
  }
  return false;
}

/**
 * DaemonSet: `Ready` = numberReady = desiredNumberScheduled (status current), `Available` also
 * numberAvailable, `RolledOut` also updatedNumberScheduled = desiredNumberScheduled.
 */
function daemonSetCondition(obj: KubeObject, condition: string): boolean {
  const s = (obj.status ?? {}) as Record<string, number | undefined>;
  const current = (s.observedGeneration ?? 0) >= (obj.metadata.generation ?? 0);
  const desired = s.desiredNumberScheduled ?? 0;
  const ready = current && (s.numberReady ?? 0) === desired;
  if (condition === 'Ready') return ready;
  const available = ready && (s.numberAvailable ?? 0) === desired;
  if (condition === 'Available') return available;
  return condition === 'RolledOut' && available && (s.updatedNumberScheduled ?? 0) === desired;
}

/** SidecarSet: `Ready`/`Available` = readyPods = matchedPods, `RolledOut` also updatedPods and updatedReadyPods. */
function sidecarSetCondition(obj: KubeObject, condition: string): boolean {
  const s = (obj.status ?? {}) as Record<string, number | undefined>;
  const current = (s.observedGeneration ?? 0) >= (obj.metadata.generation ?? 0);
  const matched = s.matchedPods ?? 0;
  const ready = current && (s.readyPods ?? 0) === matched;
  if (condition === 'Ready' || condition === 'Available') return ready;
  return (
    condition === 'RolledOut' &&
    ready &&
    (s.updatedPods ?? 0) === matched &&
    (s.updatedReadyPods ?? 0) === matched
  );
}

/** Whether every dotted path equals its value (compared as JSON). */
export function meetsFields(obj: KubeObject | undefined, fields: Record<string, unknown>): boolean {
  if (!obj) return false;
  return Object.entries(fields).every(([p, v]) => JSON.stringify(getPath(obj, p)) === JSON.stringify(v));
}
