// Strategic-merge patch of a PodTemplateSpec (docs/reference/uniteddeployment.md §7.7): core's
// applyStrategicMergePatch with the PodTemplateSpec list strategies Kubernetes declares beyond the
// pod ones core knows (ephemeral containers' lists, hostAliases, volumeDevices, ...).
import { applyStrategicMergePatch, type ListStrategy } from '@kruise-ts/core';

/** PodSpec `patchMergeKey`s added to (or overriding) core's pod list strategies. */
export const podTemplateListStrategies: Record<string, ListStrategy> = {
  'spec.ephemeralContainers[].env': 'name',
  'spec.ephemeralContainers[].ports': 'containerPort',
  'spec.ephemeralContainers[].volumeMounts': 'mountPath',
  'spec.containers[].volumeDevices': 'devicePath',
  'spec.initContainers[].volumeDevices': 'devicePath',
  'spec.ephemeralContainers[].volumeDevices': 'devicePath',
  'spec.hostAliases': 'ip',
  'spec.schedulingGates': 'name',
  'spec.resourceClaims': 'name',
  'spec.topologySpreadConstraints': 'topologyKey',
  // PodSpec.readinessGates has no patch strategy: the list is replaced.
  'spec.readinessGates': 'replace',
};

/**
 * Applies a strategic-merge patch (object or JSON text) to a pod template, returning a new object.
 * Maps merge key-wise (`null` deletes), containers/env merge by `name`, ports by `containerPort`,
 * volumeMounts by `mountPath`, other lists are replaced; `$patch` directives are understood.
 *
 * Example: containers `[{name: a, image: nginx:1.0}]` and patch
 * `{"spec":{"containers":[{"name":"a","image":"nginx:2.0"}]}}` → `[{name: a, image: nginx:2.0}]`.
 *
 * **Throws** a `KruiseError` when the patch is not a JSON object or a merge-list element lacks its key.
 */
export function applyPodTemplatePatch<T>(template: T, patch: unknown): T {
  return applyStrategicMergePatch(template, patch, { listStrategies: podTemplateListStrategies });
}
