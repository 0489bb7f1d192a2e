// Deletion protection (docs/reference/operator.md §1) lives in @kruise-ts/core (shared with the simulator's API server).
export {
  checkDeletionProtection,
  DeletionProtectionMessages as Messages,
  type ProtectedKind,
  type ProtectionContext,
  type ProtectionDecision,
} from '@kruise-ts/core';
