// The Advanced StatefulSet controller as every shell drives it (docs/architecture.md "The
// registry layer"): its reconcile reads the namespace's pods, revisions and claims (members are
// picked by name and controller reference, claims looked up by name) and the state the previous
// reconcile returned (R4.8); its admission is the mutating webhook's defaults and the validating
// webhook.
import { type StatefulSet, type StatefulSetStatus, setDefaultsStatefulSet } from '@kruise-ts/api';
import { CONTROLLER_REVISION, defineController, kindRef, POD, PVC } from '@kruise-ts/core';
import { reconcileStatefulSet } from './reconcile';
import type { StatefulSetControllerState } from './types';
import { validateStatefulSet } from './validation';

/** The Advanced StatefulSet kind (apps.kruise.io/v1beta1; v1alpha1 objects are the same objects). */
export const ADVANCED_STATEFULSET_KIND = kindRef<StatefulSet>('apps.kruise.io/v1beta1', 'StatefulSet');

/** The Advanced StatefulSet controller: `statefulset-controller` (docs/reference/operator.md §3.5). */
export const statefulSetDescriptor = defineController<
  StatefulSet,
  StatefulSetStatus,
  StatefulSetControllerState
>({
  name: 'statefulset-controller',
  primary: ADVANCED_STATEFULSET_KIND,
  secondary: [POD, PVC, CONTROLLER_REVISION],
  readSet: (set, reader) => {
    // An object without metadata (refused by the reconcile) or a uid owns nothing.
    const uid = set.metadata?.uid;
    return uid ? [set, ...reader.ownedBy(POD, uid), ...reader.ownedBy(CONTROLLER_REVISION, uid)] : [set];
  },
  // The reconcile's input takes mutable arrays, so the reader's answers are copied.
  reconcile: (statefulSet, reader, now, state, env) => {
    const ns = statefulSet.metadata?.namespace;
    return reconcileStatefulSet(
      {
        statefulSet,
        pods: [...reader.list(POD, ns)],
        revisions: [...reader.list(CONTROLLER_REVISION, ns)],
        pvcs: [...reader.list(PVC, ns)],
        now,
        ...(state ? { controllerState: state } : {}),
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
  },
  admission: {
    default: (set, env) => setDefaultsStatefulSet(set, { featureGates: env.featureGates, old: env.old }),
    validate: (set, env) => validateStatefulSet(set, env.old, { featureGates: env.featureGates }),
  },
});
