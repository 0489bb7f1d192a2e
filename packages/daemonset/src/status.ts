// DaemonSet status (docs/reference/daemonset.md §10): counters over the node list, inspecting only
// the oldest pod of each node; when to write it; the minReadySeconds resync.
import type { Node } from 'kubernetes-types/core/v1.js';
import type { NodeToPods } from './nodePods';
import type { NodeShouldRun } from './nodeShouldRun';
import { isDaemonAvailable, isPodReady, isPodUpdated } from './predicates';
import type { DaemonSet, DaemonSetStatus } from './types';

/** Inputs of the status computation. */
export interface StatusInput {
  ds: DaemonSet;
  nodes: readonly Node[];
  shouldRun: ReadonlyMap<string, NodeShouldRun>;
  /** Pods by node, each list oldest first (deleting pods included). */
  nodeToPods: NodeToPods;
  hash: string;
  generation: number | undefined;
  now: string | Date;
  collisionCount: number;
  /** Set `observedGeneration = generation` (the full-sync path of §2 step 10). */
  observe: boolean;
}

/**
 * §10: for every node of the node list, only the **oldest** pod is inspected.
 * `desiredNumberScheduled` counts nodes with `shouldRun`; `currentNumberScheduled` those of
 * them with a pod; `numberMisscheduled` nodes without `shouldRun` that have a pod;
 * `numberReady` / `numberAvailable` / `updatedNumberScheduled` desired nodes whose oldest pod
 * is ready / ready and daemon-available / updated; `numberUnavailable = desired − available`.
 *
 * Example: 3 desired nodes, one surging (old pod ready, new pod ready) and two with an
 * updated ready pod → updatedNumberScheduled 2 (the surging node's oldest pod is the old one).
 */
export function calculateStatus(input: StatusInput): DaemonSetStatus {
  const { ds, nodes, shouldRun, nodeToPods, hash, generation, now } = input;
  const minReadySeconds = ds.spec.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const sr = shouldRun.get(name);
    const pods = nodeToPods.get(name) ?? [];
    if (sr?.shouldRun) {
      desired++;
      if (pods.length > 0) {
        current++;
        const oldest = pods[0];
        if (isPodReady(oldest)) {
          ready++;
          if (isDaemonAvailable(oldest, minReadySeconds, now)) available++;
        }
        if (isPodUpdated(oldest, hash, generation)) updated++;
      }
    } else if (pods.length > 0) {
      misscheduled++;
    }
  }
  const status: DaemonSetStatus = {
    ...(ds.status ?? {}),
    desiredNumberScheduled: desired,
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    numberReady: ready,
    numberAvailable: available,
    updatedNumberScheduled: updated,
    numberUnavailable: desired - available,
    daemonSetHash: hash,
  };
  if (input.observe && ds.metadata.generation !== undefined)
    status.observedGeneration = ds.metadata.generation;
  if (input.collisionCount > 0 || ds.status?.collisionCount !== undefined)
    status.collisionCount = input.collisionCount;
  return status;
}

const COUNTERS = [
  'desiredNumberScheduled',
  'currentNumberScheduled',
  'numberMisscheduled',
  'numberReady',
  'numberAvailable',
  'updatedNumberScheduled',
  'numberUnavailable',
  'daemonSetHash',
  'collisionCount',
] as const;

/**
 * §10: the status is written only if a counter, `daemonSetHash` or `collisionCount` changed,
 * or `observedGeneration < generation`.
 */
export function statusNeedsWrite(ds: DaemonSet, next: DaemonSetStatus): boolean {
  const prev = ds.status;
  if (!prev) return true;
  for (const k of COUNTERS) if ((prev[k] ?? undefined) !== (next[k] ?? undefined)) return true;
  return (
    (prev.observedGeneration ?? 0) < (ds.metadata.generation ?? 0) &&
    next.observedGeneration !== prev.observedGeneration
  );
}
