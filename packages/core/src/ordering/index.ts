// Update and deletion orderings (docs/reference/core.md §4, R7.3; docs/reference/cloneset.md §8.3, §9.3):
// priority and scatter sorts, the Kubernetes active-pods order, the CloneSet scale-in order
// and its rankers. This file only re-exports (podFacts.ts stays internal).

export * from './activePods';
export * from './deletion';
export * from './priority';
export * from './rankers';
export * from './scatter';
