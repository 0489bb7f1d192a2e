// Choosing the pods to upgrade in one round (docs/reference/sidecarset.md SS-5.6): candidates, the
// default / priority / scatter order, the partition and the maxUnavailable walk.
import type { IntOrString, SidecarSet, UpdateScatterStrategy } from '@kruise-ts/api';
import {
  hasPriorityTerms,
  type LabelRequirement,
  labelSelectorAsRequirements,
  requirementMatches,
  scaledValueFromIntOrPercent,
  sortIndexesByActivePods,
  sortUpdateIndexesByPriority,
  sortUpdateIndexesByScatter,
  tryCalculatePartitionReplicas,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { PodFacts } from './predicates';

/**
 * SS-5.6.6 term expansion: a term with value `*` becomes one term per distinct value of that
 * label among **all** matched pods (pod order); terms are de-duplicated by key+value, order kept.
 *
 * Example (upstream `TestParseUpdateScatterTerms`): `[key-1=value-1, …, key-4=*]` over pods
 * labelled `key-4` = value-4-0, value-4-1, value-4-2, value-4 … → `key-4` expands to those four.
 */
export function parseUpdateScatterTerms(
  scatter: UpdateScatterStrategy,
  podLabels: readonly (Readonly<Record<string, string>> | null | undefined)[],
): UpdateScatterStrategy {
  const out: UpdateScatterStrategy = [];
  const seen = new Set<string>();
  const add = (key: string, value: string) => {
    const id = JSON.stringify([key, value]);
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ key, value });
  };
  for (const term of scatter) {
    if (term.value !== '*') {
      add(term.key, term.value);
      continue;
    }
    for (const labels of podLabels) {
      if (labels && Object.hasOwn(labels, term.key)) add(term.key, labels[term.key]);
    }
  }
  return out;
}

/**
 * SS-5.6.3 partition `P` over `total` matched pods: nil → 0; an int clamped to [0, total];
 * `"x%"` → ceil(x·total/100), and when total > 1 and that equals total for a string other than
 * `"100%"`, total − 1; a malformed value → 0.
 *
 * Examples: 99% of 5 → ceil(4.95) = 5 → 4; 1% of 5 → 1; 18% of 1000 → 180.
 */
export function sidecarSetPartition(partition: IntOrString | undefined | null, total: number): number {
  return tryCalculatePartitionReplicas(partition, total).value;
}

/**
 * SS-5.6.4 maxUnavailable `M`: nil → 1; an int as is; `"<integer>%"` → ceil(n·total/100); any
 * other string → 0 (quirk §7.7). Example: `"5%"` of 5 → ceil(0.25) = 1; `"50%"` of 100 → 50.
 */
export function sidecarSetMaxUnavailable(value: IntOrString | undefined | null, total: number): number {
  if (value === undefined || value === null) return 1;
  if (typeof value === 'number') return value;
  if (!/^[0-9]+%$/.test(value)) return 0;
  try {
    return scaledValueFromIntOrPercent(value, total, true);
  } catch {
    return 0;
  }
}

/** The pods to update this round, in order, and the pods that can never be updated in place. */
export interface NextUpgradePods {
  upgrade: Pod[];
  notUpgradable: Pod[];
}

/**
 * SS-5.6: picks this round's pods among the matched pods.
 *
 * 1. Candidates (SS-5.6.1): not updated, selected by `updateStrategy.selector` (nil = all, an
 *    invalid selector = none), and upgradable and not busy (SS-5.5.2); not-upgradable pods are
 *    reported separately.
 * 2. Order (SS-5.6.2): the stable default order (unassigned, Pending < Unknown < Running, not
 *    Ready first, Ready for less time first, more restarts, newer), then the priority sort
 *    (ties: higher matched-pod index first), then the scatter sort over the expanded terms.
 * 3. Partition (SS-5.6.3): keep the first `len(candidates) − P`.
 * 4. maxUnavailable (SS-5.6.4): `U` = updated pods that are not state-consistent or not
 *    sidecar-ready; walk the kept candidates — a not sidecar-ready candidate is always taken for
 *    free, otherwise stop when `U ≥ M`, else take it and count it.
 *
 * Worked example (SS-5.6.4): 100 pods, 30 updated of which 26 consistent, M = 10 → U = 4, so 6
 * of the 70 candidates are updated.
 */
export function getNextUpgradePods(
  sidecarSet: SidecarSet,
  pods: readonly Pod[],
  facts: PodFacts = new PodFacts(sidecarSet),
): NextUpgradePods {
  const us = sidecarSet.spec?.updateStrategy ?? {};
  let selectorReqs: LabelRequirement[] | undefined | 'none';
  if (us.selector) {
    try {
      selectorReqs = labelSelectorAsRequirements(us.selector) ?? [];
    } catch {
      selectorReqs = 'none';
    }
  }
  const candidates: number[] = [];
  const notUpgradable: Pod[] = [];
  let unavailable = 0;
  pods.forEach((pod, i) => {
    if (facts.updated(pod)) {
      if (!facts.consistent(pod) || !facts.sidecarReady(pod)) unavailable++;
      return;
    }
    if (selectorReqs === 'none') return;
    if (selectorReqs !== undefined) {
      const labels = pod.metadata?.labels ?? {};
      if (!selectorReqs.every((r) => requirementMatches(r, labels))) return;
    }
    const u = facts.upgradability(pod);
    if (u === 'notUpgradable') notUpgradable.push(pod);
    else if (u === 'upgradable') candidates.push(i);
  });

  let order = sortIndexesByActivePods(pods, candidates);
  if (us.priorityStrategy && hasPriorityTerms(us.priorityStrategy)) {
    order = sortUpdateIndexesByPriority(pods, order, us.priorityStrategy);
  }
  if (us.scatterStrategy) {
    const terms = parseUpdateScatterTerms(
      us.scatterStrategy,
      pods.map((p) => p.metadata?.labels),
    );
    order = sortUpdateIndexesByScatter(pods, order, terms);
  }

  const total = pods.length;
  const keep = order.length - sidecarSetPartition(us.partition, total);
  if (keep <= 0) return { upgrade: [], notUpgradable };
  const maxUnavailable = sidecarSetMaxUnavailable(us.maxUnavailable, total);
  const upgrade: Pod[] = [];
  for (const i of order.slice(0, keep)) {
    const pod = pods[i];
    if (!facts.sidecarReady(pod)) {
      upgrade.push(pod);
      continue;
    }
    if (unavailable >= maxUnavailable) break;
    upgrade.push(pod);
    unavailable++;
  }
  return { upgrade, notUpgradable };
}
