// The in-place update protocol (docs/reference/core.md §1, §2): the explicit list of what
// @kruise-ts/core exports from inplace/*.ts (cache.ts keeps its memo size, changes.ts and
// internal.ts stay private).
export {
  type Decoded,
  decodeInPlaceUpdateGrace,
  decodeInPlaceUpdateState,
  encodeInPlaceUpdateState,
  hasInPlaceUpdateGrace,
  readInPlaceUpdateState,
} from './annotations';
export {
  createInPlaceCache,
  IN_PLACE_DECODE_MEMO_SIZE,
  type InPlaceCache,
} from './cache';
export {
  type CalculateInPlaceUpdateSpecOptions,
  cachedInPlaceUpdateSpec,
  calculateInPlaceUpdateSpec,
  type InPlaceUpdateSpecCache,
} from './calculate';
export {
  type CompletionCheckOptions,
  type CompletionResult,
  checkPodUpdateCompleted,
  containersUpdateCompleted,
  type HashConsistencyPredicate,
  needsBeUnready,
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
