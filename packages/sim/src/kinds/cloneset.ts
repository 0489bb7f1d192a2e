// CloneSet's registration with the simulator: the input of reconcileCloneSet
// built from the store (owned pods, revisions and PVCs, the nodes, now), and
// its admission hooks (setDefaultsCloneSet, then validateCloneSet with the
// namespace's pods for the podsToDelete check).
import { type CloneSet, setDefaultsCloneSet } from '@kruise-ts/api';
import {
  type CloneSetCache,
  createCloneSetCache,
  reconcileCloneSet,
  validateCloneSet,
} from '@kruise-ts/cloneset';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Node, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import type { AdmissionChain } from '../admission';
import type { Store } from '../store';
import type { ControllerRegistration } from './registration';

/** The objects a CloneSet owns, by kind (one pass over the owner index). */
function ownedByKind(
  store: Store,
  uid: string | undefined,
): { pods: Pod[]; revisions: ControllerRevision[]; pvcs: PersistentVolumeClaim[] } {
  const out = {
    pods: [] as Pod[],
    revisions: [] as ControllerRevision[],
    pvcs: [] as PersistentVolumeClaim[],
  };
  if (!uid) return out;
  // Indexed loops in the per-reconcile passes: they run a few dozen times per scenario, often
  // before the optimising compiler has them, and an iterator allocates a result per element there.
  const owned = store.listOwnedBy(uid);
  for (let i = 0; i < owned.length; i++) {
    const o = owned[i];
    if (o.kind === 'Pod') out.pods.push(o as unknown as Pod);
    else if (o.kind === 'ControllerRevision') out.revisions.push(o as unknown as ControllerRevision);
    else if (o.kind === 'PersistentVolumeClaim') out.pvcs.push(o as unknown as PersistentVolumeClaim);
  }
  return out;
}

/** The reconcile with `cache` (one per simulation; `undefined`: a fresh one per reconcile). */
function reconcileWith(cache: CloneSetCache | undefined): ControllerRegistration['reconcile'] {
  return (store, obj, now, _state, env) => {
    const cloneSet = obj as CloneSet;
    const { pods, revisions, pvcs } = ownedByKind(store, cloneSet.metadata.uid);
    return reconcileCloneSet(
      {
        cloneSet,
        pods,
        revisions,
        pvcs,
        nodes: store.list('v1', 'Node') as unknown as Node[],
        now,
      },
      {
        featureGates: env.featureGates,
        seed: env.seed,
        structureCache: env.structureCache,
        ...(cache ? { cache } : {}),
      },
    );
  };
}

/** The CloneSet controller (apps.kruise.io/v1alpha1); each simulation keeps its own cache. */
export const cloneSetController: ControllerRegistration = {
  kind: 'CloneSet',
  apiVersion: 'apps.kruise.io/v1alpha1',
  admission: admitCloneSet,
  reconcile: reconcileWith(undefined),
  makeReconcile: () => reconcileWith(createCloneSetCache()),
};

/** CloneSet admission: the mutating webhook's defaults, then the validating webhook. */
export function admitCloneSet(chain: AdmissionChain): void {
  chain.register('apps.kruise.io/v1alpha1', 'CloneSet', {
    defaulters: [
      (obj, ctx) =>
        setDefaultsCloneSet(obj as CloneSet, { featureGates: ctx.featureGates, old: ctx.old }) as CloneSet,
    ],
    validators: [
      (obj, ctx) =>
        validateCloneSet(obj as CloneSet, ctx.old as CloneSet | undefined, {
          pods: ctx.list('v1', 'Pod', obj.metadata.namespace ?? 'default') as unknown as Pod[],
        }),
    ],
  });
}
