// The SidecarSet controller as every shell drives it (docs/architecture.md "The registry
// layer"): its reconcile reads every pod and namespace and the SidecarSet's revisions in the
// kruise namespace; a pod change concerns the SidecarSets it belongs to (SS-5.9); its admission is
// defaulting with the hashes and validation (§1.2, §2, §6), plus sidecar injection into pods at
// CREATE (§3, §4).
import type { SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import {
  asKind,
  CONFIG_MAP,
  CONTROLLER_REVISION,
  defineController,
  kindRef,
  NAMESPACE,
  NOTHING_TO_ENQUEUE,
  POD,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { getPodMatchedSidecarSets } from './events';
import { defaultSidecarSetThenHash } from './hash';
import { injectSidecars } from './injectSidecars';
import { reconcileSidecarSet } from './reconcile';
import type { SidecarSetControllerState } from './types';
import { validateSidecarSet } from './validation';

/** The SidecarSet kind (apps.kruise.io/v1alpha1, cluster-scoped). */
export const SIDECARSET_KIND = kindRef<SidecarSet>('apps.kruise.io/v1alpha1', 'SidecarSet');

/** The name of kruise's configuration ConfigMap in the kruise namespace. */
const KRUISE_CONFIGURATION = 'kruise-configuration';

/** The SidecarSet controller: `sidecarset-controller` (docs/reference/operator.md §3.5). */
export const sidecarSetDescriptor = defineController<SidecarSet, SidecarSetStatus, SidecarSetControllerState>(
  {
    name: 'sidecarset-controller',
    primary: SIDECARSET_KIND,
    secondary: [POD, NAMESPACE, CONTROLLER_REVISION],
    // SS-5.9: a pod change concerns the SidecarSets in its injected list that it is consistent with.
    enqueueFor: (changed, reader) => {
      const pod = asKind(changed, POD);
      if (!pod) return NOTHING_TO_ENQUEUE;
      const sets = reader.list(SIDECARSET_KIND);
      return sets.length === 0 ? NOTHING_TO_ENQUEUE : getPodMatchedSidecarSets(pod, sets);
    },
    readSet: (set) => [set],
    // The reconcile's input and the hooks' contexts take mutable arrays, so the reader's answers are copied.
    reconcile: (sidecarSet, reader, now, _state, env) =>
      reconcileSidecarSet(
        {
          sidecarSet,
          pods: [...reader.list(POD)],
          namespaces: [...reader.list(NAMESPACE)],
          revisions: [...reader.list(CONTROLLER_REVISION, env.kruiseNamespace)],
          now,
          kruiseNamespace: env.kruiseNamespace,
        },
        { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
      ),
    admission: {
      default: (set) => defaultSidecarSetThenHash(set),
      validate: (set, env) =>
        validateSidecarSet(set, env.old, {
          sidecarSets: [...env.reader.list(SIDECARSET_KIND)],
          namespaces: [...env.reader.list(NAMESPACE)],
          revisions: [...env.reader.list(CONTROLLER_REVISION, env.kruiseNamespace)],
          kruiseNamespace: env.kruiseNamespace,
          kruiseConfiguration: env.reader.get(CONFIG_MAP, env.kruiseNamespace, KRUISE_CONFIGURATION),
          featureGates: env.featureGates,
        }),
      mutatePod: (pod: Pod, env) => {
        if (env.operation !== 'CREATE') return { pod, errors: [] };
        const sidecarSets = env.reader.list(SIDECARSET_KIND);
        if (sidecarSets.length === 0) return { pod, errors: [] }; // nothing can be injected
        // A pod created without a namespace is in the request's (SS-4.1), else `default`.
        const ns = pod.metadata?.namespace ?? env.requestNamespace ?? 'default';
        return injectSidecars(pod, sidecarSets, {
          now: env.now,
          namespace: env.reader.get(NAMESPACE, undefined, ns),
          revisions: [...env.reader.list(CONTROLLER_REVISION, env.kruiseNamespace)],
          kruiseNamespace: env.kruiseNamespace,
          ...(env.requestNamespace !== undefined ? { requestNamespace: env.requestNamespace } : {}),
          ...(env.structureCache !== undefined ? { structureCache: env.structureCache } : {}),
          operation: 'CREATE',
        });
      },
    },
  },
);
