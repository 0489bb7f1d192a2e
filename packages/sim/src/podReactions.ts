// How the simulator reacts to a pod write (called from the store's change notifications): the
// counters of the summary (created, deleted, updated in place), the scheduler's pending set, and
// which writes wake the pod's kubelet (spec, deletion and condition changes by anyone but itself).
import { ANNOTATION_SIDECARSET_HASH, LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import type { Kubelet } from './kubelet';
import type { SimStats } from './options';
import type { Scheduler } from './scheduler';
import type { Change } from './store';

/** What a pod write may touch. */
export interface PodReactors {
  scheduler: Scheduler;
  kubelet: Kubelet;
  stats: SimStats;
}

/** Reacts to one write of a pod. */
export function reactToPodChange(c: Change, r: PodReactors): void {
  const obj = c.object;
  const spec = obj.spec as { nodeName?: string } | undefined;
  if (c.type === 'deleted') {
    r.scheduler.forget(c.key, obj.metadata.uid);
    r.scheduler.bump();
    if (!c.old?.metadata.deletionTimestamp) r.stats.podsDeleted++;
    return;
  }
  if (c.type === 'added') r.stats.podsCreated++;
  if (c.type === 'modified' && obj.metadata.deletionTimestamp && !c.old?.metadata.deletionTimestamp)
    r.stats.podsDeleted++;
  if (c.type === 'modified' && c.source.startsWith('controller:')) {
    const before = c.old?.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    const after = obj.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    // An in-place update moves the pod's revision (CloneSet, StatefulSet, DaemonSet) or rewrites a
    // SidecarSet's hash entry on it (docs/reference/sidecarset.md SS-5.7.3): either is one update.
    if (
      (before !== undefined && after !== undefined && before !== after) ||
      sidecarHashesMoved(c.old?.metadata.annotations, obj.metadata.annotations)
    )
      r.stats.podsUpdatedInPlace++;
  }
  if (!spec?.nodeName) {
    if (!obj.metadata.deletionTimestamp) r.scheduler.notePending(c.key);
    return;
  }
  // The kubelet reacts to spec changes, condition changes (readiness gates) and deletion.
  if (c.source.startsWith('kubelet:')) return;
  const old = c.old;
  if (
    !old ||
    old.spec !== obj.spec ||
    old.metadata.deletionTimestamp !== obj.metadata.deletionTimestamp ||
    (old.status as { conditions?: unknown } | undefined)?.conditions !==
      (obj.status as { conditions?: unknown } | undefined)?.conditions
  )
    r.kubelet.touch(c.key);
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
