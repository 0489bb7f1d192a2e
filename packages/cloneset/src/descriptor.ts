// The CloneSet controller as every shell drives it (docs/architecture.md "The registry layer"):
// its reconcile reads the pods, revisions and claims the CloneSet owns and every node (for the
// topology-spread ranker of scale-in, cloneset.md §8.3); its admission is the mutating webhook's
// defaults and the validating webhook with the namespace's pods for the podsToDelete check.
import { type CloneSet, type CloneSetStatus, setDefaultsCloneSet } from '@kruise-ts/api';
import {
  CONTROLLER_REVISION,
  defineController,
  kindRef,
  NODE,
  type ObjectReader,
  POD,
  PVC,
} from '@kruise-ts/core';
import { type CloneSetCache, createCloneSetCache } from './cache';
import { reconcileCloneSet } from './reconcile';
import type { CloneSetControllerState } from './types';
import { validateCloneSet } from './validation';

/** The CloneSet kind (apps.kruise.io/v1alpha1). */
export const CLONESET_KIND = kindRef<CloneSet>('apps.kruise.io/v1alpha1', 'CloneSet');

/**
 * The objects a CloneSet owns that its reconcile reads (none before it has a uid, nor for an
 * object without metadata, which the reconcile refuses with a field error). The reconcile's input
 * takes mutable arrays, so the reader's answers are copied.
 */
function ownedBy(reader: ObjectReader, cloneSet: CloneSet) {
  const uid = cloneSet.metadata?.uid;
  if (!uid) return { pods: [], revisions: [], pvcs: [] };
  return {
    pods: [...reader.ownedBy(POD, uid)],
    revisions: [...reader.ownedBy(CONTROLLER_REVISION, uid)],
    pvcs: [...reader.ownedBy(PVC, uid)],
  };
}

/**
 * The CloneSet controller: `cloneset-controller` (docs/reference/operator.md §3.5). A shell keeps
 * one `createCloneSetCache()` per controller; the answers are the same without it.
 */
export const cloneSetDescriptor = defineController<
  CloneSet,
  CloneSetStatus,
  CloneSetControllerState,
  CloneSetCache
>({
  name: 'cloneset-controller',
  primary: CLONESET_KIND,
  secondary: [POD, PVC, CONTROLLER_REVISION, NODE],
  readSet: (cloneSet, reader) => {
    const { pods, revisions } = ownedBy(reader, cloneSet);
    return [cloneSet, ...pods, ...revisions];
  },
  createCache: createCloneSetCache,
  reconcile: (cloneSet, reader, now, _state, env, cache) =>
    reconcileCloneSet(
      { cloneSet, ...ownedBy(reader, cloneSet), nodes: [...reader.list(NODE)], now },
      {
        featureGates: env.featureGates,
        seed: env.seed,
        structureCache: env.structureCache,
        scalingExcludePreparingDelete: env.scalingExcludePreparingDelete,
        ...(cache ? { cache } : {}),
      },
    ),
  admission: {
    default: (cloneSet, env) =>
      setDefaultsCloneSet(cloneSet, { featureGates: env.featureGates, old: env.old }),
    validate: (cloneSet, env) =>
      validateCloneSet(cloneSet, env.old, {
        // The validation's context takes a mutable array: the reader's answer is copied.
        pods: [...env.reader.list(POD, cloneSet.metadata?.namespace ?? 'default')],
      }),
  },
});
