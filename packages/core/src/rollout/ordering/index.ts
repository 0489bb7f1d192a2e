// Update and deletion orderings (docs/reference/core.md §4, R7.3; docs/reference/cloneset.md §8.3, §9.3):
// priority and scatter sorts, the Kubernetes active-pods order, the CloneSet scale-in order
// and its rankers. The explicit list of what @kruise-ts/core exports from here (podFacts.ts stays
// internal).
export {
  type ActivePodsKey,
  activePodsIndexComparator,
  activePodsKey,
  compareActivePods,
  compareActivePodsKeys,
  memoizedTimeParser,
  sortIndexesByActivePods,
} from './activePods';
export {
  compareForScaleIn,
  type ScaleInOrderOptions,
} from './deletion';
export {
  comparePriority,
  hasPriorityTerms,
  type PriorityLabels,
  sortUpdateIndexesByPriority,
} from './priority';
export {
  pickPodsForScaleIn,
  type ScaleInRankContext,
  type SpreadRankOptions,
  sameNodeRanks,
  scaleInRanks,
  spreadConstraintRanks,
} from './rankers';
export {
  getScatterTerms,
  scatterPodsByRule,
  sortUpdateIndexesByScatter,
} from './scatter';
