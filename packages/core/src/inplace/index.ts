// The in-place update protocol (docs/reference/core.md §1, §2): re-exports of inplace/*.ts.
export * from './annotations';
export * from './cache';
export * from './calculate';
export * from './completion';
export * from './diff';
// applyContainerBatch (patch.ts) stays private to the protocol
export { getContainerLaunchPriority, type PatchSpec, type PatchSpecResult, patchSpecToPod } from './patch';
export * from './update';
