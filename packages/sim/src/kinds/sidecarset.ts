// SidecarSet's registration with the simulator (taken from packages/sidecarset/examples/
// simRegistration.ts): pod injection as an admission mutator on pod CREATE (sidecarset.md §3, §4),
// SidecarSet defaulting + hashes and validation (sidecarset.md §1.2, §2, §6), and the controller in the loop
// with a pod watch (SS-5.9).
import type { KubeObject, SidecarSet } from '@kruise-ts/api';
import { DEFAULT_KRUISE_NAMESPACE } from '@kruise-ts/api';
import { formatFieldError } from '@kruise-ts/core';
import {
  defaultSidecarSetThenHash,
  getPodMatchedSidecarSets,
  injectSidecars,
  reconcileSidecarSet,
  validateSidecarSet,
} from '@kruise-ts/sidecarset';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, Namespace, Pod } from 'kubernetes-types/core/v1.js';
import type { AdmissionChain } from '../admission';
import { type ControllerRegistration, NO_WATCHED } from './registration';

const SS_API = 'apps.kruise.io/v1alpha1';

/** SidecarSet and pod admission: defaulting + hashes, validation, and sidecar injection. */
export function admitSidecarSet(chain: AdmissionChain): void {
  chain.register(SS_API, 'SidecarSet', {
    defaulters: [(obj) => defaultSidecarSetThenHash(obj as SidecarSet) as KubeObject],
    validators: [
      (obj, ctx) =>
        validateSidecarSet(obj as SidecarSet, ctx.old as SidecarSet | undefined, {
          sidecarSets: ctx.list(SS_API, 'SidecarSet') as SidecarSet[],
          namespaces: ctx.list('v1', 'Namespace') as unknown as Namespace[],
          revisions: ctx.list(
            'apps/v1',
            'ControllerRevision',
            DEFAULT_KRUISE_NAMESPACE,
          ) as unknown as ControllerRevision[],
          kruiseConfiguration: ctx.get('v1', 'ConfigMap', DEFAULT_KRUISE_NAMESPACE, 'kruise-configuration') as
            | ConfigMap
            | undefined,
          featureGates: ctx.featureGates,
        }),
    ],
  });
  chain.register('v1', 'Pod', {
    mutators: [
      (obj, ctx) => {
        if (ctx.operation !== 'CREATE') return obj;
        const sidecarSets = ctx.list(SS_API, 'SidecarSet') as SidecarSet[];
        if (sidecarSets.length === 0) return obj; // nothing can be injected (and nothing to list)
        const pod = obj as unknown as Pod;
        const ns = pod.metadata?.namespace ?? 'default';
        const r = injectSidecars(pod, sidecarSets, {
          now: ctx.now,
          namespace: ctx.get('v1', 'Namespace', undefined, ns) as Namespace | undefined,
          revisions: ctx.list(
            'apps/v1',
            'ControllerRevision',
            DEFAULT_KRUISE_NAMESPACE,
          ) as unknown as ControllerRevision[],
          operation: 'CREATE',
        });
        // The webhook rejects the pod: the chain reports a thrown error as a rejection.
        if (r.errors.length > 0) throw new Error(r.errors.map(formatFieldError).join(', '));
        return r.pod as unknown as KubeObject;
      },
    ],
  });
}

/** The SidecarSet controller: all pods and namespaces, S's revisions, `now`. */
export const sidecarSetController: ControllerRegistration = {
  kind: 'SidecarSet',
  apiVersion: SS_API,
  reconcile: (store, obj, now, _state, env) =>
    reconcileSidecarSet(
      {
        sidecarSet: obj as SidecarSet,
        pods: store.list('v1', 'Pod') as unknown as Pod[],
        namespaces: store.list('v1', 'Namespace') as unknown as Namespace[],
        revisions: store.list(
          'apps/v1',
          'ControllerRevision',
          DEFAULT_KRUISE_NAMESPACE,
        ) as unknown as ControllerRevision[],
        now,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    ),
  // SS-5.9: a pod change enqueues the SidecarSets listed in its injected list.
  watches: (change, store) => {
    if (change.object.kind !== 'Pod' || !store.hasKind(SS_API, 'SidecarSet')) return NO_WATCHED;
    const sets = store.list(SS_API, 'SidecarSet') as SidecarSet[];
    return getPodMatchedSidecarSets(change.object as unknown as Pod, sets) as KubeObject[];
  },
  admission: admitSidecarSet,
};
