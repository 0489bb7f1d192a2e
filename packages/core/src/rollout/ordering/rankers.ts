// Scale-in rankers (docs/reference/cloneset.md §8.3 rule 6) and "take k from a group" (§8.3): the
// same-node ranker, the topology-spread ranker, the choice between them, and picking the pods
// to delete from the not-updated or updated group.
import type { Node, Pod, TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import { compareForScaleIn, type ScaleInOrderOptions } from './deletion';

/** The node label whose topology makes every same-node rank 0 in the spread ranker. */
export const TOPOLOGY_KEY_HOSTNAME = 'kubernetes.io/hostname';

/**
 * Same-node ranker (used when the template has no `topologySpreadConstraints`): on each node
 * holding k ≥ 2 of `pods`, sort those pods by the scale-in order without availability and rank
 * (rules 1, 2, 4, 5, 7, 8, 9), drop the last (the most valuable) and rank the rest k-1, k-2, …, 1
 * in that order. Every other pod (the best on its node, alone on its node, unscheduled) has rank 0.
 * The map has an entry for every pod.
 *
 * Example: node d holds 5 equal pods d-0…d-4 → ranks 4, 3, 2, 1, 0; node b holds b-0, b-1 → 1, 0;
 * a pod alone on its node → 0.
 */
export function sameNodeRanks<P extends Pod>(pods: readonly P[]): Map<P, number> {
  const ranks = new Map<P, number>();
  const byNode = new Map<string, P[]>();
  for (const pod of pods) {
    ranks.set(pod, 0);
    const node = pod.spec?.nodeName ?? '';
    if (node === '') continue;
    const list = byNode.get(node);
    if (list) list.push(pod);
    else byNode.set(node, [pod]);
  }
  for (const group of byNode.values()) {
    if (group.length < 2) continue;
    const sorted = [...group].sort((a, b) => compareForScaleIn(a, b));
    const k = sorted.length;
    for (let i = 0; i < k - 1; i++) ranks.set(sorted[i], k - 1 - i);
  }
  return ranks;
}

/** Options of {@link spreadConstraintRanks}. */
export interface SpreadRankOptions {
  /** Per topology key, the only label values considered (plain CloneSets never set it). */
  limitedValues?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Topology-spread ranker (used when the template has `topologySpreadConstraints`; only their
 * `topologyKey`s matter). For each constraint, the pods are grouped by their node's label value
 * for the key — skipping unscheduled pods, pods whose node is not in `nodes`, nodes without the
 * label, and values outside `limitedValues[key]` when set. Each group is sorted by the scale-in
 * order without availability (rules 1, 2, 4–9), using the same-node ranks of `pods` as rule 6
 * unless the key is `kubernetes.io/hostname` (then every rank is 0). The i-th pod (0-based) of a
 * group of size g gains `(g - i) * ln(numberOfGroups + 2)`; gains add up over the constraints.
 * The map has an entry for every pod (0 when it gained nothing).
 *
 * Worked example (upstream `TestSpreadConstraintsRanker/zone{no limit}`): zones z1 (nodes b, c, d
 * with 2, 3, 5 pods), z2 (e, f with 5, 3), z3 (i with 5), node a unlabelled. Three groups, so the
 * factor is ln 5. In z1 the same-node ranks order the pods d-0(4), d-1(3), c-0(2), d-2(2), b-0(1),
 * c-1(1), d-3(1), b-1, c-2, d-4 (0), so d-0 gains 10·ln 5, d-1 9·ln 5, …, d-4 1·ln 5; a-0, a-1 gain 0.
 */
export function spreadConstraintRanks<P extends Pod>(
  pods: readonly P[],
  constraints: ReadonlyArray<Pick<TopologySpreadConstraint, 'topologyKey'>>,
  nodes: readonly Node[],
  opts: SpreadRankOptions = {},
): Map<P, number> {
  const ranks = new Map<P, number>();
  for (const pod of pods) ranks.set(pod, 0);
  const nodeByName = new Map<string, Node>();
  for (const node of nodes) if (node.metadata?.name) nodeByName.set(node.metadata.name, node);
  const nodeRanks = sameNodeRanks(pods);

  for (const { topologyKey } of constraints) {
    const lv = opts.limitedValues;
    const limited = lv && Object.hasOwn(lv, topologyKey) ? lv[topologyKey] : undefined;
    const groups = new Map<string, P[]>();
    for (const pod of pods) {
      const node = nodeByName.get(pod.spec?.nodeName ?? '');
      const labels = node?.metadata?.labels;
      if (!labels || !Object.hasOwn(labels, topologyKey)) continue;
      const value = labels[topologyKey];
      if (limited && !limited.includes(value)) continue;
      const group = groups.get(value);
      if (group) group.push(pod);
      else groups.set(value, [pod]);
    }
    const factor = Math.log(groups.size + 2);
    const opt: ScaleInOrderOptions = topologyKey === TOPOLOGY_KEY_HOSTNAME ? {} : { rank: nodeRanks };
    for (const group of groups.values()) {
      const sorted = [...group].sort((a, b) => compareForScaleIn(a, b, opt));
      const g = sorted.length;
      for (let i = 0; i < g; i++) ranks.set(sorted[i], ranks.get(sorted[i])! + (g - i) * factor);
    }
  }
  return ranks;
}

/** What the ranker choice needs: the template's spread constraints and the nodes they refer to. */
export interface ScaleInRankContext {
  /** `spec.template.spec.topologySpreadConstraints` of the workload. */
  topologySpreadConstraints?: ReadonlyArray<Pick<TopologySpreadConstraint, 'topologyKey'>>;
  /** Nodes the pods may run on (needed by the spread ranker; missing nodes are skipped). */
  nodes?: readonly Node[];
  /** Passed to the spread ranker. */
  limitedValues?: SpreadRankOptions['limitedValues'];
}

/**
 * Rule-6 ranks for a group of pods (docs/reference/cloneset.md §8.3): the spread ranker when the template
 * has topology spread constraints, else the same-node ranker. Build them from the group being
 * chosen from (not-updated or updated), not from all pods.
 */
export function scaleInRanks<P extends Pod>(
  pods: readonly P[],
  ctx: ScaleInRankContext = {},
): Map<P, number> {
  const constraints = ctx.topologySpreadConstraints ?? [];
  if (constraints.length > 0) {
    return spreadConstraintRanks(pods, constraints, ctx.nodes ?? [], { limitedValues: ctx.limitedValues });
  }
  return sameNodeRanks(pods);
}

/**
 * "Take k from a group" (docs/reference/cloneset.md §8.3): when `k` is smaller than the group, rank the
 * group ({@link scaleInRanks}), sort it in scale-in order (with `isAvailable` as rule 3) and take the
 * first `k`; when `k` equals or exceeds the group size, take the whole group as it is (no sort);
 * `k ≤ 0` takes nothing.
 *
 * Example: group `[Running Ready p0, Pending p1, Running Ready p2]`, k = 1 → `[p1]`; k = 3 →
 * `[p0, p1, p2]` unsorted.
 */
export function pickPodsForScaleIn<P extends Pod>(
  group: readonly P[],
  k: number,
  ctx: ScaleInRankContext & { isAvailable?: (pod: Pod) => boolean } = {},
): P[] {
  if (k <= 0) return [];
  if (k >= group.length) return [...group];
  const rank = scaleInRanks(group, ctx);
  return [...group]
    .sort((a, b) => compareForScaleIn(a, b, { isAvailable: ctx.isAvailable, rank }))
    .slice(0, k);
}
