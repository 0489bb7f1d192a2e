// The in-place update protocol (docs/reference/core.md §1, §2): the explicit list of what
// @kruise-ts/core exports from inplace/*.ts (cache.ts keeps its memo size, changes.ts and
// internal.ts stay private).
export {
  base64DecodeUtf8,
  base64EncodeUtf8,
  type Decoded,
  decodeInPlaceUpdateGrace,
  decodeInPlaceUpdateState,
  encodeInPlaceUpdateGrace,
  encodeInPlaceUpdateState,
  getInPlaceUpdateGraceText,
  getInPlaceUpdateStateText,
  hasInPlaceUpdateGrace,
  readInPlaceUpdateState,
  readRuntimeContainersMeta,
} from './annotations';
export {
  createInPlaceCache,
  IN_PLACE_DECODE_MEMO_SIZE,
  type InPlaceCache,
} from './cache';
export {
  applyResourcePatchOp,
  type CalculateInPlaceUpdateSpecOptions,
  cachedInPlaceUpdateSpec,
  calculateInPlaceUpdateSpec,
  containerReferencesMetadata,
  type InPlaceUpdateSpecCache,
  parseFieldPathSubscript,
  revisionDataText,
} from './calculate';
export {
  type CompletionCheckOptions,
  type CompletionResult,
  checkPodUpdateCompleted,
  containersUpdateCompleted,
  type HashConsistencyPredicate,
  isContainerResourcesUpdateCompleted,
  needsBeUnready,
  podResourcesUpdateCompleted,
  type RuntimeHashKind,
} from './completion';
export {
  diffPodForPatch,
  diffPodForPatchHinted,
  mergePatchDiff,
  mergePodChangeHints,
  type PodChangeHint,
} from './diff';
export {
  getContainerLaunchPriority,
  type PatchSpec,
  type PatchSpecResult,
  patchSpecToPod,
} from './patch';
export {
  cloneSetRevisionAdapter,
  daemonSetGetRevision,
  daemonSetRevisionAdapter,
  type InPlaceRefreshOptions,
  type InPlaceRefreshResult,
  type InPlaceUpdateOptions,
  type InPlaceUpdateResult,
  inPlaceRefresh,
  inPlaceUpdate,
  type RevisionAdapter,
  statefulSetRevisionAdapter,
} from './update';
