// @kruise-ts/daemonset: Advanced DaemonSet (apps.kruise.io/v1alpha1) as pure functions —
// nodeShouldRunDaemonPod, reconcileDaemonSet, validateDaemonSet and the helpers they are
// built from (docs/reference/daemonset.md).
export * from './backoff';
export * from './budget';
export * from './constants';
export * from './descriptor';
export * from './inplace';
export * from './manage';
export * from './nodeEvents';
export * from './nodePods';
export * from './nodeShouldRun';
export * from './podTemplate';
export * from './preDelete';
export * from './predicates';
export * from './reconcile';
export * from './revisions';
export * from './rollingUpdate';
export * from './status';
export type { NodeCreation, PodDeletion, SyncContext } from './syncContext';
export * from './types';
export * from './validation';
