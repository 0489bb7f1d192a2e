// @kruise-ts/core: the shared controller math every Kruise controller builds on.
// Each module owns one area of docs/reference/core.md; this file only re-exports.

export * from './actions';
export * from './annotationSize';
export * from './applyActions';
export * from './burst';
export * from './dedupeObserved';
export * from './deletionProtection';
export * from './errors';
export * from './expectations';
export * from './featureGates';
export * from './hash';
export * from './inplace/index';
export * from './intstr';
export * from './jsonDiff';
export * from './lifecycle';
export * from './naming';
export * from './objects';
export * from './observedStructure';
export * from './ordering/index';
export * from './podReadiness';
export * from './qos';
export * from './quantity';
export * from './readiness';
export * from './revision';
export * from './revisionPlan';
export * from './selectors';
export * from './specifiedDelete';
export * from './strategicMerge';
export * from './testing';
export * from './validation';
