// The Advanced DaemonSet types this package works on (re-exported from @kruise-ts/api).
export type {
  DaemonSet,
  DaemonSetCondition,
  DaemonSetSpec,
  DaemonSetStatus,
  DaemonSetUpdateStrategy,
  DaemonSetUpdateStrategyType,
  RollingUpdateDaemonSet,
  RollingUpdateType,
} from '@kruise-ts/api';
