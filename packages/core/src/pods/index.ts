// Pods: conditions, Ready and Available, the KruisePodReady not-ready switch, lifecycle hooks and
// the QoS class. The explicit list of what @kruise-ts/core exports from here.
export {
  getPodCondition,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodTerminating,
  podReadySince,
  recomputedReadyCondition,
  recomputeReadyCondition,
  setCondition,
  setPodCondition,
} from './conditions';
export {
  addNotReadyKey,
  decodeNotReadyMessages,
  encodeNotReadyMessages,
  hasNotReadyKey,
  LIFECYCLE_USER_AGENT,
  type PodReadinessMessage,
  PRE_DELETE_HOOK_MESSAGE,
  PRE_UPDATE_HOOK_MESSAGE,
  removeNotReadyKey,
} from './kruisePodReady';
export {
  getPodLifecycleState,
  isAllHooked,
  isHooked,
  isHookMarkPodNotReady,
  isLifecycleMarkPodNotReady,
  isLifecycleNormalOrAbsent,
  type LifecycleRefreshChecks,
  type LifecycleUpdateAction,
  lifecycleRefreshTarget,
  lifecycleUpdateAction,
  podNotReadyPolicyAction,
  preDeleteAction,
  refreshPodLifecycle,
  setPodLifecycleState,
  setPodLifecycleWithHandler,
  setPodPreparingDelete,
  setPodPreparingUpdate,
} from './lifecycle';
export {
  getPodQOS,
  type PodQOSClass,
} from './qos';
