// @kruise-ts/core: the shared controller math every Kruise controller builds on.
// Each module owns one area of spec/core.md; this file only re-exports.
export * from './errors';
export * from './featureGates';
export * from './actions';
export * from './intstr';
export * from './selectors';
export * from './hash';
export * from './revision';
export * from './readiness';
export * from './naming';
export * from './applyActions';
export * from './validation';
export * from './quantity';
export * from './qos';
export * from './jsonDiff';
export * from './strategicMerge';
export * from './lifecycle';
export * from './podReadiness';
export * from './specifiedDelete';
export * from './expectations';
export * from './inplace/index';
export * from './ordering/index';
export * from './testing';
