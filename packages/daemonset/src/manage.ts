// The manage phase (docs/reference/daemonset.md §5): per node, create a missing daemon pod (M1), keep
// one pod (M2: failed pods with back-off, pre-deleting pods, duplicates, the surge hand-over)
// or remove pods from nodes that must not run one (M3); pods bound to vanished nodes (§5.3);
// partition-limited creation (§5.4); then `syncNodes` (§5.6).
import { getPodCondition } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { failedPodsBackoffKey } from './backoff';
import { allowSurge, findUpdatedPodsOnNode, getNodesNeedingPods } from './budget';
import { EVENT_FAILED_DAEMON_POD, Reasons } from './constants';
import {
  isAvailable,
  isCreationProgressive,
  isDeleting,
  isFailed,
  isPodReady,
  isPodUpdated,
  isPreDeleting,
} from './predicates';
import { type PodDeletion, requestRequeue, type SyncContext, syncNodes } from './syncContext';
import { toEpochSeconds } from './time';

/** What the per-node rules decided (before `syncNodes`). */
export interface ManageDecision {
  /** Nodes that need a pod (M1, and surge nodes with no running pod), in node-list order. */
  nodesNeedingPods: string[];
  podsToDelete: PodDeletion[];
}

/**
 * §5.2 for one node (`shouldContinueRunning`): failed pods are deleted unless the node's
 * back-off window is open; pre-deleting pods are resubmitted for deletion; of the running
 * pods one is kept: the oldest without surge; with surge the first updated (`newOne`) and the
 * first old (`oldOne`), `oldOne` going once it is not ready or `newOne` is available.
 *
 * Example (surge, minReadySeconds 15): `newOne` ready since t=300, at t=310 the old pod stays
 * and a requeue after 5 s is requested; at t=320 the old pod is deleted.
 */
export function podsShouldBeOnNode(
  ctx: SyncContext,
  nodeName: string,
  pods: readonly Pod[],
  shouldRun: boolean,
  decision: ManageDecision,
): void {
  const { ds } = ctx;
  const running: Pod[] = [];
  for (const pod of pods) {
    if (isDeleting(pod)) continue;
    if (isFailed(pod)) {
      const key = failedPodsBackoffKey(ds, nodeName);
      if (ctx.backoff.isInBackOffSinceUpdate(key)) {
        requestRequeue(ctx, ctx.backoff.get(key));
        continue;
      }
      ctx.backoff.next(key);
      ctx.rec.event(
        'Warning',
        EVENT_FAILED_DAEMON_POD,
        `Found failed daemon pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} on node ${nodeName}, will try to kill it`,
      );
      decision.podsToDelete.push({ pod, reason: Reasons.FailedDaemonPod });
      continue;
    }
    if (isPreDeleting(pod)) {
      decision.podsToDelete.push({ pod, reason: Reasons.PreDelete });
      continue;
    }
    running.push(pod);
  }

  if (!allowSurge(ds)) {
    // Keep the oldest (pods are sorted oldest first), delete the rest. Never creates here (Q5).
    for (let i = 1; i < running.length; i++)
      decision.podsToDelete.push({ pod: running[i], reason: Reasons.DuplicateDaemonPod });
    return;
  }
  if (running.length === 0) {
    if (shouldRun) decision.nodesNeedingPods.push(nodeName);
    return;
  }
  if (running.length === 1) return;
  let newOne: Pod | undefined;
  let oldOne: Pod | undefined;
  for (const pod of running) {
    if (isPodUpdated(pod, ctx.hash, ctx.generation)) {
      if (!newOne) {
        newOne = pod;
        continue;
      }
    } else if (!oldOne) {
      oldOne = pod;
      continue;
    }
    decision.podsToDelete.push({ pod, reason: Reasons.DuplicateDaemonPod });
  }
  if (!newOne || !oldOne) return;
  const minReadySeconds = ds.spec.minReadySeconds ?? 0;
  if (!isPodReady(oldOne)) {
    decision.podsToDelete.push({ pod: oldOne, reason: Reasons.SurgeHandover });
  } else if (isAvailable(newOne, minReadySeconds, ctx.now)) {
    decision.podsToDelete.push({ pod: oldOne, reason: Reasons.SurgeHandover });
  } else if (isPodReady(newOne) && minReadySeconds > 0) {
    const since = toEpochSeconds(getPodCondition(newOne, 'Ready')?.lastTransitionTime);
    const wait = Number.isFinite(since)
      ? minReadySeconds - (toEpochSeconds(ctx.now) - since)
      : minReadySeconds;
    // At the boundary (wait ≤ 0, available needs "strictly after") Go requeues at once and the
    // wall clock moves on; a virtual clock does not, so ask for 1 s instead.
    requestRequeue(ctx, wait > 0 ? wait : 1);
  }
}

/** §5.1 M1–M3 over the node list, plus §5.3 (pods bound to vanished nodes without `nodeName`). */
export function decideManage(ctx: SyncContext): ManageDecision {
  const decision: ManageDecision = { nodesNeedingPods: [], podsToDelete: [] };
  for (const node of ctx.nodes) {
    const name = node.metadata?.name ?? '';
    const sr = ctx.shouldRun.get(name) ?? { shouldRun: false, shouldContinueRunning: false };
    const pods = ctx.view.get(name);
    if (sr.shouldRun && (!pods || pods.length === 0)) {
      decision.nodesNeedingPods.push(name); // M1
    } else if (sr.shouldContinueRunning) {
      podsShouldBeOnNode(ctx, name, pods ?? [], sr.shouldRun, decision); // M2
    } else if (pods) {
      for (const pod of pods) {
        if (!isDeleting(pod)) decision.podsToDelete.push({ pod, reason: Reasons.Misscheduled }); // M3
      }
    }
  }
  for (const [node, pods] of ctx.view) {
    if (ctx.nodesByName.has(node)) continue;
    for (const pod of pods) {
      if (!pod.spec?.nodeName && !isDeleting(pod))
        decision.podsToDelete.push({ pod, reason: Reasons.Misscheduled });
    }
  }
  return decision;
}

/**
 * §5.4 inputs: `desire` (nodes with `shouldRun`) and `newPods` (desired nodes whose
 * non-deleting pods are at most one updated and one old, including an updated one).
 */
export function countDesiredAndNewPods(ctx: SyncContext): { desire: number; newPods: number } {
  let desire = 0;
  let newPods = 0;
  for (const node of ctx.nodes) {
    const name = node.metadata?.name ?? '';
    if (!ctx.shouldRun.get(name)?.shouldRun) continue;
    desire++;
    const { newPod, excess } = findUpdatedPodsOnNode(ctx.view.get(name) ?? [], ctx.hash, ctx.generation);
    if (newPod && !excess) newPods++;
  }
  return { desire, newPods };
}

/** The manage phase: decide (§5.1–5.3), limit creation by partition (§5.4), execute (§5.6). */
export function manage(ctx: SyncContext): void {
  const decision = decideManage(ctx);
  let needing = decision.nodesNeedingPods;
  const strategy = ctx.ds.spec.updateStrategy;
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  if (strategy?.type === 'RollingUpdate' && strategy.rollingUpdate && partition !== 0) {
    const { desire, newPods } = countDesiredAndNewPods(ctx);
    needing = getNodesNeedingPods(
      newPods,
      desire,
      partition,
      isCreationProgressive(ctx.ds.metadata.annotations),
      needing,
    );
  } else {
    needing = getNodesNeedingPods(0, 0, 0, false, needing);
  }
  syncNodes(
    ctx,
    needing.map((node) => ({ node, reason: Reasons.CreateDaemonPod })),
    decision.podsToDelete,
  );
}
