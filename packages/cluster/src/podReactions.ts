// How the cluster model reacts to a pod write (called from the store's change notifications): the
// scheduler's pending set, and which writes wake the pod's kubelet (spec, deletion and condition
// changes by anyone but itself).
import type { Kubelet } from './kubelet';
import type { Scheduler } from './scheduler';
import type { Change } from './store';

/** What a pod write may touch. */
export interface PodReactors {
  scheduler: Scheduler;
  kubelet: Kubelet;
}

/** Reacts to one write of a pod. */
export function reactToPodChange(c: Change, r: PodReactors): void {
  const obj = c.object;
  const spec = obj.spec as { nodeName?: string } | undefined;
  if (c.type === 'deleted') {
    r.scheduler.forget(c.key, obj.metadata.uid);
    r.scheduler.bump();
    return;
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
