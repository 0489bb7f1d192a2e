// `rollout status`'s verdict on one object: the progress line to print and whether the rollout is
// done, computed from the kind's status fields alone (pure, no I/O), in the wording of
// `kubectl rollout status`. What each status field counts is in docs/reference: cloneset.md §13
// and cloneset.md §5.2 (partition), statefulset.md §13, daemonset.md §10, sidecarset.md SS-5.4.1,
// uniteddeployment.md §10.
//
// A rollout is done once the controller has observed the latest spec (observedGeneration), the
// pods that should be on the update revision are there (all of them, or all but the partition)
// and those are available; old pods beyond the desired count must be gone too.
import type { WorkloadKind } from './workloads';

/** The verdict: a line to print, whether the rollout is done, or an error that ends the wait. */
export type RolloutVerdict = { message: string; done: boolean } | { error: string };

type Obj = Record<string, any>;

const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

/**
 * Resolves an int-or-percent partition against `total`: an integer is clamped to [0, total]; a
 * `"x%"` is `x·total/100`, rounded up (`roundUp`) or down, then clamped; anything else is 0.
 * With `atLeastOneToUpdate`, a percentage under 100% leaves at least one pod to update when
 * total > 1 (cloneset.md §5.2 rule 4).
 */
export function resolvePartition(
  value: unknown,
  total: number,
  roundUp: boolean,
  atLeastOneToUpdate = false,
): number {
  let p = 0;
  if (typeof value === 'number' && Number.isFinite(value)) p = Math.trunc(value);
  else if (typeof value === 'string' && /^\d+(\.\d+)?%$/.test(value)) {
    const exact = (Number.parseFloat(value) * total) / 100;
    p = roundUp ? Math.ceil(exact) : Math.floor(exact);
    if (atLeastOneToUpdate && total > 1 && p === total && value !== '100%') p = total - 1;
  }
  return Math.min(Math.max(p, 0), total);
}

function notObserved(obj: Obj): boolean {
  const generation = num(obj.metadata?.generation);
  const observed = obj.status?.observedGeneration;
  return typeof observed !== 'number' || generation > observed;
}

/** The counts of a replica-based rollout, in one shape for every kind. */
interface Progress {
  /** Pods wanted in total (`spec.replicas`, or the daemon set's desired nodes). */
  desired: number;
  /** Pods that should be on the update revision: desired minus the partition. */
  target: number;
  partition: number;
  updated: number;
  available: number;
  /** Pods that exist (any revision); more than desired means old pods are still terminating. */
  existing: number;
  paused: boolean;
}

function verdict(
  noun: string,
  name: string,
  resource: string,
  p: Progress,
  units: 'replicas' | 'pods',
): RolloutVerdict {
  const waiting = `Waiting for ${noun} "${name}" rollout to finish: `;
  const pausedNote = p.paused
    ? ` (the rollout is paused; resume it with kruise-ts rollout resume ${resource}/${name})`
    : '';
  if (p.updated < p.target) {
    if (p.partition > 0)
      return {
        message: `Waiting for partitioned roll out to finish: ${p.updated} out of ${p.target} new pods have been updated...${pausedNote}`,
        done: false,
      };
    return {
      message: `${waiting}${p.updated} out of ${p.target} new ${units} have been updated...${pausedNote}`,
      done: false,
    };
  }
  if (p.existing > p.desired)
    return {
      message: `${waiting}${p.existing - p.desired} old ${units} are pending termination...`,
      done: false,
    };
  if (p.available < p.target)
    return {
      message: `${waiting}${p.available} of ${p.target} updated ${units} are available...`,
      done: false,
    };
  if (p.partition > 0)
    return {
      message: `partitioned roll out complete: ${p.updated} new pods have been updated...`,
      done: true,
    };
  return { message: `${resource}/${name} successfully rolled out`, done: true };
}

function cloneSetProgress(obj: Obj): Progress {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  const desired = num(spec.replicas, 1);
  const partition = resolvePartition(spec.updateStrategy?.partition, desired, true, true);
  return {
    desired,
    target: desired - partition,
    partition,
    updated: num(status.updatedReplicas),
    available: num(status.updatedAvailableReplicas, num(status.updatedReadyReplicas)),
    existing: num(status.replicas),
    paused: spec.updateStrategy?.paused === true,
  };
}

function statefulSetProgress(obj: Obj): Progress {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  const desired = num(spec.replicas, 1);
  const rolling = spec.updateStrategy?.rollingUpdate ?? {};
  const partition = resolvePartition(rolling.partition, desired, true);
  return {
    desired,
    target: desired - partition,
    partition,
    updated: num(status.updatedReplicas),
    available: num(status.updatedAvailableReplicas, num(status.updatedReadyReplicas)),
    existing: num(status.replicas),
    paused: rolling.paused === true,
  };
}

function daemonSetProgress(obj: Obj): Progress {
  const status = obj.status ?? {};
  const desired = num(status.desiredNumberScheduled);
  const rolling = obj.spec?.updateStrategy?.rollingUpdate ?? {};
  const partition = resolvePartition(rolling.partition, desired, false);
  return {
    desired,
    target: desired - partition,
    partition,
    updated: num(status.updatedNumberScheduled),
    // numberAvailable counts every available node; with a partition the old ones count too, so the
    // updated-and-available count is bounded by the updated count.
    available: Math.min(num(status.numberAvailable), num(status.updatedNumberScheduled)),
    existing: num(status.currentNumberScheduled) + num(status.numberMisscheduled),
    paused: rolling.paused === true,
  };
}

function sidecarSetProgress(obj: Obj): Progress {
  const status = obj.status ?? {};
  const matched = num(status.matchedPods);
  const strategy = obj.spec?.updateStrategy ?? {};
  const partition = resolvePartition(strategy.partition, matched, true);
  return {
    desired: matched,
    target: strategy.type === 'NotUpdate' ? 0 : matched - partition,
    partition,
    updated: num(status.updatedPods),
    available: num(status.updatedReadyPods),
    existing: matched,
    paused: strategy.paused === true,
  };
}

function unitedDeploymentProgress(obj: Obj): Progress {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  const desired = num(spec.replicas, 1);
  const partitions = spec.updateStrategy?.manualUpdate?.partitions ?? {};
  const partition = Math.min(
    desired,
    Object.values(partitions as Record<string, unknown>).reduce<number>((s, v) => s + Math.max(num(v), 0), 0),
  );
  return {
    desired,
    target: desired - partition,
    partition,
    updated: num(status.updatedReplicas),
    available: num(status.updatedReadyReplicas),
    existing: num(status.replicas),
    paused: false,
  };
}

/**
 * The rollout verdict for `obj`, an object of `kind`.
 *
 * Example: a CloneSet `sample` with spec.replicas 5, generation 2 observed, 2 updated pods →
 * `{message: 'Waiting for cloneset "sample" rollout to finish: 2 out of 5 new replicas have been
 * updated...', done: false}`; all 5 updated and available → `{message:
 * 'cloneset.apps.kruise.io/sample successfully rolled out', done: true}`.
 */
export function rolloutStatus(kind: WorkloadKind, obj: Obj): RolloutVerdict {
  const name = String(obj.metadata?.name ?? '');
  const strategyType = obj.spec?.updateStrategy?.type;
  if ((kind.kind === 'StatefulSet' || kind.kind === 'DaemonSet') && strategyType === 'OnDelete')
    return { error: 'rollout status is only available for RollingUpdate strategy type' };
  if (notObserved(obj))
    return { message: `Waiting for ${kind.noun} spec update to be observed...`, done: false };
  switch (kind.kind) {
    case 'CloneSet':
      return verdict(kind.noun, name, kind.resource, cloneSetProgress(obj), 'replicas');
    case 'StatefulSet':
      return verdict(kind.noun, name, kind.resource, statefulSetProgress(obj), 'replicas');
    case 'DaemonSet':
      return verdict(kind.noun, name, kind.resource, daemonSetProgress(obj), 'pods');
    case 'SidecarSet':
      return verdict(kind.noun, name, kind.resource, sidecarSetProgress(obj), 'pods');
    case 'UnitedDeployment':
      return verdict(kind.noun, name, kind.resource, unitedDeploymentProgress(obj), 'replicas');
    default:
      return { error: `no status viewer has been implemented for ${kind.kind}` };
  }
}
