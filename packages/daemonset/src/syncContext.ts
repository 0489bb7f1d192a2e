// The facts one reconcile works from and `syncNodes` (docs/reference/daemonset.md §5.6): the node →
// pods view that later phases see (creates and deletes are observed synchronously, §2 step 6),
// the nodes' §3 answers and the per-sync burst; the actions, events and requeue requests go to
// core's ReconcileRecorder, which the context holds.
import {
  type FeatureGates,
  type InPlaceCache,
  mergePatchDiff,
  type ReconcileRecorder,
  toRFC3339,
} from '@kruise-ts/core';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { FailedPodsBackoff } from './backoff';
import { Reasons } from './constants';
import { compareOldestFirst, getTargetNodeName, type NodeToPods, podRef } from './nodePods';
import type { NodeShouldRun } from './nodeShouldRun';
import { newDaemonPod } from './podTemplate';
import { filterPreDelete } from './preDelete';
import type { DaemonSet } from './types';

/** Working state shared by the phases of one reconcile. */
export interface SyncContext {
  /** The DaemonSet with the §1.2 defaults. */
  ds: DaemonSet;
  now: string | Date;
  seed: number;
  /** Current revision hash `H`. */
  hash: string;
  /** Legacy template generation, if the DaemonSet has one. */
  generation: number | undefined;
  nodes: readonly Node[];
  nodesByName: ReadonlyMap<string, Node>;
  shouldRun: ReadonlyMap<string, NodeShouldRun>;
  /** Node → pods as the next phase sees them (each list oldest first). */
  view: NodeToPods;
  /** Pod names taken in the namespace (new names avoid them). */
  takenNames: Set<string>;
  /** Pods created by this reconcile (not refreshed in the same call). */
  createdNames: Set<string>;
  /**
   * The reconcile's actions in the order it issues them, its events and its requeue requests
   * (the smallest delay wins, §11).
   */
  rec: ReconcileRecorder;
  backoff: FailedPodsBackoff;
  /** Max creates / deletes / in-place updates per sync (§5.6). */
  burst: number;
  /**
   * The burst left creates, deletes or in-place updates for a later sync: the reconcile then
   * answers `requeueAfterSeconds: 0` (run again at once) instead of waiting for pod events.
   */
  burstLimited?: boolean;
  assignPodsByScheduler: boolean;
  /**
   * The reconcile's gates; reconcileDaemonSet resolves and freezes them once (core's
   * `freezeFeatureGates`), so core's per-pod calls read them instead of resolving a copy each.
   */
  featureGates: Partial<FeatureGates>;
  /**
   * What core's in-place functions remember during this reconcile (decoded state annotations,
   * the last encoded state, change hints): made per reconcile, dropped with it.
   */
  inPlaceCache: InPlaceCache;
}

/** A pod to delete and why. */
export interface PodDeletion {
  pod: Pod;
  reason: string;
}

/** A node to create a pod on and why. */
export interface NodeCreation {
  node: string;
  reason: string;
}

/** Replaces (or removes, with `next` undefined) a pod in the view. */
export function replaceInView(ctx: SyncContext, pod: Pod, next: Pod | undefined): void {
  const node = getTargetNodeName(pod);
  if (node === undefined) return;
  const list = ctx.view.get(node);
  if (!list) return;
  const name = pod.metadata?.name;
  const idx = list.findIndex((p) => p === pod || (name !== undefined && p.metadata?.name === name));
  if (idx < 0) return;
  const copy = [...list];
  if (next) copy[idx] = next;
  else copy.splice(idx, 1);
  copy.sort(compareOldestFirst);
  if (copy.length === 0) ctx.view.delete(node);
  else ctx.view.set(node, copy);
}

/**
 * Emits the writes that turn `pod` into `next`: an `updateStatus` with the whole new status
 * when the status changed (the status subresource, as Kruise writes conditions first), then
 * a JSON merge patch of the metadata/spec changes; the view gets `next`.
 */
export function emitPodChange(ctx: SyncContext, pod: Pod, next: Pod, reason: string): void {
  if (mergePatchDiff(pod.status, next.status) !== undefined) {
    ctx.rec.act({ verb: 'updateStatus', target: podRef(pod), status: next.status ?? {}, reason });
  }
  const patch: Record<string, unknown> = {};
  for (const key of ['metadata', 'spec'] as const) {
    const d = mergePatchDiff(pod[key], next[key]);
    if (d !== undefined) patch[key] = d;
  }
  if (Object.keys(patch).length > 0) {
    ctx.rec.act({ verb: 'patch', target: podRef(pod), patchType: 'merge', patch, reason });
  }
  replaceInView(ctx, pod, next);
}

/**
 * A rule asks to run again after `seconds`. Only a positive, finite delay counts (§11: the
 * reconcile requeues after the smallest *positive* delay asked for); a rule whose moment has
 * already passed gives 0 or less and asks for nothing.
 */
export function requestRequeue(ctx: SyncContext, seconds: number): void {
  if (seconds > 0 && Number.isFinite(seconds)) ctx.rec.requeueAfter(seconds);
}

/**
 * §5.6 `syncNodes`: deletions go through the preDelete filter (§9; hooked pods are marked,
 * not deleted), then creates are limited to the first `burst` nodes and deletes to the first
 * `burst` pods (what the cut leaves over sets `burstLimited`). Created pods enter the view (not
 * ready, created `now`); deleted pods leave it.
 * Creates are all issued at once (the slow-start batches only matter when a create fails).
 */
export function syncNodes(
  ctx: SyncContext,
  creates: readonly NodeCreation[],
  deletes: readonly PodDeletion[],
): void {
  const filtered = filterPreDelete(
    ctx.ds,
    deletes.map((d) => d.pod),
    ctx.now,
  );
  for (const m of filtered.marked) emitPodChange(ctx, m.before, m.pod, Reasons.PreparingDelete);
  const deletable = new Set(filtered.toDelete);
  const allDeletes = deletes.filter((d) => deletable.has(d.pod));
  const toDelete = allDeletes.slice(0, ctx.burst);
  const toCreate = creates.slice(0, ctx.burst);
  if (toDelete.length < allDeletes.length || toCreate.length < creates.length) ctx.burstLimited = true;
  const createdAt = toRFC3339(ctx.now);
  for (const c of toCreate) {
    const pod = newDaemonPod(ctx.ds, c.node, {
      hash: ctx.hash,
      seed: ctx.seed,
      takenNames: ctx.takenNames,
      assignPodsByScheduler: ctx.assignPodsByScheduler,
    });
    ctx.rec.act({ verb: 'create', object: pod, reason: c.reason });
    ctx.createdNames.add(pod.metadata?.name ?? '');
    const seen: Pod = { ...pod, metadata: { ...pod.metadata, creationTimestamp: createdAt } };
    const list = [...(ctx.view.get(c.node) ?? []), seen].sort(compareOldestFirst);
    ctx.view.set(c.node, list);
  }
  for (const d of toDelete) {
    const uid = d.pod.metadata?.uid;
    ctx.rec.act({
      verb: 'delete',
      target: podRef(d.pod),
      reason: d.reason,
      ...(uid ? { preconditions: { uid } } : {}),
    });
    // As an API server would: a pod with finalizers stays, marked deleting; others are gone.
    const gone = (d.pod.metadata?.finalizers ?? []).length === 0;
    replaceInView(
      ctx,
      d.pod,
      gone ? undefined : { ...d.pod, metadata: { ...d.pod.metadata, deletionTimestamp: createdAt } },
    );
  }
}
