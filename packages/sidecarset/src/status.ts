// SidecarSet status (docs/reference/sidecarset.md SS-5.4): computed once per round from the matched
// pods, before any pod is changed.
import type { SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { PodFacts } from './predicates';

/**
 * SS-5.4.1: `matchedPods` = matched pods; `updatedPods` = those whose hash entry equals S's
 * hash; `readyPods` = those state-consistent over all sidecar names **and** sidecar-ready;
 * `updatedReadyPods` = both; `latestRevision`, `collisionCount` from the revision step;
 * `observedGeneration` = `metadata.generation`.
 *
 * Example (upstream `TestUpdateColdUpgradeSidecar`, round 2): 2 pods, one just updated whose
 * kubelet has not switched the image yet → `{matchedPods: 2, updatedPods: 1, readyPods: 1,
 * updatedReadyPods: 0}`.
 */
export function calculateSidecarSetStatus(
  sidecarSet: SidecarSet,
  matchedPods: readonly Pod[],
  latestRevision: string,
  collisionCount: number,
  facts: PodFacts = new PodFacts(sidecarSet),
): SidecarSetStatus {
  let updated = 0;
  let ready = 0;
  let updatedReady = 0;
  for (const pod of matchedPods) {
    const u = facts.updated(pod);
    const r = facts.consistent(pod) && facts.sidecarReady(pod);
    if (u) updated++;
    if (r) ready++;
    if (u && r) updatedReady++;
  }
  const status: SidecarSetStatus = {
    observedGeneration: sidecarSet.metadata?.generation ?? 0,
    matchedPods: matchedPods.length,
    updatedPods: updated,
    readyPods: ready,
    updatedReadyPods: updatedReady,
    latestRevision,
  };
  if (collisionCount !== 0 || sidecarSet.status?.collisionCount !== undefined)
    status.collisionCount = collisionCount;
  return status;
}

/** True when any status field differs from the stored status (the controller writes only then). */
export function statusNeedsWrite(old: SidecarSetStatus | undefined, next: SidecarSetStatus): boolean {
  if (!old) return true;
  const keys = [
    'observedGeneration',
    'matchedPods',
    'updatedPods',
    'readyPods',
    'updatedReadyPods',
    'latestRevision',
    'collisionCount',
  ] as const;
  return keys.some((k) => (old[k] ?? undefined) !== (next[k] ?? undefined));
}
