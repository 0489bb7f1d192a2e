// @kruise-ts/sim: the deterministic cluster simulator — virtual clock, object
// store, admission chain, controller loop, scheduler, kubelet and node models,
// invariants, scenarios, forecasts, timeline and reports (./browser.ts, also the
// `@kruise-ts/sim/browser` entry) — and its Kubernetes API server (./apiserver).

export * from './apiserver/index';
export * from './browser';
