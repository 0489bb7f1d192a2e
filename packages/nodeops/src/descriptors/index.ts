// The node-side controllers as ControllerDescriptors (docs/architecture.md "The registry
// layer"), one file per controller; @kruise-ts/registry lists them for the shells. This file
// only re-exports.
export * from './advancedCronJob';
export * from './containerRecreateRequest';
export * from './imageListPullJob';
export * from './imagePullJob';
export * from './kinds';
export * from './nodeImage';
