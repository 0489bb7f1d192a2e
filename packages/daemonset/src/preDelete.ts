// The lifecycle preDelete hook of docs/reference/daemonset.md §9 (docs/reference/core.md R3.7): every deletion
// decided by manage or the rolling update is filtered; hooked pods are marked
// `PreparingDelete` instead of deleted and deleted once the user's hook releases them.
import { isHooked, setPodLifecycleState } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { DaemonSet } from './types';

/** The outcome of the §9 filter. */
export interface PreDeleteFilterResult {
  /** Pods to delete now (not hooked). */
  toDelete: Pod[];
  /** Hooked pods that change (`before` → `pod`, the PreparingDelete version). */
  marked: { before: Pod; pod: Pod }[];
}

/**
 * §9 steps 1–3: a pod that is not hooked (none of `finalizersHandler`, none of the
 * `labelsHandler` pairs) is deleted now; a hooked pod gets the `PreparingDelete` state
 * (+ timestamp annotation, + KruisePodReady not-ready with `markPodNotReady`) unless it
 * already has it. Without `lifecycle.preDelete` every pod is deleted.
 *
 * Example: hook `labelsHandler {hold: "true"}`; a pod labelled `hold=true` gets
 * `lifecycle.apps.kruise.io/state=PreparingDelete`; a pod labelled `hold=false` is deleted.
 */
export function filterPreDelete(
  ds: DaemonSet,
  pods: readonly Pod[],
  now: string | Date,
): PreDeleteFilterResult {
  const hook = ds.spec.lifecycle?.preDelete;
  if (!hook) return { toDelete: [...pods], marked: [] };
  const toDelete: Pod[] = [];
  const marked: { before: Pod; pod: Pod }[] = [];
  for (const pod of pods) {
    if (!isHooked(hook, pod)) {
      toDelete.push(pod);
      continue;
    }
    const next = setPodLifecycleState(pod, 'PreparingDelete', now, hook.markPodNotReady === true);
    if (next !== pod) marked.push({ before: pod, pod: next });
  }
  return { toDelete, marked };
}
