// @kruise-ts/sidecarset: OpenKruise's SidecarSet as pure functions — injectSidecars (the
// pod-mutating admission step), reconcileSidecarSet (the in-place / hot upgrade controller),
// validateSidecarSet and defaultSidecarSetThenHash (the SidecarSet webhooks).

export { SidecarSetAnnotationCache } from './annotationCache';
export type { SidecarSetUpdateState, SidecarSetUpgradeSpec } from './annotations';
export {
  encodeUpgradeSpecMap,
  findWorkingHotUpgradeContainer,
  getInjectedList,
  getPodSidecarSetRevision,
  getWorkingHotUpgradeContainers,
  parseUpgradeSpecMap,
  readSidecarSetUpdateStates,
} from './annotations';
export type { InjectedContainer, SidecarSetInjection } from './buildContainers';
export {
  buildSidecarContainer,
  buildSidecarSetInjection,
  convertDownwardAPIFieldLabel,
  extractContainerNameFromFieldPath,
  getSidecarTransferEnvs,
} from './buildContainers';
export {
  isNamespaceOverlapping,
  isSelectorOverlapping,
  KRUISE_CONFIGURATION_NAME,
  PATCH_POD_METADATA_WHITELIST_KEY,
  validateSidecarConflict,
  validateSidecarSetPatchMetadataWhitelist,
} from './conflict';
export { SIDECARSET_KIND, sidecarSetDescriptor } from './descriptor';
export type { EnqueueRequest, PodEvent } from './events';
export { getPodMatchedSidecarSets, podEventEnqueue } from './events';
export { encodeSidecarContainer } from './goEncoding';
export {
  defaultSidecarSetThenHash,
  sidecarSetHash,
  sidecarSetHashEncoding,
  sidecarSetHashWithoutImage,
  withSidecarSetHashes,
} from './hash';
export {
  getHistorySidecarSet,
  newSidecarSetRevision,
  registerLatestRevision,
  replaceRevision,
  sidecarSetRevisionData,
  sidecarSetRevisionHash,
  truncateHistory,
} from './history';
export { injectSidecars, podDraw, resolveInjectedSidecarSet } from './injectSidecars';
export {
  CLUSTER_SCOPE_INDEX,
  candidateSidecarSets,
  getMatchingPods,
  isActivePod,
  isPodConsistentWithSidecarSet,
  podMatchedSidecarSet,
  sidecarContainerNames,
  sidecarSetNamespaceIndex,
} from './matching';
export {
  mergeImagePullSecrets,
  mergeSidecarContainers,
  mergeVolumes,
  sortByNameThenMergeSidecarContainers,
} from './merge';
export { goMergePatch } from './mergePatchJson';
export { patchPodMetadata } from './patchMetadata';
export type { Upgradability } from './predicates';
export {
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarContainerUpdateCompleted,
  isSidecarReady,
  PodFacts,
  podUpgradability,
} from './predicates';
export { reconcileSidecarSet, sidecarSetRef } from './reconcile';
export { sha256Hex } from './sha256';
export { calculateSidecarSetStatus, statusNeedsWrite } from './status';
export {
  getNextUpgradePods,
  parseUpdateScatterTerms,
  sidecarSetMaxUnavailable,
  sidecarSetPartition,
} from './strategy';
export type {
  InjectSidecarsContext,
  InjectSidecarsResult,
  Now,
  ReconcileSidecarSetInput,
  ReconcileSidecarSetOptions,
  SidecarSetControllerState,
  ValidateSidecarSetContext,
} from './types';
export { Reasons } from './types';
export {
  flipHotUpgradePod,
  hotUpgradeTarget,
  SIDECARSET_UPGRADABLE,
  setUpgradableCondition,
  updatePodSidecarSetHash,
  upgradePodSidecars,
} from './update';
export { validateSidecarSet, validateSidecarSetSpec } from './validation';
