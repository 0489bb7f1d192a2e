// JSON and patches: canonical and Go-compatible JSON text, the RFC 6902 diff, JSON merge and JSON
// patch application, strategic-merge patches, and hidden-class-preserving shallow copies. The
// explicit list of what @kruise-ts/core exports from here.
export { canonicalJSON } from './canonicalJson';
export {
  compareStringsBytewise,
  goJsonStringify,
} from './goJson';
export {
  type JsonPatchOperation,
  jsonDiff,
} from './jsonDiff';
export {
  applyJsonPatch,
  applyMergePatch,
  jsonEqual,
} from './jsonPatch';
export {
  type Extended,
  extend,
} from './objects';
export {
  applyStrategicMergePatch,
  type ListStrategy,
  podListStrategies,
  type StrategicMergeOptions,
} from './strategicMerge';
