// @kruise-ts/uniteddeployment: UnitedDeployment's replica allocation, adaptive scheduling,
// subset rendering, reconcile and validation (docs/reference/uniteddeployment.md). This file only re-exports.

export * from './adaptive';
export * from './allocator';
export * from './descriptor';
export { canonicalJson } from './json';
export * from './manage';
export * from './observe';
export * from './parse';
export * from './partitions';
export * from './reconcile';
export * from './render';
export * from './revisions';
export * from './status';
export * from './strategicPatch';
export * from './types';
export * from './validation';
export * from './workloads';
