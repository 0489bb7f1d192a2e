// The simulator's minimal apps/v1 ReplicaSet controller — an APPROXIMATION of Kubernetes'
// ReplicaSet controller, so Deployments (and UnitedDeployment's Deployment subsets) get pods:
// it creates pods from the template (generateName `<rs>-`, a controller ownerReference) until
// `spec.replicas` active pods exist, deletes the surplus in Kubernetes' ranking order
// (unscheduled, pending, not ready, ready for less time, more restarts, newer first), and writes
// status (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas with minReadySeconds,
// observedGeneration). At most `burstReplicas` (500) creates or deletes per reconcile, as
// Kubernetes', then a requeue at once. No orphan adoption, no slow-start batches, no expectations.
import type { KubeObject } from '@kruise-ts/api';
import {
  type Action,
  canonicalJSON,
  DEFAULT_BURST_REPLICAS,
  isPodActive,
  isPodAvailable,
  isPodReady,
  type KindRef,
  kindRef,
  POD,
  podReadySince,
  REQUEUE_NOW,
  type ReconcileResult,
  refOf,
  timeOf,
} from '@kruise-ts/core';
import type { ReplicaSet, ReplicaSetStatus } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { controlledOfKind } from './owned';
import { reconcileOfKind } from './reconcileOfKind';
import type { ControllerRegistration } from './registration';

/** ReplicaSets (`apps/v1`). */
export const REPLICA_SET: KindRef<ReplicaSet> = kindRef('apps/v1', 'ReplicaSet');

/** Pending < Unknown < Running (Kubernetes' `ActivePods` phase order). */
const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * Kubernetes' deletion preference: true when `a` should be deleted before `b` — unscheduled
 * before scheduled, Pending before Unknown before Running, not ready before ready, ready for less
 * time first, more restarts first, newer first (then by name, for determinism).
 *
 * Example: a Pending pod goes before a Running one; of two ready pods the one ready since 10:05
 * goes before the one ready since 10:00.
 */
export function deleteFirst(a: Pod, b: Pod): number {
  const boundA = a.spec?.nodeName ? 1 : 0;
  const boundB = b.spec?.nodeName ? 1 : 0;
  if (boundA !== boundB) return boundA - boundB;
  const pa = PHASE_RANK[a.status?.phase ?? 'Pending'] ?? 0;
  const pb = PHASE_RANK[b.status?.phase ?? 'Pending'] ?? 0;
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a) ? 1 : 0;
  const rb = isPodReady(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  if (ra === 1) {
    const sa = podReadySince(a)?.getTime() ?? 0;
    const sb = podReadySince(b)?.getTime() ?? 0;
    if (sa !== sb) return sb - sa; // ready for less time (later since) first
  }
  const restarts = (p: Pod) =>
    Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  const ca = a.metadata?.creationTimestamp ?? '';
  const cb = b.metadata?.creationTimestamp ?? '';
  if (ca !== cb) return ca < cb ? 1 : -1; // newer first
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** The pod a ReplicaSet creates from its template. */
export function newReplicaSetPod(rs: ReplicaSet): Pod {
  const t = rs.spec?.template ?? {};
  const name = rs.metadata?.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(t.metadata ?? {}),
      generateName: `${name}-`,
      namespace: rs.metadata?.namespace,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name,
          uid: rs.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: t.spec ?? { containers: [] },
  } as Pod;
}

/**
 * One ReplicaSet reconcile from its controlled pods. Status counts the pods as observed (before
 * this reconcile's creates and deletes), as Kubernetes' does. Like Kubernetes' `burstReplicas`,
 * at most 500 pods are created or deleted, and a reconcile with more to do asks to run again at
 * once: a Deployment of 2,147,483,647 replicas gets 500 pods a reconcile.
 *
 * Example: replicas 3, pods [ready, pending] → one create; status `{replicas: 2, readyReplicas: 1, ...}`.
 */
export function reconcileReplicaSet(
  rs: ReplicaSet,
  owned: Pod[],
  now: string,
): ReconcileResult<ReplicaSetStatus> {
  const replicas = rs.spec?.replicas ?? 1;
  const minReady = rs.spec?.minReadySeconds ?? 0;
  const active = owned.filter((p) => isPodActive(p));
  const actions: Action[] = [];
  const diff = active.length - replicas;
  let burstLimited = false;
  if (diff < 0 && !rs.metadata?.deletionTimestamp) {
    const n = Math.min(-diff, DEFAULT_BURST_REPLICAS);
    burstLimited = n < -diff;
    for (let i = 0; i < n; i++)
      actions.push({ verb: 'create', object: newReplicaSetPod(rs) as KubeObject, reason: 'ScaleUp' });
  } else if (diff > 0) {
    const n = Math.min(diff, DEFAULT_BURST_REPLICAS);
    burstLimited = n < diff;
    for (const p of [...active].sort(deleteFirst).slice(0, n))
      actions.push({ verb: 'delete', target: refOf(p as KubeObject), reason: 'ScaleDown' });
  }
  const tmplLabels = rs.spec?.template?.metadata?.labels ?? {};
  const fullyLabeled = active.filter((p) =>
    Object.entries(tmplLabels).every(([k, v]) => p.metadata?.labels?.[k] === v),
  ).length;
  const ready = active.filter((p) => isPodReady(p));
  const available = ready.filter((p) => isPodAvailable(p, minReady, now));
  let requeueAfterSeconds: number | undefined;
  for (const p of ready) {
    if (available.includes(p)) continue;
    const since = podReadySince(p)?.getTime();
    if (since === undefined) continue;
    const wait = Math.max(1, Math.ceil((since + minReady * 1000 - timeOf(now)) / 1000) + 1);
    requeueAfterSeconds = requeueAfterSeconds === undefined ? wait : Math.min(requeueAfterSeconds, wait);
  }
  const status: ReplicaSetStatus = {
    replicas: active.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready.length,
    availableReplicas: available.length,
    ...(rs.metadata?.generation !== undefined ? { observedGeneration: rs.metadata.generation } : {}),
  };
  if (canonicalJSON(status) !== canonicalJSON(rs.status ?? {}))
    actions.push({ verb: 'updateStatus', target: refOf(rs as KubeObject), status, reason: 'UpdateStatus' });
  if (burstLimited) requeueAfterSeconds = REQUEUE_NOW;
  return {
    actions,
    status,
    errors: [],
    ...(requeueAfterSeconds !== undefined ? { requeueAfterSeconds } : {}),
  };
}

/** The apps/v1 ReplicaSet controller (an approximation, see the file header). */
export const replicaSetController: ControllerRegistration = {
  kind: 'ReplicaSet',
  apiVersion: 'apps/v1',
  reconcile: reconcileOfKind(REPLICA_SET, (store, rs, now) =>
    reconcileReplicaSet(rs, controlledOfKind(store, rs, POD), now),
  ),
};
