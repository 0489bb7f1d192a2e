// Which DaemonSets a node event concerns (docs/reference/daemonset.md §3; the controller's node event
// handler): shells use these to decide which DaemonSets to reconcile when a node changes.
import { canonicalJSON } from '@kruise-ts/core';
import type { Node, NodeCondition } from 'kubernetes-types/core/v1.js';
import { nodeShouldRunDaemonPod, nodeShouldUpdateBySelector } from './nodeShouldRun';
import type { DaemonSet } from './types';

/**
 * The set of condition types with status `True` is the same on both nodes.
 * Example: `{test-1: True, test-3: True}` vs `{test-1: True, test-2: False}` → false.
 */
export function nodeInSameCondition(
  old: readonly NodeCondition[] = [],
  cur: readonly NodeCondition[] = [],
): boolean {
  const trueTypes = (cs: readonly NodeCondition[]) =>
    [...new Set(cs.filter((c) => c.status === 'True').map((c) => c.type))].sort().join('\n');
  return trueTypes(old) === trueTypes(cur);
}

/**
 * A node update that cannot change any DaemonSet decision: the true-condition types are the
 * same and the nodes are otherwise equal, ignoring `resourceVersion` and condition details.
 */
export function shouldIgnoreNodeUpdate(oldNode: Node, curNode: Node): boolean {
  if (!nodeInSameCondition(oldNode.status?.conditions, curNode.status?.conditions)) return false;
  const strip = (n: Node) => ({
    ...n,
    metadata: { ...n.metadata, resourceVersion: undefined },
    status: { ...n.status, conditions: undefined },
  });
  return canonicalJSON(strip(oldNode)) === canonicalJSON(strip(curNode));
}

/** DaemonSets to reconcile when `node` is created: those for which it `shouldRun`. */
export function daemonSetsForNodeCreate(node: Node, daemonSets: readonly DaemonSet[]): DaemonSet[] {
  return daemonSets.filter((ds) => nodeShouldRunDaemonPod(node, ds).shouldRun);
}

/**
 * DaemonSets to reconcile when a node changes: none if the update is ignorable, else those
 * whose (`shouldRun`, `shouldContinueRunning`) pair or rolling-update selector match differs.
 */
export function daemonSetsForNodeUpdate(
  oldNode: Node,
  curNode: Node,
  daemonSets: readonly DaemonSet[],
): DaemonSet[] {
  if (shouldIgnoreNodeUpdate(oldNode, curNode)) return [];
  return daemonSets.filter((ds) => {
    const a = nodeShouldRunDaemonPod(oldNode, ds);
    const b = nodeShouldRunDaemonPod(curNode, ds);
    return (
      a.shouldRun !== b.shouldRun ||
      a.shouldContinueRunning !== b.shouldContinueRunning ||
      nodeShouldUpdateBySelector(oldNode, ds) !== nodeShouldUpdateBySelector(curNode, ds)
    );
  });
}
