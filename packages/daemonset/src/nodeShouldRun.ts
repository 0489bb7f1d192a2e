// Which nodes should run a daemon pod (docs/reference/daemonset.md §3): the effective tolerations
// (§3.1), the decision table R1-R4 (§3.2) and the required scheduling constraints (§3.3).
import { labelSelectorMatcher, matchNodeSelectorTerms, tolerationToleratesTaint } from '@kruise-ts/core';
import type { Node, PodSpec, Taint, Toleration } from 'kubernetes-types/core/v1.js';
import { DEFAULT_DAEMON_TOLERATIONS, HOST_NETWORK_DAEMON_TOLERATION } from './constants';
import type { DaemonSet } from './types';

/** The two answers of §3 for one node. */
export interface NodeShouldRun {
  /** A pod should be created if none is there. */
  shouldRun: boolean;
  /** An existing pod may stay. */
  shouldContinueRunning: boolean;
}

/** Same key, operator, value and effect (Kubernetes' `MatchToleration`). */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/**
 * Adds `toleration` to a list the way Kubernetes' `AddOrUpdateTolerationInPodSpec` does:
 * an identical one (key, operator, value, effect) is replaced, otherwise it is appended.
 * Returns a new list.
 */
export function addOrUpdateToleration(list: readonly Toleration[], toleration: Toleration): Toleration[] {
  const out: Toleration[] = [];
  let replaced = false;
  for (const t of list) {
    if (!replaced && sameToleration(t, toleration)) {
      out.push({ ...toleration });
      replaced = true;
    } else {
      out.push(t);
    }
  }
  if (!replaced) out.push({ ...toleration });
  return out;
}

/**
 * §3.1: the template's tolerations plus the default daemon tolerations. For example a
 * template toleration `{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute,
 * tolerationSeconds: 300}` is replaced by the default without `tolerationSeconds`.
 */
export function effectiveDaemonTolerations(podSpec: PodSpec | undefined): Toleration[] {
  let list: Toleration[] = [...(podSpec?.tolerations ?? [])];
  for (const t of DEFAULT_DAEMON_TOLERATIONS) list = addOrUpdateToleration(list, t);
  if (podSpec?.hostNetwork) list = addOrUpdateToleration(list, HOST_NETWORK_DAEMON_TOLERATION);
  return list;
}

/**
 * §3.3: the template's `nodeSelector` entries all equal the node's labels and, when
 * `requiredDuringSchedulingIgnoredDuringExecution` is set, one of its terms matches.
 */
export function nodeSatisfiesRequiredConstraints(node: Node, podSpec: PodSpec | undefined): boolean {
  const labels = node.metadata?.labels ?? {};
  const nodeSelector = podSpec?.nodeSelector;
  if (nodeSelector) {
    for (const [k, v] of Object.entries(nodeSelector)) if (labels[k] !== v) return false;
  }
  const required = podSpec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) return matchNodeSelectorTerms(node, required.nodeSelectorTerms ?? []);
  return true;
}

/** The node's NoSchedule/NoExecute taints not tolerated by `tolerations` (PreferNoSchedule is ignored, §3.2). */
export function untoleratedTaints(node: Node, tolerations: readonly Toleration[]): Taint[] {
  const taints = node.spec?.taints;
  if (!taints || taints.length === 0) return [];
  return taints.filter(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !tolerations.some((t) => tolerationToleratesTaint(t, taint)),
  );
}

/** The three answers §3.2 can give, frozen and shared: a pass over many nodes allocates none. */
const NONE: NodeShouldRun = Object.freeze({ shouldRun: false, shouldContinueRunning: false });
const KEEP: NodeShouldRun = Object.freeze({ shouldRun: false, shouldContinueRunning: true });
const RUN: NodeShouldRun = Object.freeze({ shouldRun: true, shouldContinueRunning: true });

/**
 * Whether `node` should run a pod of `daemonSet` (docs/reference/daemonset.md §3.2, rows top to bottom):
 *
 * - R1 template `spec.nodeName` set to another node → `{false, false}`;
 * - R2 required scheduling constraints not met (§3.3) → `{false, false}`;
 * - R3 an untolerated NoSchedule/NoExecute taint → `shouldRun` false, `shouldContinueRunning`
 *   true unless an untolerated taint is NoExecute;
 * - R4 otherwise `{true, true}`.
 *
 * Example: a node tainted `aaa=bbb:NoSchedule` and a template without tolerations gives
 * `{shouldRun: false, shouldContinueRunning: true}`; without the taint `{true, true}`. A
 * cordoned node (`node.kubernetes.io/unschedulable:NoSchedule`) is tolerated by default (§3.4).
 * The answer is a frozen object.
 */
export function nodeShouldRunDaemonPod(node: Node, daemonSet: DaemonSet): NodeShouldRun {
  return daemonNodeDecider(daemonSet)(node);
}

/**
 * {@link nodeShouldRunDaemonPod} for one DaemonSet over many nodes: the template's effective
 * tolerations (§3.1) are worked out once, when the decider is made, instead of once per node.
 *
 * Example: `const decide = daemonNodeDecider(ds); nodes.map(decide)`.
 */
export function daemonNodeDecider(daemonSet: DaemonSet): (node: Node) => NodeShouldRun {
  const podSpec = daemonSet.spec?.template?.spec;
  const tolerations = effectiveDaemonTolerations(podSpec);
  return (node) => {
    if (podSpec?.nodeName && podSpec.nodeName !== (node.metadata?.name ?? '')) return NONE; // R1
    if (!nodeSatisfiesRequiredConstraints(node, podSpec)) return NONE; // R2
    const untolerated = untoleratedTaints(node, tolerations);
    if (untolerated.length > 0) {
      // R3
      return untolerated.some((t) => t.effect === 'NoExecute') ? NONE : KEEP;
    }
    return RUN; // R4
  };
}

/**
 * Whether a node is selected by `rollingUpdate.selector` (§1.1, §7.2): false for `OnDelete`,
 * without a rolling-update block or without a selector.
 */
export function nodeShouldUpdateBySelector(node: Node, daemonSet: DaemonSet): boolean {
  const strategy = daemonSet.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate' || !strategy.rollingUpdate?.selector) return false;
  return labelSelectorMatcher(strategy.rollingUpdate.selector)(node.metadata?.labels ?? {});
}
