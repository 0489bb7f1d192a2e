// The summary's pod counters, kept from the store's change notifications: pods created, pods
// deleted (a graceful delete counts when the deletionTimestamp is set, not again when the pod
// goes) and in-place updates (a controller's write that moves a pod's revision or its SidecarSet
// hashes). How the cluster model itself reacts to pod writes is @kruise-ts/cluster's podReactions.
import { ANNOTATION_SIDECARSET_HASH, LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import type { Change } from '@kruise-ts/cluster';
import type { SimStats } from './options';

/** Counts one write of a pod into `stats`. */
export function countPodChange(c: Change, stats: SimStats): void {
  const obj = c.object;
  if (c.type === 'deleted') {
    if (!c.old?.metadata.deletionTimestamp) stats.podsDeleted++;
    return;
  }
  if (c.type === 'added') stats.podsCreated++;
  if (c.type === 'modified' && obj.metadata.deletionTimestamp && !c.old?.metadata.deletionTimestamp)
    stats.podsDeleted++;
  if (c.type === 'modified' && c.source.startsWith('controller:')) {
    const before = c.old?.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    const after = obj.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    // An in-place update moves the pod's revision (CloneSet, StatefulSet, DaemonSet) or rewrites a
    // SidecarSet's hash entry on it (docs/reference/sidecarset.md SS-5.7.3): either is one update.
    if (
      (before !== undefined && after !== undefined && before !== after) ||
      sidecarHashesMoved(c.old?.metadata.annotations, obj.metadata.annotations)
    )
      stats.podsUpdatedInPlace++;
  }
}

/** True when a SidecarSet hash entry already on the pod changed its hash. */
function sidecarHashesMoved(
  before: Record<string, string> | undefined,
  after: Record<string, string> | undefined,
): boolean {
  const a = before?.[ANNOTATION_SIDECARSET_HASH];
  const b = after?.[ANNOTATION_SIDECARSET_HASH];
  if (!a || !b || a === b) return false;
  try {
    const pa = JSON.parse(a) as Record<string, { hash?: string }>;
    const pb = JSON.parse(b) as Record<string, { hash?: string }>;
    return Object.keys(pb).some((k) => pa[k]?.hash !== undefined && pa[k]?.hash !== pb[k]?.hash);
  } catch {
    return false;
  }
}
