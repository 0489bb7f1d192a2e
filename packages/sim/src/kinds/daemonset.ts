// Advanced DaemonSet's registration with the simulator (packages/daemonset/README.md
// "Simulator registration"): the input of reconcileDaemonSet built from the store (every node,
// the namespace's pods and revisions — the controller claims its own by controller reference and
// selector, daemonset.md §4.1 — now and the controllerState with the failed-pod back-off, §5.5), a watch
// that re-queues every DaemonSet when a node changes, and the admission hooks
// (setDefaultsDaemonSet, then validateDaemonSet).
import { type DaemonSet, type KubeObject, setDefaultsDaemonSet } from '@kruise-ts/api';
import { type DaemonSetControllerState, reconcileDaemonSet, validateDaemonSet } from '@kruise-ts/daemonset';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { AdmissionChain } from '../admission';
import type { ControllerRegistration } from './registration';

/** The Advanced DaemonSet controller (apps.kruise.io/v1alpha1). */
export const daemonSetController: ControllerRegistration = {
  kind: 'DaemonSet',
  apiVersion: 'apps.kruise.io/v1alpha1',
  admission: admitDaemonSet,
  reconcile: (store, obj, now, state, env) => {
    const ns = obj.metadata.namespace;
    return reconcileDaemonSet(
      {
        daemonSet: obj as DaemonSet,
        nodes: store.list('v1', 'Node') as unknown as Node[],
        pods: store.list('v1', 'Pod', ns) as unknown as Pod[],
        revisions: store.list('apps/v1', 'ControllerRevision', ns) as unknown as ControllerRevision[],
        now,
        ...(state ? { controllerState: state as DaemonSetControllerState } : {}),
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
  },
  // A node added, changed or removed may change where daemon pods must run (daemonset.md §3): every DaemonSet
  // is re-queued (their pods reach their owner through the controller ownerReference).
  watches: (change, store) =>
    change.object.kind === 'Node' && change.object.apiVersion === 'v1'
      ? store.list('apps.kruise.io/v1alpha1', 'DaemonSet')
      : [],
};

/** Advanced DaemonSet admission: the daemonset.md §1.2 defaults, then the §1.3 validation. */
export function admitDaemonSet(chain: AdmissionChain): void {
  chain.register('apps.kruise.io/v1alpha1', 'DaemonSet', {
    defaulters: [
      (obj, ctx) =>
        setDefaultsDaemonSet(obj as DaemonSet, {
          featureGates: ctx.featureGates,
          old: ctx.old,
        }) as unknown as KubeObject,
    ],
    validators: [(obj, ctx) => validateDaemonSet(obj as DaemonSet, ctx.old as DaemonSet | undefined)],
  });
}
