// @kruise-ts/cloneset: the CloneSet controller as pure functions — calculateDiffs (the
// rollout math), reconcileCloneSet (the whole pipeline), validateCloneSet (the webhook).

export { type CloneSetCache, createCloneSetCache } from './cache';
export { CLONESET_KIND, cloneSetDescriptor } from './descriptor';
export type { PodClassification, SurgeInput } from './diffs';
export {
  calculateDiffs,
  classifyPods,
  diffsFromCounts,
  emptyDiffs,
  surgeRule,
  updateMaxUnavailable,
} from './diffs';
export { computePodFacts, PodFacts, type PodFactsOptions } from './facts';
export { type LimitUpdateOptions, limitUpdateIndexes } from './limiter';
export type { ResolvedParams } from './params';
export { DEFAULT_MAX_UNAVAILABLE, resolveParams, resolvePartition, UNLIMITED } from './params';
export type { SpecifiedDeleteChecker } from './predicates';
export {
  hashEquals,
  isCloneSetPodAvailable,
  isCloneSetPodReady,
  scaleIsPodUpdate,
  scalingExcludesPreparingDelete,
  specifiedDeleteChecker,
  updateReady,
} from './predicates';
export { cloneSetRef, reconcileCloneSet } from './reconcile';
export { planRevisions, truncateHistory } from './revisions';
export type { StatusContext } from './status';
export { calculateStatus, statusNeedsWrite } from './status';
export type {
  CalculateDiffsContext,
  CloneSetControllerState,
  CloneSetDiffs,
  IsPodUpdateFn,
  Now,
  ReconcileCloneSetInput,
  ReconcileCloneSetOptions,
  ValidateCloneSetContext,
} from './types';
export { Reasons } from './types';
export { MUTABLE_SPEC_FIELDS, UPDATE_STRATEGY_TYPES, validateCloneSet } from './validation';
