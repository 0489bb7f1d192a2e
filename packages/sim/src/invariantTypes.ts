// The vocabulary of the invariant checks: their names, how a scenario asks for
// one, a violation and the outcome of one invariant over a run. In a module of
// its own so the per-kind checks and the checker can share it without a cycle.

/** The invariants the simulator knows. */
export type InvariantName =
  | 'maxUnavailable'
  | 'maxSurge'
  | 'partition'
  | 'ordering'
  | 'subsetSums'
  | 'parallelism';
/** Every invariant name. */
export const INVARIANT_NAMES: readonly InvariantName[] = [
  'maxUnavailable',
  'maxSurge',
  'partition',
  'ordering',
  'subsetSums',
  'parallelism',
];

/**
 * The kinds each invariant is judged for: maxUnavailable for CloneSet, Advanced StatefulSet,
 * Advanced DaemonSet and SidecarSet; maxSurge for CloneSet and DaemonSet (per node);
 * partition for CloneSet, StatefulSet and SidecarSet; ordering for StatefulSet (OrderedReady); subsetSums
 * for UnitedDeployment; parallelism for ImagePullJob.
 */
export const INVARIANT_KINDS: Readonly<Record<InvariantName, readonly string[]>> = {
  maxUnavailable: ['CloneSet', 'StatefulSet', 'DaemonSet', 'SidecarSet'],
  maxSurge: ['CloneSet', 'DaemonSet'],
  partition: ['CloneSet', 'StatefulSet', 'SidecarSet'],
  ordering: ['StatefulSet'],
  subsetSums: ['UnitedDeployment'],
  parallelism: ['ImagePullJob'],
};

/** One invariant to check, optionally restricted to one object. */
export interface InvariantConfig {
  name: InvariantName;
  /** Restrict to the workload with this name (default: every workload of every kind it applies to). */
  objectName?: string;
  namespace?: string;
  /** Restrict to one kind (`CloneSet`, `StatefulSet`, `DaemonSet`, `SidecarSet`, `UnitedDeployment`, `ImagePullJob`). */
  kind?: string;
}

/** One violation: when, what, and the objects involved. */
export interface Violation {
  t: number;
  time: string;
  invariant: InvariantName;
  object: string;
  message: string;
  pods: string[];
}

/** The outcome of one invariant over a run. */
export interface InvariantReport {
  name: InvariantName;
  objectName?: string;
  namespace?: string;
  kind?: string;
  /** Judgements made, over every workload it applies to. */
  checks: number;
  /** Judgements per kind (`{DaemonSet: 40}`): which kinds it was checked on. */
  checksByKind: Record<string, number>;
  violations: Violation[];
}

/** One judgement of one invariant on one object at a settle: `message` set when it failed. */
export interface Verdict {
  invariant: InvariantName;
  /** The judged object's kind, namespace (namespaced kinds) and name. */
  kind: string;
  namespace?: string;
  name: string;
  /** `Kind/namespace/name`. */
  object: string;
  message?: string;
  pods?: string[];
}

/** `true` when `name` is an invariant the simulator knows. */
export function isInvariantName(name: unknown): name is InvariantName {
  return typeof name === 'string' && (INVARIANT_NAMES as readonly string[]).includes(name);
}
