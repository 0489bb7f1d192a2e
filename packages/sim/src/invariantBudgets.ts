// The rollout budget of each workload kind the invariants judge, computed from
// the stored object as the reference pages state it (not by calling the
// controllers, so the checks do not trust the code they check):
// - CloneSet: docs/reference/cloneset.md §5.1 (maxSurge rounded up, maxUnavailable
//   rounded down when surging, default 20%; no surge while paused) and §5.2 partition;
// - Advanced StatefulSet: docs/reference/statefulset.md §R8.3 (maxUnavailable rounded down,
//   at least 1, 1 without rollingUpdate) and §R9.1 (partition a count of pods);
// - Advanced DaemonSet: docs/reference/daemonset.md §7.1 (percent of the desired nodes
//   rounded up, nil is 0, 0/0 becomes maxUnavailable 1).
import type { KubeObject } from '@kruise-ts/api';
import { legacyValueFromIntOrPercent, tryCalculatePartitionReplicas } from '@kruise-ts/core';

/** A workload kind whose pods the budget invariants follow through owner references. */
export type BudgetKind = 'CloneSet' | 'StatefulSet' | 'DaemonSet';

/** The kinds (with the apiVersion to list them) the budget invariants judge. */
export const BUDGET_KINDS: readonly { kind: BudgetKind; apiVersion: string }[] = [
  { kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1' },
  { kind: 'StatefulSet', apiVersion: 'apps.kruise.io/v1beta1' },
  { kind: 'DaemonSet', apiVersion: 'apps.kruise.io/v1alpha1' },
];

/** What a workload may do during a rollout. */
export interface WorkloadBudget {
  /** The pods it should have (DaemonSet: the nodes that should run a pod). */
  replicas: number;
  maxUnavailable: number;
  maxSurge: number;
  partition: number;
  /** Whether the maxUnavailable budget bounds its take-downs (a surging DaemonSet ignores it, §7.4). */
  unavailableApplies: boolean;
}

type J = Record<string, any>;

function legacy(v: unknown, total: number, roundUp: boolean, dflt: number | string): number {
  try {
    return legacyValueFromIntOrPercent((v ?? dflt) as number | string, total, roundUp);
  } catch {
    return 0;
  }
}

/** DaemonSet's scaling of an int-or-percent: ceil for a percent, nil and junk 0 (§7.1). */
function daemonScaled(v: unknown, total: number): number {
  if (typeof v === 'number') return Math.max(0, Math.trunc(v));
  if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v);
    if (m) return Math.ceil((Number(m[1]) * total) / 100);
    const n = /^\d+$/.exec(v);
    return n ? Number(v) : 0;
  }
  return 0;
}

/** The budget of a CloneSet, Advanced StatefulSet or Advanced DaemonSet. */
export function workloadBudget(kind: BudgetKind, obj: KubeObject): WorkloadBudget {
  const spec = (obj.spec ?? {}) as J;
  if (kind === 'CloneSet') {
    const r = spec.replicas ?? 1;
    const us = spec.updateStrategy ?? {};
    const maxSurge = us.paused ? 0 : legacy(us.maxSurge, r, true, 0);
    const maxUnavailable = legacy(us.maxUnavailable, r, maxSurge === 0, '20%');
    const partition = tryCalculatePartitionReplicas(us.partition ?? null, r).value;
    return { replicas: r, maxUnavailable, maxSurge, partition, unavailableApplies: true };
  }
  if (kind === 'StatefulSet') {
    const r = spec.replicas ?? 1;
    const ru = spec.updateStrategy?.rollingUpdate;
    const maxUnavailable = ru ? Math.max(1, legacy(ru.maxUnavailable, r, false, 1)) : 1;
    const partition = typeof ru?.partition === 'number' ? Math.max(0, ru.partition) : 0;
    return { replicas: r, maxUnavailable, maxSurge: 0, partition, unavailableApplies: true };
  }
  const desired = ((obj.status ?? {}) as J).desiredNumberScheduled ?? 0;
  const ru = spec.updateStrategy?.rollingUpdate ?? {};
  let maxUnavailable = daemonScaled(ru.maxUnavailable, desired);
  const maxSurge = daemonScaled(ru.maxSurge, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  const partition = typeof ru.partition === 'number' ? ru.partition : 0;
  return { replicas: desired, maxUnavailable, maxSurge, partition, unavailableApplies: maxSurge === 0 };
}
