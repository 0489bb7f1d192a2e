// The stable `reason` words of the actions reconcileCloneSet returns, one per rule that acts.

/** The stable `reason` words of the actions `reconcileCloneSet` returns. */
export const Reasons = {
  /** A new pod (or its PVC) created by scale-up (§7). */
  ScaleUp: 'ScaleUp',
  /** A pod (and its PVCs) deleted by scale-in selection (§8.3). */
  ScaleDown: 'ScaleDown',
  /** A specified-delete pod (and its PVCs) deleted (§8.2). */
  SpecifiedDelete: 'SpecifiedDelete',
  /** A pod moved to PreparingDelete, or a PreparingDelete pod deleted once its hook is gone (§8.2). */
  PreparingDelete: 'PreparingDelete',
  /** PreparingDelete cancelled back to PreparingNormal by a scale-up (§8.1). */
  CancelPreparingDelete: 'CancelPreparingDelete',
  /** In-place update started or a lifecycle step before it (§10.3). */
  InPlaceUpdate: 'InPlaceUpdate',
  /** A pod labelled specified-delete to be recreated (§9.5). */
  RecreateUpdate: 'RecreateUpdate',
  /** The per-pod refresh: in-place progress, InPlaceUpdateReady, lifecycle transitions, pod-template-hash (§1.2). */
  LifecycleTransition: 'LifecycleTransition',
  /** A new ControllerRevision (§12). */
  CreateRevision: 'CreateRevision',
  /** An old revision given the next revision number (rollback, §12). */
  UpdateRevision: 'UpdateRevision',
  /** A non-live revision deleted by history truncation (§12). */
  TruncateHistory: 'TruncateHistory',
  /** An owned pod whose labels no longer match the selector (§3.2). */
  ReleasePod: 'ReleasePod',
  /** `disablePVCReuse` cleanup (§7.4). */
  CleanupPVC: 'CleanupPVC',
  /** Names of gone pods removed from `scaleStrategy.podsToDelete` (§1 step 14). */
  PodsToDeleteCleanup: 'PodsToDeleteCleanup',
  /** The CloneSet status (§13). */
  UpdateStatus: 'UpdateStatus',
  /** Validation failed (§2.2); nothing else is done. */
  FailedValidation: 'FailedValidation',
} as const;
