// The reconcile contract: the action vocabulary a reconcile returns, field errors and KruiseError,
// feature gates, the shared validation helpers, the annotation size limit, deletion protection,
// the de-duplication of observed objects and the recorder a reconcile keeps its results in. The
// explicit list of what @kruise-ts/core exports from here.
export {
  type Action,
  type CreateAction,
  type DeleteAction,
  type EventAction,
  type ObjectRef,
  type PatchAction,
  type Preconditions,
  type ReconcileOptions,
  type ReconcileResult,
  refOf,
  type UpdateAction,
  type UpdateStatusAction,
} from './actions';
export { validateAnnotationsSize } from './annotationSize';
export {
  type DedupedList,
  DUPLICATE_OBSERVED_REASON,
  dedupeObserved,
  dedupeObservedInput,
  type ObservedDuplicates,
  observedIdentity,
  withDistinctObserved,
} from './dedupeObserved';
export {
  checkDeletionProtection,
  DeletionProtectionMessages,
  type ProtectedKind,
  type ProtectionContext,
  type ProtectionDecision,
} from './deletionProtection';
export {
  duplicate,
  type FieldError,
  type FieldErrorType,
  forbidden,
  formatFieldError,
  invalid,
  KruiseError,
  notSupported,
  required,
} from './errors';
export {
  applyFeatureGateDependencies,
  defaultFeatureGates,
  type FeatureGates,
  freezeFeatureGates,
  parseFeatureGatesFlag,
  resolveFeatureGates,
} from './featureGates';
export {
  ReconcileRecorder,
  type RecordedCondition,
  type RecorderResultFields,
} from './recorder';
export {
  type IntOrPercentOptions,
  IS_NEGATIVE_ERROR_MSG,
  validateAnnotations,
  validateImmutableField,
  validateIntOrPercent,
  validateLabels,
  validateNonNegative,
  validateObjectMeta,
  validatePodTemplateBasics,
  validateScatterStrategy,
  validateSelectorMatchesTemplate,
  validateUpdatePriorityStrategy,
  validateWorkloadSelector,
} from './validation';
