// Specified delete and the unavailable-label prefix (docs/reference/core.md §7.1 R7.1, §7.2 R7.2;
// docs/reference/cloneset.md §4.4): reading and writing the `apps.kruise.io/specified-delete` label.
import { LABEL_PREFIX_UNAVAILABLE_POD, LABEL_SPECIFIED_DELETE } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';

/** The value CloneSet writes when it marks a pod for deletion (R7.2). */
export const SPECIFIED_DELETE_VALUE = 'true';

/**
 * R7.2: a pod is specified-delete iff it has the label `apps.kruise.io/specified-delete`, with any
 * value (even `""`). CloneSet also treats the names listed in `scaleStrategy.podsToDelete` as
 * specified-delete (docs/reference/cloneset.md §4.4): pass them as `podsToDelete`.
 *
 * Examples: label `{"apps.kruise.io/specified-delete": ""}` → true; no label → false; no label but
 * the pod name `web-x7k2p` in `podsToDelete` → true.
 */
export function isSpecifiedDelete(pod: Pod, podsToDelete?: readonly string[]): boolean {
  const labels = pod.metadata?.labels;
  if (labels && Object.hasOwn(labels, LABEL_SPECIFIED_DELETE)) return true;
  const name = pod.metadata?.name;
  return name !== undefined && (podsToDelete?.includes(name) ?? false);
}

/**
 * R7.2: marks a pod specified-delete. The label is written with value `"true"` only when it is
 * absent; a pod that already has it (any value) is returned as is (the same object). Otherwise a
 * new pod is returned; the input is never mutated.
 */
export function markSpecifiedDelete(pod: Pod): Pod {
  const labels = pod.metadata?.labels;
  if (labels && Object.hasOwn(labels, LABEL_SPECIFIED_DELETE)) return pod;
  return {
    ...pod,
    metadata: { ...pod.metadata, labels: { ...labels, [LABEL_SPECIFIED_DELETE]: SPECIFIED_DELETE_VALUE } },
  };
}

/**
 * The merge patch that marks a pod specified-delete (R7.2), or `undefined` when the label is
 * already present (nothing to write): `{"metadata":{"labels":{"apps.kruise.io/specified-delete":"true"}}}`.
 */
export function specifiedDeletePatch(pod: Pod): { metadata: { labels: Record<string, string> } } | undefined {
  const labels = pod.metadata?.labels;
  if (labels && Object.hasOwn(labels, LABEL_SPECIFIED_DELETE)) return undefined;
  return { metadata: { labels: { [LABEL_SPECIFIED_DELETE]: SPECIFIED_DELETE_VALUE } } };
}

/**
 * R7.1: a pod is marked unavailable when any of its label keys starts with the prefix
 * `unavailable-pod.kruise.io/` (values ignored). Only PodUnavailableBudget consults this; the
 * workload controllers do not (Appendix D.9).
 *
 * Example: label `unavailable-pod.kruise.io/maintenance: ""` → true; `unavailable-pod.kruise.io` (no
 * slash) → false.
 */
export function isMarkedUnavailable(pod: Pod): boolean {
  return Object.keys(pod.metadata?.labels ?? {}).some((k) => k.startsWith(LABEL_PREFIX_UNAVAILABLE_POD));
}
