// The rolling update (docs/reference/daemonset.md §7): budgets (§7.1), eligible nodes (§7.2), the
// standard walk without surge (§7.3, with in-place updates §8) and the surge walk (§7.4).
import type { Pod } from 'kubernetes-types/core/v1.js';
import { filterDaemonPodsNodeToUpdate, findUpdatedPodsOnNode, updatedDesiredNodeCounts } from './budget';
import { Reasons } from './constants';
import { type InPlaceRevisions, inPlaceUpdatePods } from './inplace';
import type { NodeToPods } from './nodePods';
import { isAvailable, isPreDeleting } from './predicates';
import { type NodeCreation, type SyncContext, syncNodes } from './syncContext';

/** The decisions of the standard walk (§7.3). */
export interface StandardDecision {
  /** Old pods that are not available: replaced regardless of the budget (U4). */
  replaceNow: Pod[];
  /** Available old pods that may go within the budget (U5), in walk order. */
  candidates: Pod[];
  /** Unavailable count at the end of the walk. */
  unavailable: number;
  /** `replaceNow ++ first k candidates`, `k = min(max(0, maxUnavailable − unavailable), |candidates|)`. */
  toDelete: Pod[];
}

/**
 * §7.3 the walk over the eligible nodes without surge. Per node (`n` updated pod, `o` old
 * pod, `gone(x)` = absent or pre-deleting): U1 excess → unavailable+1; U2 `gone(o) == gone(n)`
 * → +1; U3 `n` present → +1 if `n` not available, +1 more if `n` pre-deleting; U4 only `o`,
 * not available → replace now; U5 only `o`, available, `unavailable < maxUnavailable` →
 * candidate; U6 otherwise skip.
 *
 * Example (5 nodes, maxUnavailable 2, all old pods available): unavailable stays 0, all five
 * are candidates, k = 2 → the two largest node names' pods are deleted.
 */
export function standardRollingDecision(
  ctx: SyncContext,
  eligible: readonly string[],
  nodeToPods: NodeToPods,
  maxUnavailable: number,
): StandardDecision {
  const minReadySeconds = ctx.ds.spec.minReadySeconds ?? 0;
  let unavailable = 0;
  const replaceNow: Pod[] = [];
  const candidates: Pod[] = [];
  for (const node of eligible) {
    const { newPod, oldPod, excess } = findUpdatedPodsOnNode(
      nodeToPods.get(node) ?? [],
      ctx.hash,
      ctx.generation,
    );
    if (excess) {
      unavailable++; // U1
      continue;
    }
    const goneO = !oldPod || isPreDeleting(oldPod);
    const goneN = !newPod || isPreDeleting(newPod);
    if (goneO === goneN) {
      unavailable++; // U2
      continue;
    }
    if (newPod) {
      // U3
      if (!isAvailable(newPod, minReadySeconds, ctx.now)) unavailable++;
      if (isPreDeleting(newPod)) unavailable++;
      continue;
    }
    const o = oldPod as Pod;
    if (!isAvailable(o, minReadySeconds, ctx.now))
      replaceNow.push(o); // U4
    else if (unavailable < maxUnavailable) candidates.push(o); // U5
    // U6: skip
  }
  const k = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
  return { replaceNow, candidates, unavailable, toDelete: [...replaceNow, ...candidates.slice(0, k)] };
}

/** The decisions of the surge walk (§7.4). */
export interface SurgeDecision {
  /** Nodes whose old pod is not available: a new pod now, regardless of the budget (S3). */
  createNow: string[];
  /** Nodes with an available old pod that may surge within the budget (S4). */
  candidates: string[];
  surging: number;
  /** `createNow ++ first k candidates`, `k = min(max(0, maxSurge − surging), |candidates|)`. */
  toCreate: string[];
  /** Old pods whose node has an available new pod (S7). */
  toDelete: Pod[];
}

/**
 * §7.4 the walk over the eligible nodes with surge: S1 excess → surging+1; S2 `gone(o)` →
 * nothing; S3 no `n`, `o` not available → create now; S4 no `n`, `o` available,
 * `surging < maxSurge` → candidate; S5 skip; S6 `n` not available or pre-deleting → surging+1;
 * S7 `n` available → delete `o`.
 *
 * Example (5 nodes, maxSurge 2, all old pods available, no new pods): all five are
 * candidates, surging 0, k = 2 → new pods on the two largest node names.
 */
export function surgeRollingDecision(
  ctx: SyncContext,
  eligible: readonly string[],
  nodeToPods: NodeToPods,
  maxSurge: number,
): SurgeDecision {
  const minReadySeconds = ctx.ds.spec.minReadySeconds ?? 0;
  let surging = 0;
  const createNow: string[] = [];
  const candidates: string[] = [];
  const toDelete: Pod[] = [];
  for (const node of eligible) {
    const { newPod, oldPod, excess } = findUpdatedPodsOnNode(
      nodeToPods.get(node) ?? [],
      ctx.hash,
      ctx.generation,
    );
    if (excess) {
      surging++; // S1
      continue;
    }
    if (!oldPod || isPreDeleting(oldPod)) continue; // S2
    if (!newPod) {
      if (!isAvailable(oldPod, minReadySeconds, ctx.now))
        createNow.push(node); // S3
      else if (surging < maxSurge) candidates.push(node); // S4
      continue; // S5
    }
    if (!isAvailable(newPod, minReadySeconds, ctx.now) || isPreDeleting(newPod))
      surging++; // S6
    else toDelete.push(oldPod); // S7
  }
  const k = Math.min(Math.max(0, maxSurge - surging), candidates.length);
  return { createNow, candidates, surging, toCreate: [...createNow, ...candidates.slice(0, k)], toDelete };
}

/**
 * §7 the rolling-update phase (type `RollingUpdate`, not paused): compute the budgets, the
 * eligible nodes in `order` (kruise-ts iterates them in that order where Go iterates a map),
 * then the standard or the surge walk; the resulting creates/deletes go through `syncNodes`.
 * Returns an error message when a budget value is malformed (the rolling update is skipped).
 */
export function rollingUpdate(ctx: SyncContext, revisions: InPlaceRevisions): string | undefined {
  const desiredNodes: string[] = [];
  for (const node of ctx.nodes) {
    const name = node.metadata?.name ?? '';
    if (ctx.shouldRun.get(name)?.shouldRun) desiredNodes.push(name);
  }
  const budget = updatedDesiredNodeCounts(ctx.ds, desiredNodes, ctx.view);
  if ('error' in budget) return budget.error;
  const eligible = filterDaemonPodsNodeToUpdate(
    ctx.ds,
    ctx.hash,
    ctx.generation,
    budget.nodeToPods,
    ctx.nodesByName,
  );
  if (budget.maxSurge === 0) {
    const decision = standardRollingDecision(ctx, eligible, budget.nodeToPods, budget.maxUnavailable);
    let toDelete = decision.toDelete;
    if (ctx.ds.spec.updateStrategy?.rollingUpdate?.rollingUpdateType === 'InPlaceIfPossible') {
      toDelete = inPlaceUpdatePods(ctx, toDelete, revisions);
    }
    syncNodes(
      ctx,
      [],
      toDelete.map((pod) => ({ pod, reason: Reasons.RecreateUpdate })),
    );
    return undefined;
  }
  const decision = surgeRollingDecision(ctx, eligible, budget.nodeToPods, budget.maxSurge);
  const creates: NodeCreation[] = decision.toCreate.map((node) => ({ node, reason: Reasons.SurgeCreate }));
  syncNodes(
    ctx,
    creates,
    decision.toDelete.map((pod) => ({ pod, reason: Reasons.SurgeHandover })),
  );
  return undefined;
}
