// The simulator's minimal apps/v1 Deployment controller — an APPROXIMATION of Kubernetes'
// Deployment controller as its documentation describes it: one ReplicaSet per pod template
// (`<deployment>-<pod-template-hash>`), a RollingUpdate bounded by maxSurge (rounded up) and
// maxUnavailable (rounded down; both 0 → maxUnavailable 1) or a Recreate, the
// `deployment.kubernetes.io/revision` annotation, revisionHistoryLimit cleanup and status.
// Not modelled: proportional scaling during a rollout (old ReplicaSets are scaled down first),
// progressDeadlineSeconds, rollback, pause beyond "no rollout step", adoption of orphans.
import type { KubeObject } from '@kruise-ts/api';
import {
  type Action,
  canonicalJSON,
  computeHash,
  isPodActive,
  type KindRef,
  kindRef,
  POD,
  type ReconcileResult,
  refOf,
  scaledValueFromIntOrPercent,
} from '@kruise-ts/core';
import type {
  Deployment,
  DeploymentCondition,
  DeploymentStatus,
  ReplicaSet,
} from 'kubernetes-types/apps/v1.js';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { controlledOfKind, ownedOfKind } from './owned';
import { reconcileOfKind } from './reconcileOfKind';
import type { ControllerRegistration } from './registration';
import { REPLICA_SET } from './replicaset';

/** Deployments (`apps/v1`). */
const DEPLOYMENT: KindRef<Deployment> = kindRef('apps/v1', 'Deployment');

export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';

/** A template without the pod-template-hash label (what a ReplicaSet's template is compared by). */
function withoutHash(t: PodTemplateSpec | undefined): PodTemplateSpec {
  const labels = { ...(t?.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH];
  return { ...(t ?? {}), metadata: { ...(t?.metadata ?? {}), labels } };
}

/** Safe integer value of an IntOrString budget (an invalid value counts as 0). */
function budget(v: number | string | undefined, dflt: string, total: number, roundUp: boolean): number {
  try {
    return scaledValueFromIntOrPercent(v ?? dflt, total, roundUp);
  } catch {
    return 0;
  }
}

/**
 * The rolling-update budgets: maxSurge rounded up, maxUnavailable rounded down, both of
 * `replicas`; when both are 0, maxUnavailable is 1 (Kubernetes' `ResolveFenceposts`).
 *
 * Example: replicas 10, defaults 25 %/25 % → surge ceil(2.5) = 3, unavailable floor(2.5) = 2.
 */
export function resolveFenceposts(d: Deployment): { maxSurge: number; maxUnavailable: number } {
  const replicas = d.spec?.replicas ?? 1;
  const ru = d.spec?.strategy?.rollingUpdate;
  const maxSurge = budget(ru?.maxSurge, '25%', replicas, true);
  let maxUnavailable = budget(ru?.maxUnavailable, '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable: Math.min(maxUnavailable, replicas) };
}

const specReplicas = (rs: ReplicaSet) => rs.spec?.replicas ?? 0;
const byAge = (a: ReplicaSet, b: ReplicaSet) =>
  (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
  (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');

/** The new ReplicaSet of a template (name `<deployment>-<hash>`, revision annotation). */
export function newReplicaSet(d: Deployment, replicas: number, revision: number): ReplicaSet {
  const template = d.spec?.template ?? {};
  const hash = computeHash(template, d.status?.collisionCount ?? null);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash };
  const name = d.metadata?.name ?? '';
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${name}-${hash}`,
      namespace: d.metadata?.namespace,
      labels,
      annotations: { [REVISION_ANNOTATION]: String(revision) },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name,
          uid: d.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: {
        ...(d.spec?.selector ?? {}),
        matchLabels: { ...(d.spec?.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash },
      },
      template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
    },
  };
}

/** Input of {@link reconcileDeployment}: the Deployment, its ReplicaSets and their pods. */
export interface DeploymentInput {
  deployment: Deployment;
  replicaSets: ReplicaSet[];
  /** Pods of the ReplicaSets (for Recreate: wait until old pods are gone). */
  pods: Pod[];
  now: string;
}

/**
 * One Deployment reconcile. RollingUpdate: scale the new ReplicaSet up to
 * `min(replicas, replicas + maxSurge − Σ spec.replicas)` more; otherwise scale old ReplicaSets
 * down, first their unavailable pods, then available ones while Σ available > replicas −
 * maxUnavailable (oldest ReplicaSet first).
 *
 * Example: replicas 4, maxSurge 1, maxUnavailable 0, old RS 4 available → new RS 1; once it is
 * available, old RS 3; then new RS 2; …
 */
export function reconcileDeployment(input: DeploymentInput): ReconcileResult<DeploymentStatus> {
  const d = input.deployment;
  const replicas = d.spec?.replicas ?? 1;
  const actions: Action[] = [];
  const rsList = input.replicaSets.filter((rs) => !rs.metadata?.deletionTimestamp);
  const tmpl = canonicalJSON(withoutHash(d.spec?.template));
  const found = rsList.find((rs) => canonicalJSON(withoutHash(rs.spec?.template)) === tmpl);
  const old = rsList.filter((rs) => rs !== found).sort(byAge);
  const want = new Map<ReplicaSet, number>(rsList.map((rs) => [rs, specReplicas(rs)]));
  const { maxSurge, maxUnavailable } = resolveFenceposts(d);
  const total = () => [...want.values()].reduce((a, b) => a + b, 0);
  const paused = d.spec?.paused === true;
  let created: ReplicaSet | undefined;
  const recreate = d.spec?.strategy?.type === 'Recreate';

  if (!paused) {
    const oldActive = old.filter((rs) => (want.get(rs) ?? 0) > 0);
    if (recreate) {
      for (const rs of oldActive) want.set(rs, 0);
      const oldPods = input.pods
        .filter((p) => isPodActive(p) || p.metadata?.deletionTimestamp)
        .filter((p) => p.metadata?.ownerReferences?.some((r) => old.some((o) => o.metadata?.uid === r.uid)));
      if (oldActive.length === 0 && oldPods.length === 0) {
        if (found) want.set(found, replicas);
        else created = newReplicaSet(d, replicas, nextRevision(rsList));
      }
    } else {
      const current = total();
      const base = found ? specReplicas(found) : 0;
      let next = base;
      if (oldActive.length === 0) next = replicas;
      else if (current < replicas + maxSurge)
        next = base + Math.min(replicas + maxSurge - current, replicas - base);
      next = Math.max(0, Math.min(next, replicas));
      if (found) want.set(found, next);
      else created = newReplicaSet(d, next, nextRevision(rsList));
      const newSpec = found ? next : (created?.spec?.replicas ?? 0);
      const newAvail = found?.status?.availableReplicas ?? 0;
      const minAvailable = replicas - maxUnavailable;
      // Old ReplicaSets scale down only when the new one did not grow in this pass.
      if (newSpec === base) {
        const all = total() + (created ? newSpec : 0);
        let room = all - minAvailable - Math.max(0, newSpec - newAvail);
        // 1. Unhealthy (unavailable) old pods first.
        for (const rs of old) {
          if (room <= 0) break;
          const unhealthy = Math.max(0, (want.get(rs) ?? 0) - (rs.status?.availableReplicas ?? 0));
          const n = Math.min(room, unhealthy);
          want.set(rs, (want.get(rs) ?? 0) - n);
          room -= n;
        }
        // 2. Available old pods while enough stay available.
        const available = rsList.reduce(
          (a, rs) => a + Math.min(rs.status?.availableReplicas ?? 0, want.get(rs) ?? 0),
          0,
        );
        let down = available - minAvailable;
        for (const rs of old) {
          if (down <= 0) break;
          const n = Math.min(want.get(rs) ?? 0, down);
          want.set(rs, (want.get(rs) ?? 0) - n);
          down -= n;
        }
      }
    }
  }
  if (created) actions.push({ verb: 'create', object: created as KubeObject, reason: 'CreateReplicaSet' });
  for (const rs of rsList) {
    const n = want.get(rs) ?? 0;
    if (n !== specReplicas(rs))
      actions.push({
        verb: 'patch',
        target: refOf(rs as KubeObject),
        patchType: 'merge',
        patch: { spec: { replicas: n } },
        reason: n > specReplicas(rs) ? 'ScaleUpReplicaSet' : 'ScaleDownReplicaSet',
      });
  }
  // Revision history (revisionHistoryLimit, default 10): fully scaled-down old ReplicaSets, oldest first.
  const limit = d.spec?.revisionHistoryLimit ?? 10;
  const idle = old.filter((rs) => (want.get(rs) ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0);
  for (const rs of idle.slice(0, Math.max(0, idle.length - limit)))
    actions.push({ verb: 'delete', target: refOf(rs as KubeObject), reason: 'CleanupReplicaSet' });

  const status = deploymentStatus(d, rsList, found, maxUnavailable);
  if (canonicalJSON(status) !== canonicalJSON(d.status ?? {}))
    actions.push({ verb: 'updateStatus', target: refOf(d as KubeObject), status, reason: 'UpdateStatus' });
  return { actions, status, errors: [] };
}

function nextRevision(rsList: ReplicaSet[]): number {
  let max = 0;
  for (const rs of rsList)
    max = Math.max(max, Number(rs.metadata?.annotations?.[REVISION_ANNOTATION] ?? 0) || 0);
  return max + 1;
}

/** Status from the ReplicaSets' statuses (Kubernetes' `calculateStatus`). */
export function deploymentStatus(
  d: Deployment,
  rsList: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  maxUnavailable: number,
): DeploymentStatus {
  const sum = (f: (rs: ReplicaSet) => number | undefined) => rsList.reduce((a, rs) => a + (f(rs) ?? 0), 0);
  const replicas = d.spec?.replicas ?? 1;
  const availableReplicas = sum((rs) => rs.status?.availableReplicas);
  const available = availableReplicas >= replicas - maxUnavailable;
  const prev = d.status?.conditions ?? [];
  const cond = (type: string, status: string, reason: string, message: string): DeploymentCondition => {
    const p = prev.find((c) => c.type === type);
    return p && p.status === status && p.reason === reason ? p : { type, status, reason, message };
  };
  return {
    ...(d.metadata?.generation !== undefined ? { observedGeneration: d.metadata.generation } : {}),
    replicas: sum((rs) => rs.status?.replicas),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum((rs) => rs.status?.readyReplicas),
    availableReplicas,
    unavailableReplicas: Math.max(0, replicas - availableReplicas),
    ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
    conditions: [
      available
        ? cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')
        : cond(
            'Available',
            'False',
            'MinimumReplicasUnavailable',
            'Deployment does not have minimum availability.',
          ),
    ],
  };
}

/** The apps/v1 Deployment controller (an approximation, see the file header). */
export const deploymentController: ControllerRegistration = {
  kind: 'Deployment',
  apiVersion: 'apps/v1',
  reconcile: reconcileOfKind(DEPLOYMENT, (store, deployment, now) => {
    const replicaSets = controlledOfKind(store, deployment, REPLICA_SET);
    const pods = replicaSets.flatMap((rs) => ownedOfKind(store, rs, POD));
    return reconcileDeployment({ deployment, replicaSets, pods, now });
  }),
};
