// Advanced StatefulSet's registration with the simulator: the input of reconcileStatefulSet
// built from the store (the namespace's pods, revisions and claims — the controller picks its
// members by name and controller reference, and looks claims up by name — now and the
// controllerState), and its admission hooks (setDefaultsStatefulSet, then validateStatefulSet).
import { type KubeObject, type StatefulSet, setDefaultsStatefulSet } from '@kruise-ts/api';
import {
  reconcileStatefulSet,
  type StatefulSetControllerState,
  validateStatefulSet,
} from '@kruise-ts/statefulset';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import type { AdmissionChain } from '../admission';
import type { ControllerRegistration } from './registration';

/** The Advanced StatefulSet controller (apps.kruise.io/v1beta1; v1alpha1 shares the group). */
export const statefulSetController: ControllerRegistration = {
  kind: 'StatefulSet',
  apiVersion: 'apps.kruise.io/v1beta1',
  reconcile: (store, obj, now, state, env) => {
    const set = obj as StatefulSet;
    const ns = set.metadata.namespace;
    return reconcileStatefulSet(
      {
        statefulSet: set,
        pods: store.list('v1', 'Pod', ns) as unknown as Pod[],
        revisions: store.list('apps/v1', 'ControllerRevision', ns) as unknown as ControllerRevision[],
        pvcs: store.list('v1', 'PersistentVolumeClaim', ns) as unknown as PersistentVolumeClaim[],
        now,
        ...(state ? { controllerState: state as StatefulSetControllerState } : {}),
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
  },
};

/** Advanced StatefulSet admission: the mutating webhook's defaults, then the validating webhook. */
export function admitStatefulSet(chain: AdmissionChain): void {
  chain.register('apps.kruise.io/v1beta1', 'StatefulSet', {
    defaulters: [
      (obj, ctx) =>
        setDefaultsStatefulSet(obj as StatefulSet, {
          featureGates: ctx.featureGates,
          old: ctx.old,
        }) as unknown as KubeObject,
    ],
    validators: [
      (obj, ctx) =>
        validateStatefulSet(obj as StatefulSet, ctx.old as StatefulSet | undefined, {
          featureGates: ctx.featureGates,
        }),
    ],
  });
}
