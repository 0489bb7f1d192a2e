// @kruise-ts/statefulset: the Advanced StatefulSet controller (apps.kruise.io/v1beta1, v1alpha1
// accepted) as pure functions — reconcileStatefulSet (the whole reconcile), updateStatefulSet
// (one round with explicit revisions), validateStatefulSet (the webhook) and the rules they
// are built from, named as docs/reference/statefulset.md names them, and convertStatefulSet (v1alpha1 <->
// v1beta1, §2.3).

export type { UpdateStatefulSetInput, UpdateStatefulSetResult } from './control';
export { updateStatefulSet } from './control';
export type { StatefulSetApiVersion } from './conversion';
export {
  convertStatefulSet,
  isStatefulSetApiVersion,
  STATEFULSET_API_VERSIONS,
  V1ALPHA1_SPEC_FIELDS,
  V1ALPHA1_STATUS_FIELDS,
  V1BETA1_ONLY_SPEC_FIELDS,
  V1BETA1_ONLY_STATUS_FIELDS,
} from './conversion';
export { ADVANCED_STATEFULSET_KIND, statefulSetDescriptor } from './descriptor';
export {
  claimsForOrdinal,
  controllerRefOf,
  identityLabels,
  identityMatches,
  newStatefulSetPod,
  repairedPod,
  storageMatches,
  volumesWithClaims,
  withCreationLifecycle,
} from './identity';
export type { OrdinalInterval } from './ordinalSet';
export { OrdinalSet } from './ordinalSet';
export type { ReplicaRange } from './ordinals';
export {
  claimName,
  desiredOrdinals,
  inRange,
  isMemberOf,
  ordinalOf,
  parentNameAndOrdinal,
  parseReserveOrdinals,
  podName,
  replicaRange,
  reservedOrdinalSet,
  startOrdinal,
  statefulSetReplicaRange,
} from './ordinals';
export { claimPods, claimRevisions, isControllerRefOf, statusForVersion, toV1beta1 } from './ownership';
export type { Availability } from './predicates';
export {
  getMinReadySeconds,
  isCreated,
  isFailed,
  isHealthy,
  isLifecycleNormal,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  MAX_MIN_READY_SECONDS,
  runningAndAvailable,
} from './predicates';
export {
  claimIsStale,
  claimOwnerMatchesSetAndPod,
  desiredClaimRefs,
  hasOwnerRef,
  hasStaleOwnerRef,
  podClaimIsStale,
  retentionPolicy,
  updateClaimOwnerRefForSetAndPod,
} from './pvc';
export { observeExpectations, reconcileStatefulSet, statefulSetRef } from './reconcile';
export { scaleMaxUnavailable } from './replicaPhase';
export type { RevisionNeedContext, Slots } from './revisionChoice';
export { isAtRevision, isCurrentRevisionNeeded } from './revisionChoice';
export type { StatefulSetRevisionPlan } from './revisions';
export { candidateRevision, getStatefulSetRevisions, templateOfRevision, truncateHistory } from './revisions';
export { updateMaxUnavailable } from './rollingUpdatePhase';
export {
  completeRollingUpdate,
  computeReplicaCounts,
  computeVolumeClaimStatus,
  statusNeedsWrite,
} from './status';
export type {
  Now,
  ReconcileStatefulSetInput,
  ReconcileStatefulSetOptions,
  StatefulSetControllerState,
  ValidateStatefulSetContext,
} from './types';
export { Reasons } from './types';
export { sortPodsToUpdate } from './updateOrder';
export {
  MUTABLE_SPEC_FIELDS,
  validateMaxUnavailable,
  validateReserveOrdinals,
  validateStatefulSet,
} from './validation';
