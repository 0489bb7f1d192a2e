// @kruise-ts/operator: the shell that runs kruise-ts's pure reconcile functions against a real
// Kubernetes cluster (informers, work queue, executor, expectations, leader election, admission
// webhooks, metrics). This file only re-exports.
export { InformerCache } from './cache';
export * from './controllers/index';
export {
  type ExecuteContext,
  type ExecuteResult,
  executeAction,
  executeActions,
  splitStatusPatch,
} from './executor';
export { EXPIRED_REQUEUE_SECONDS, Expectations, type GateResult } from './expectations';
export { startHealthServer, startMetricsServer } from './health';
export * from './kube/client';
export { Informer, type InformerHandlers, type InformerOptions, objectKey } from './kube/informer';
export * from './kube/resources';
export { type LeaderElectionOptions, LeaderElector, microTime } from './leader';
export { createLogger } from './log';
export { OperatorMetrics } from './metrics';
export { installSignalHandlers, type RunningOperator, runOperator } from './operator';
export * from './options';
export { RateLimiter, type RateLimiterOptions, WorkQueue } from './queue';
export { ControllerRunner, type RunnerOptions } from './runner';
export * from './webhook/certs';
export * from './webhook/configurations';
export * from './webhook/deletionProtection';
export * from './webhook/handlers';
export { startWebhookServer, type WebhookServer } from './webhook/server';
