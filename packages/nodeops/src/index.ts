// @kruise-ts/nodeops: the pure controllers of the node-side kinds — ImagePullJob,
// ImageListPullJob, NodeImage, scheduled pre-warm (AdvancedCronJob) and ContainerRecreateRequest
// (docs/reference/daemon.md controller parts, docs/reference/advancedcronjob.md). This file only re-exports.

export * from './advancedcronjob/children';
export * from './advancedcronjob/reconcile';
export * from './advancedcronjob/schedule';
export * from './advancedcronjob/validation';
export * from './cron/duration';
export * from './cron/next';
export * from './cron/parse';
export * from './cron/zone';
export * from './crr/reconcile';
export * from './crr/validation';
export * from './descriptors/index';
export * from './imagelistpulljob/reconcile';
export * from './imagepulljob/reconcile';
export * from './imagepulljob/secrets';
export * from './imagepulljob/spread';
export * from './imagepulljob/status';
export * from './imagepulljob/targets';
export * from './imagepulljob/validation';
export * from './imagepulljob/workload';
export * from './imageRef';
export * from './nodeimage/reconcile';
export * from './nodeimage/validation';
export { formatFixed1, intOrStringValue } from './util';
