// How the controller sends a changed pod: a JSON merge patch (RFC 7386) of metadata,
// spec and status, built from the observed pod and the pod it should become; object refs.
import {
  diffPodForPatch,
  diffPodForPatchHinted,
  type ObjectRef,
  type PatchAction,
  type PodChangeHint,
} from '@kruise-ts/core';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';

/** The reference of a core/v1 object (a pod or a PVC), whatever its own apiVersion/kind say. */
export function coreRef(obj: Pod | PersistentVolumeClaim, kind: 'Pod' | 'PersistentVolumeClaim'): ObjectRef {
  const ref: ObjectRef = { apiVersion: 'v1', kind, name: obj.metadata?.name ?? '' };
  if (obj.metadata?.namespace !== undefined) ref.namespace = obj.metadata.namespace;
  if (obj.metadata?.uid !== undefined) ref.uid = obj.metadata.uid;
  return ref;
}

/**
 * A `patch` action (merge patch) for a pod that should become `next`, or `undefined` when
 * nothing changed (core's `diffPodForPatch`: RFC 7386, lists replaced whole). Status changes
 * (pod conditions) travel in the same patch under `status`; the shells apply that part to the
 * status subresource. `changes`: where `next` may differ from `prev` (core's `PodChangeHint`,
 * e.g. an in-place update's `changes`); the patch is the same, fewer keys are visited.
 */
export function podPatchAction(
  prev: Pod,
  next: Pod,
  reason: string,
  changes?: PodChangeHint,
): PatchAction | undefined {
  if (prev === next) return undefined;
  // with the writer's hint of where the pods differ, the same patch visiting fewer keys
  const patch = changes ? diffPodForPatchHinted(prev, next, changes) : diffPodForPatch(prev, next);
  if (Object.keys(patch).length === 0) return undefined;
  return { verb: 'patch', target: coreRef(prev, 'Pod'), patchType: 'merge', patch, reason };
}
