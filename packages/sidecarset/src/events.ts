// Pod events → SidecarSet reconcile requests (docs/reference/sidecarset.md SS-5.9, informative): which
// SidecarSets a pod belongs to, and which of them a pod create/update/delete should enqueue.
// Shells (the simulator's watches, the operator's event handler) use these.
import type { SidecarSet } from '@kruise-ts/api';
import { isPodReady } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { getInjectedList } from './annotations';
import { isPodConsistentWithSidecarSet } from './matching';
import { isPodStateConsistent } from './predicates';

/**
 * SS-5.9: the SidecarSets a pod belongs to: listed in its `kruise.io/sidecarset-injected-list`,
 * existing, and consistent with the pod (SS-5.2.2).
 *
 * Example (upstream `TestGetPodMatchedSidecarSets`): list `test-sidecarset-2` with SidecarSets 1,
 * 2, 3 present → `[test-sidecarset-2]`.
 */
export function getPodMatchedSidecarSets(pod: Pod, sidecarSets: readonly SidecarSet[]): SidecarSet[] {
  const listed = new Set(getInjectedList(pod.metadata?.annotations));
  return sidecarSets.filter(
    (ss) => listed.has(ss.metadata?.name ?? '') && isPodConsistentWithSidecarSet(pod, ss),
  );
}

/** A pod event as a shell sees it. */
export type PodEvent =
  | { type: 'Create'; object: Pod }
  | { type: 'Update'; oldObject: Pod; newObject: Pod }
  | { type: 'Delete'; object: Pod };

/** A reconcile request: the SidecarSet name and an optional delay. */
export interface EnqueueRequest {
  name: string;
  afterSeconds?: number;
}

/**
 * SS-5.9: the reconcile requests a pod event causes. Create → every owning SidecarSet;
 * Delete → none; Update → none when the resourceVersion is unchanged, otherwise each owning
 * SidecarSet that is not NotUpdate when the pod started deleting, its readiness flipped (pod
 * not deleting before), its state-consistency flipped (delayed 5 s), or its labels changed while
 * `updateStrategy.selector` is set.
 *
 * Example (upstream `TestPodEventHandler/update-spec-changed`): only the app container's spec
 * image changed → no request.
 */
export function podEventEnqueue(sidecarSets: readonly SidecarSet[], event: PodEvent): EnqueueRequest[] {
  if (event.type === 'Delete') return [];
  if (event.type === 'Create') {
    return getPodMatchedSidecarSets(event.object, sidecarSets).map((ss) => ({
      name: ss.metadata?.name ?? '',
    }));
  }
  const { oldObject: oldPod, newObject: newPod } = event;
  if ((oldPod.metadata?.resourceVersion ?? '') === (newPod.metadata?.resourceVersion ?? '')) return [];
  const out: EnqueueRequest[] = [];
  for (const ss of getPodMatchedSidecarSets(newPod, sidecarSets)) {
    if (ss.spec?.updateStrategy?.type === 'NotUpdate') continue;
    const name = ss.metadata?.name ?? '';
    const oldDeleting = !!oldPod.metadata?.deletionTimestamp;
    if (!oldDeleting && newPod.metadata?.deletionTimestamp) out.push({ name });
    else if (!oldDeleting && isPodReady(oldPod) !== isPodReady(newPod)) out.push({ name });
    else if (isPodStateConsistent(oldPod, ss) !== isPodStateConsistent(newPod, ss))
      out.push({ name, afterSeconds: 5 });
    else if (ss.spec?.updateStrategy?.selector && !sameLabels(oldPod, newPod)) out.push({ name });
  }
  return out;
}

function sameLabels(a: Pod, b: Pod): boolean {
  const la = a.metadata?.labels ?? {};
  const lb = b.metadata?.labels ?? {};
  const ka = Object.keys(la);
  return ka.length === Object.keys(lb).length && ka.every((k) => Object.hasOwn(lb, k) && la[k] === lb[k]);
}
