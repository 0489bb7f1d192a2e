// What a controller registration is: the kind it reconciles, how it builds its input from the
// store and calls its pure reconcile, what else it watches and its admission hooks. The kinds/*
// modules each export one; controllers.ts lists them.
import type { KubeObject, StructureCache } from '@kruise-ts/api';
import type { AdmissionChain, Change, Store } from '@kruise-ts/cluster';
import type { FeatureGates, ReconcileResult } from '@kruise-ts/core';

/**
 * What a `watches` hook returns when the change concerns none of its objects: one shared, frozen
 * empty list (the hooks run on every store write, ~110k times in a 10k-pod rollout).
 */
export const NO_WATCHED: readonly KubeObject[] = Object.freeze([]);

/** What a reconcile gets besides the object. */
export interface ReconcileEnv {
  featureGates: Partial<FeatureGates>;
  /** A fresh seed for this reconcile (drawn from the scenario seed). */
  seed: number;
  /** The simulation's structure cache, for the reconcile entries' check of observed objects. */
  structureCache?: StructureCache;
}

/** One controller: the kind it reconciles and how to call its pure function. */
export interface ControllerRegistration {
  kind: string;
  apiVersion: string;
  /** Name in logs (`controller:<name>`); defaults to the kind. */
  name?: string;
  /**
   * Builds the input from the store and calls the pure reconcile. `state` is the
   * `controllerState` the previous reconcile of this object returned.
   */
  reconcile: (
    store: Store,
    obj: KubeObject,
    now: string,
    state: unknown,
    env: ReconcileEnv,
  ) => ReconcileResult<unknown, unknown>;
  /**
   * Makes the reconcile one simulation uses, holding what the controller keeps between its
   * reconciles (its cache, e.g. CloneSet's `createCloneSetCache()`). The controller loop calls it
   * once and keeps the result; without it, `reconcile` is used.
   */
  makeReconcile?: () => ControllerRegistration['reconcile'];
  /**
   * Extra watches: objects of this controller's kind to enqueue when another
   * object changes (owners through controller ownerReferences are enqueued
   * without this).
   */
  watches?: (change: Change, store: Store) => readonly KubeObject[];
  /** Admission hooks of the kind (defaults + validation), registered with the controller. */
  admission?: (chain: AdmissionChain) => void;
}
