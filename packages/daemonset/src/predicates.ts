// Pod predicates of docs/reference/daemonset.md (table at the top): ready, available,
// daemon-available, deleting, pre-deleting, failed, updated/old.
import {
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
} from '@kruise-ts/api';
import { getPodCondition, isPodAvailable, isPodReady } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import {
  ANNOTATION_DEPRECATED_TEMPLATE_GENERATION,
  ANNOTATION_PROGRESSIVE_CREATE_POD,
  LABEL_POD_TEMPLATE_GENERATION,
} from './constants';
import type { DaemonSet } from './types';

export { isPodReady };

/** `available(pod, minReadySeconds, now)` (Kubernetes R5.2, strict `<`). */
export function isAvailable(pod: Pod, minReadySeconds: number, now: string | Date): boolean {
  return isPodAvailable(pod, minReadySeconds, now);
}

/**
 * daemon-available (status only, docs/reference/core.md R5.3 ADS): available and, when the pod has the
 * `InPlaceUpdateReady` readiness gate, that condition is absent or `True`.
 */
export function isDaemonAvailable(pod: Pod, minReadySeconds: number, now: string | Date): boolean {
  if (!isPodAvailable(pod, minReadySeconds, now)) return false;
  if (hasInPlaceReadinessGate(pod)) {
    const c = getPodCondition(pod, CONDITION_INPLACE_UPDATE_READY);
    if (c && c.status !== 'True') return false;
  }
  return true;
}

/** The pod carries the `InPlaceUpdateReady` readiness gate. */
export function hasInPlaceReadinessGate(pod: Pod): boolean {
  return (pod.spec?.readinessGates ?? []).some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY);
}

/** deleting: the pod has a `deletionTimestamp`. */
export function isDeleting(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

/** pre-deleting: lifecycle state `PreparingDelete` (§9). */
export function isPreDeleting(pod: Pod): boolean {
  return pod.metadata?.labels?.[LABEL_LIFECYCLE_STATE] === 'PreparingDelete';
}

/** failed: phase `Failed`. */
export function isFailed(pod: Pod): boolean {
  return pod.status?.phase === 'Failed';
}

/** The pod's `controller-revision-hash` label, `''` when absent. */
export function podRevision(pod: Pod): string {
  return pod.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
}

/**
 * The legacy template generation of the DaemonSet (annotation
 * `deprecated.daemonset.template.generation`), `undefined` when absent or not an integer.
 * Example: `"1000"` → 1000.
 */
export function templateGeneration(daemonSet: DaemonSet): number | undefined {
  const v = daemonSet.metadata?.annotations?.[ANNOTATION_DEPRECATED_TEMPLATE_GENERATION];
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}

/**
 * A pod is **updated** when its hash equals the current hash `H`, or, on the legacy path,
 * when the DaemonSet has a template generation `G` and the pod label
 * `pod-template-generation` equals it; otherwise it is **old**.
 */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  if (podRevision(pod) === hash) return true;
  if (generation === undefined) return false;
  return pod.metadata?.labels?.[LABEL_POD_TEMPLATE_GENERATION] === String(generation);
}

/** Whether the DaemonSet asks for progressive creation (annotation `"true"`, §5.4). */
export function isCreationProgressive(annotations: Record<string, string> | undefined): boolean {
  return annotations?.[ANNOTATION_PROGRESSIVE_CREATE_POD] === 'true';
}
