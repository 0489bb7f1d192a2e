// isClusterScopedKind: the scope of a kind (cluster-scoped built-ins and Kruise kinds, docs/reference/crds.md).
import { describe, expect, it } from 'vitest';
import { clusterScopedKinds, isClusterScopedKind, kruiseKinds } from '../src/index';

describe('isClusterScopedKind', () => {
  it.each([
    ['v1', 'Node'],
    ['v1', 'Namespace'],
    ['v1', 'PersistentVolume'],
    ['storage.k8s.io/v1', 'StorageClass'],
    ['scheduling.k8s.io/v1', 'PriorityClass'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
    ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'],
    ['admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'],
    ['apps.kruise.io/v1alpha1', 'SidecarSet'],
    ['apps.kruise.io/v1alpha1', 'NodeImage'],
    ['apps.kruise.io/v1alpha1', 'ResourceDistribution'],
  ])('%s %s is cluster-scoped', (apiVersion, kind) => {
    expect(isClusterScopedKind(apiVersion, kind)).toBe(true);
    expect(isClusterScopedKind(undefined, kind)).toBe(true);
  });

  it.each([
    ['v1', 'Pod'],
    ['v1', 'Service'],
    ['v1', 'PersistentVolumeClaim'],
    ['apps/v1', 'StatefulSet'],
    ['apps/v1', 'ControllerRevision'],
    ['apps.kruise.io/v1alpha1', 'CloneSet'],
    ['apps.kruise.io/v1beta1', 'StatefulSet'],
    ['coordination.k8s.io/v1', 'Lease'],
    ['example.com/v1', 'Widget'],
  ])('%s %s is namespaced', (apiVersion, kind) => {
    expect(isClusterScopedKind(apiVersion, kind)).toBe(false);
    expect(isClusterScopedKind(undefined, kind)).toBe(false);
  });

  it('the group must match when an apiVersion is given: v1 SidecarSet and apps/v1 Node are not known kinds', () => {
    expect(isClusterScopedKind('v1', 'SidecarSet')).toBe(false);
    expect(isClusterScopedKind('apps/v1', 'Node')).toBe(false);
  });

  it('agrees with the Kruise kinds table: exactly the kinds with namespaced false', () => {
    for (const k of kruiseKinds) {
      expect(isClusterScopedKind(`${k.group}/${k.versions[0].name}`, k.kind)).toBe(!k.namespaced);
    }
  });

  it('inherited object keys are not kinds', () => {
    expect(isClusterScopedKind(undefined, 'toString')).toBe(false);
    expect(isClusterScopedKind(undefined, '__proto__')).toBe(false);
    expect(Object.keys(clusterScopedKinds)).toHaveLength(13);
  });
});
