// A simulator-only registration's reconcile for one kind. The controller loop hands every
// registration its objects as the store keeps them (KubeObjects); `reconcileOfKind` checks the
// kind with core's `isKind` and gives the reconcile the object typed by its KindRef, so no
// registration casts the object it reconciles.
import type { Store } from '@kruise-ts/cluster';
import { asKind, invalid, type KindRef, type ReconcileResult } from '@kruise-ts/core';
import type { ControllerRegistration, ReconcileEnv } from './registration';

/**
 * The registration reconcile that runs `reconcile` on objects of `ref`'s kind; an object of
 * another kind (a registry that routed it wrongly) gets no work and a field error.
 * Example: `reconcileOfKind(JOB, (store, job, now) => reconcileJob(job, ..., now))`.
 */
export function reconcileOfKind<T>(
  ref: KindRef<T>,
  reconcile: (
    store: Store,
    obj: T,
    now: string,
    state: unknown,
    env: ReconcileEnv,
  ) => ReconcileResult<unknown, unknown>,
): ControllerRegistration['reconcile'] {
  return (store, obj, now, state, env) => {
    const typed = asKind(obj, ref);
    return typed === undefined
      ? { actions: [], status: undefined, errors: [invalid('kind', obj.kind, `must be ${ref.kind}`)] }
      : reconcile(store, typed, now, state, env);
  };
}
