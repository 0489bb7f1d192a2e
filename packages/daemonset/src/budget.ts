// The numbers of a rolling-update round and of pod creation: surge/unavailable budgets
// (docs/reference/daemonset.md §7.1), the eligible nodes and their order (§7.2), partition-limited
// creation (§5.4) and the per-sync burst (§5.6).
import { labelSelectorMatcher, scaledValueFromIntOrPercent } from '@kruise-ts/core';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { DEFAULT_BURST_REPLICAS } from './constants';
import type { NodeToPods } from './nodePods';
import { isDeleting, isPodUpdated, isPreDeleting } from './predicates';
import type { DaemonSet } from './types';

/** The updated and the old non-deleting pod of a node (§7.3); `excess` when either is not unique. */
export interface NodePods {
  newPod?: Pod;
  oldPod?: Pod;
  /** More than one updated or more than one old non-deleting pod. */
  excess: boolean;
}

/** Splits a node's non-deleting pods into the updated one and the old one (§7.3 `n`, `o`). */
export function findUpdatedPodsOnNode(
  pods: readonly Pod[],
  hash: string,
  generation: number | undefined,
): NodePods {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  let excess = false;
  for (const pod of pods) {
    if (isDeleting(pod)) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) excess = true;
      else newPod = pod;
    } else {
      if (oldPod) excess = true;
      else oldPod = pod;
    }
  }
  return { newPod, oldPod, excess };
}

/** Budgets of one rolling-update round (§7.1). */
export interface UpdateBudget {
  maxSurge: number;
  maxUnavailable: number;
  /** Number of nodes with `shouldRun`. */
  desired: number;
  /** The node → pods map padded with an empty entry for every desired node without one. */
  nodeToPods: NodeToPods;
}

/**
 * §7.1 `updatedDesiredNodeCounts`: `maxUnavailable` and `maxSurge` scaled against the
 * number of desired nodes, rounding up (0 when unset); when `desired > 0` and both are 0,
 * `maxUnavailable = 1`. Examples: desired 2, `"50%"` → 1; desired 3, `"50%"` → 2; desired 2,
 * surge `"100%"` → 2; no nodes → 0/0. A malformed value yields `{ error }` (the rolling update
 * is aborted).
 */
export function updatedDesiredNodeCounts(
  ds: DaemonSet,
  desiredNodes: readonly string[],
  nodeToPods: NodeToPods,
): UpdateBudget | { error: string } {
  // copied only when a desired node has no entry yet (the caller's map is not modified)
  let padded: NodeToPods = nodeToPods;
  for (const name of desiredNodes) {
    if (padded.has(name)) continue;
    if (padded === nodeToPods) padded = new Map(nodeToPods);
    padded.set(name, []);
  }
  const desired = desiredNodes.length;
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  let maxUnavailable = 0;
  let maxSurge = 0;
  try {
    if (ru?.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
      maxUnavailable = scaledValueFromIntOrPercent(ru.maxUnavailable, desired, true);
    }
    if (ru?.maxSurge !== undefined && ru.maxSurge !== null) {
      maxSurge = scaledValueFromIntOrPercent(ru.maxSurge, desired, true);
    }
  } catch (e) {
    return { error: `invalid value for IntOrString: ${(e as Error).message}` };
  }
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired, nodeToPods: padded };
}

/**
 * §7.2 `filterDaemonPodsNodeToUpdate`: the nodes eligible for this round, in update order.
 *
 * Node names (entries whose node exists) are walked from the largest to the smallest and
 * classified as **updated** (has an updated pod, or an excess of pods), **updating** (no old
 * pod, or its old pod is pre-deleting), **selected** / dropped (with a `rollingUpdate.selector`)
 * or **rest**; the order is `updated ++ updating ++ selected|rest`, cut to `N − partition`.
 *
 * Example (H = v2): n1:v1 n2:v2 n3:v1, partition 0 → `[n2, n3, n1]`; with partition 1 and
 * n1:v2 n2:v1 n3:v1 → `[n1, n3]`.
 */
export function filterDaemonPodsNodeToUpdate(
  ds: DaemonSet,
  hash: string,
  generation: number | undefined,
  nodeToPods: NodeToPods,
  nodesByName: ReadonlyMap<string, Node>,
): string[] {
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  const partition = ru?.partition ?? 0;
  const selects = ru?.selector ? labelSelectorMatcher(ru.selector) : undefined;
  const names = inByteOrder([...nodeToPods.keys()].filter((n) => nodesByName.has(n)));
  const updated: string[] = [];
  const updating: string[] = [];
  const rest: string[] = [];
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i];
    const { newPod, oldPod, excess } = findUpdatedPodsOnNode(nodeToPods.get(name) ?? [], hash, generation);
    if (excess || newPod) {
      updated.push(name);
    } else if (!oldPod || isPreDeleting(oldPod)) {
      updating.push(name);
    } else if (selects) {
      if (selects(nodesByName.get(name)?.metadata?.labels ?? {})) rest.push(name);
    } else {
      rest.push(name);
    }
  }
  const maxUpdate = names.length - partition;
  if (maxUpdate <= 0) return [];
  return [...updated, ...updating, ...rest].slice(0, maxUpdate);
}

/** Byte-wise string order (`node-10 < node-11 < node-5`). */
export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorts node names in place in {@link byteCompare}'s order (§5.4, §7.2) and returns them.
 * That order compares UTF-16 code units, which is what Array.prototype.sort does for strings
 * when given no comparator, so none is given.
 */
function inByteOrder(names: string[]): string[] {
  return names.sort();
}

/**
 * §5.4 `GetNodesNeedingPods`: the nodes that get a pod in this sync, sorted byte-wise.
 * With partition `p > 0` and the progressive annotation only
 * `maxCreate = min(max(desire − newPods − clamp(p, 0, desire), 0), |list|)` are kept.
 *
 * Examples: desire 10, newPods 1, partition 5, needing node-1..node-9 → node-1..node-4;
 * desire 12, newPods 5, partition 5, needing node-5..node-11 → `[node-10, node-11]`.
 */
export function getNodesNeedingPods(
  newPods: number,
  desire: number,
  partition: number,
  progressive: boolean,
  nodesNeedingPods: readonly string[],
): string[] {
  const sorted = inByteOrder([...nodesNeedingPods]);
  if (!progressive || partition === 0) return sorted;
  const p = Math.min(Math.max(partition, 0), desire);
  const maxCreate = Math.min(Math.max(desire - newPods - p, 0), sorted.length);
  return sorted.slice(0, maxCreate);
}

/**
 * §5.6 step 2: max creates and max deletes per sync, `burstReplicas` (default 250) scaled
 * against the **stored** `status.desiredNumberScheduled`, rounding down (Q4). Example:
 * `"50%"` with a stored desired count of 7 → 3; a brand-new DaemonSet (stored 0) → 0.
 * A malformed value falls back to 250.
 */
export function burstReplicas(ds: DaemonSet): number {
  const value = ds.spec.burstReplicas ?? DEFAULT_BURST_REPLICAS;
  try {
    return Math.max(0, scaledValueFromIntOrPercent(value, ds.status?.desiredNumberScheduled ?? 0, false));
  } catch {
    return DEFAULT_BURST_REPLICAS;
  }
}

/**
 * `allowSurge` (§5): type `RollingUpdate` and `maxSurge` scaled against 1, rounding up, is
 * positive — i.e. any positive int or percent.
 */
export function allowSurge(ds: DaemonSet): boolean {
  const s = ds.spec.updateStrategy;
  if (
    s?.type !== 'RollingUpdate' ||
    s.rollingUpdate?.maxSurge === undefined ||
    s.rollingUpdate.maxSurge === null
  ) {
    return false;
  }
  try {
    return scaledValueFromIntOrPercent(s.rollingUpdate.maxSurge, 1, true) > 0;
  } catch {
    return false;
  }
}
