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
export {
  annotationsSize,
  validateAnnotationsSize,
} from './annotationSize';
export {
  type DedupedList,
  DUPLICATE_OBSERVED_REASON,
  dedupeObserved,
  dedupeObservedInput,
  duplicateObservedEvent,
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
  tooLong,
} from './errors';
export {
  applyFeatureGateDependencies,
  defaultFeatureGates,
  type FeatureGateName,
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
  FIELD_IMMUTABLE_ERROR_MSG,
  type IntOrPercentOptions,
  IS_NEGATIVE_ERROR_MSG,
  TOTAL_ANNOTATION_SIZE_LIMIT,
  validateAnnotations,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateImmutableField,
  validateIntOrPercent,
  validateLabels,
  validateLabelValue,
  validateNonNegative,
  validateObjectMeta,
  validatePodTemplateBasics,
  validateQualifiedName,
  validateScatterStrategy,
  validateSelectorMatchesTemplate,
  validateUpdatePriorityStrategy,
  validateWorkloadSelector,
} from './validation';
