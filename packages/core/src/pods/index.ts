// Pods: conditions, Ready and Available, the KruisePodReady not-ready switch, lifecycle hooks and
// the QoS class. The explicit list of what @kruise-ts/core exports from here.
export {
  getPodCondition,
  isPodActive,
  isPodAvailable,
  isPodReady,
  podReadySince,
} from './conditions';
export {
  addNotReadyKey,
  encodeNotReadyMessages,
  type PodReadinessMessage,
  PRE_UPDATE_HOOK_MESSAGE,
  removeNotReadyKey,
} from './kruisePodReady';
export {
  getPodLifecycleState,
  isAllHooked,
  isHooked,
  isHookMarkPodNotReady,
  type LifecycleRefreshChecks,
  type LifecycleUpdateAction,
  lifecycleRefreshTarget,
  lifecycleUpdateAction,
  preDeleteAction,
  refreshPodLifecycle,
  setPodLifecycleState,
  setPodPreparingDelete,
  setPodPreparingUpdate,
} from './lifecycle';
