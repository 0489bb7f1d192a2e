// Rollout machinery shared by the workload controllers: ControllerRevisions and the revision plan,
// specified delete, the per-reconcile burst. The in-place update protocol (./inplace) and the
// update and deletion orders (./ordering) have their own index. The explicit list of what
// @kruise-ts/core exports from here.
export {
  Burst,
  DEFAULT_BURST_REPLICAS,
  REQUEUE_NOW,
  resolveBurstReplicas,
} from './burst';
export {
  type ChooseUpdateRevisionOptions,
  chooseUpdateRevision,
  equalRevision,
  getPodRevision,
  getRevisionData,
  isPodAtRevision,
  isPodUpdate,
  makeRevisionData,
  type NewControllerRevisionOptions,
  type NewRevisionChoice,
  newControllerRevision,
  nextRevisionNumber,
  type RevisionData,
  type RevisionEquality,
  resolveRevisionNameCollision,
  revisionObject,
  revisionsToTruncate,
  revisionTemplate,
  shortHash,
  sortControllerRevisions,
  type UpdateRevisionChoice,
} from './revision';
export {
  type ControllerRevisionPlan,
  type PlanControllerRevisionsOptions,
  planControllerRevisions,
} from './revisionPlan';
export { isSpecifiedDelete } from './specifiedDelete';
