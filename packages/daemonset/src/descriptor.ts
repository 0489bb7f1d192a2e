// The Advanced DaemonSet controller as every shell drives it (docs/architecture.md "The registry
// layer"): its reconcile reads every node, the namespace's pods and revisions (it claims its own
// by controller reference and selector, daemonset.md §4.1) and the failed-pod back-off the
// previous reconcile returned (§5.5); any node change concerns every DaemonSet (§3); its
// admission is the §1.2 defaults and the §1.3 validation.
import { type DaemonSet, type DaemonSetStatus, setDefaultsDaemonSet } from '@kruise-ts/api';
import {
  CONTROLLER_REVISION,
  defineController,
  isOfKind,
  kindRef,
  NODE,
  NOTHING_TO_ENQUEUE,
  POD,
} from '@kruise-ts/core';
import type { DaemonSetControllerState } from './backoff';
import { reconcileDaemonSet } from './reconcile';
import { validateDaemonSet } from './validation';

/** The Advanced DaemonSet kind (apps.kruise.io/v1alpha1). */
export const ADVANCED_DAEMONSET_KIND = kindRef<DaemonSet>('apps.kruise.io/v1alpha1', 'DaemonSet');

/** The Advanced DaemonSet controller: `daemonset-controller` (docs/reference/operator.md §3.5). */
export const daemonSetDescriptor = defineController<DaemonSet, DaemonSetStatus, DaemonSetControllerState>({
  name: 'daemonset-controller',
  primary: ADVANCED_DAEMONSET_KIND,
  secondary: [POD, CONTROLLER_REVISION, NODE],
  // A node added, changed or removed may change where daemon pods must run (§3): every DaemonSet.
  // Their pods reach them through the controller ownerReference, as every shell does by default.
  enqueueFor: (changed, reader) =>
    isOfKind(changed, NODE) ? reader.list(ADVANCED_DAEMONSET_KIND) : NOTHING_TO_ENQUEUE,
  // An object without metadata (refused by the reconcile) or a uid owns nothing.
  readSet: (ds, reader) => {
    const uid = ds.metadata?.uid;
    return uid ? [ds, ...reader.ownedBy(POD, uid)] : [ds];
  },
  reconcile: (daemonSet, reader, now, state, env) => {
    const ns = daemonSet.metadata?.namespace;
    return reconcileDaemonSet(
      {
        daemonSet,
        nodes: reader.list(NODE),
        pods: reader.list(POD, ns),
        revisions: reader.list(CONTROLLER_REVISION, ns),
        now,
        ...(state ? { controllerState: state } : {}),
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
  },
  admission: {
    default: (ds, env) => setDefaultsDaemonSet(ds, { featureGates: env.featureGates, old: env.old }),
    validate: (ds, env) => validateDaemonSet(ds, env.old),
  },
});
