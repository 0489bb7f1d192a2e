// @kruise-ts/core/apply: an in-memory API server for the action vocabulary, for shells and tests
// that want to see what a reconcile's actions do to a list of objects (not needed by a reconcile).
export {
  applyAction,
  applyActions,
  applyActionsWithResults,
  createApplier,
} from './applyActions';
export {
  type ApplierState,
  type ApplyOptions,
  type ApplyResult,
  objectKey,
} from './applyVerbs';
