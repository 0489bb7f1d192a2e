// The controllers the operator runs: for each Kruise kind, which informers it needs, how an
// event on another object maps to its work-queue keys, and how its pure reconcile's input is
// built from the cache. No rollout math here: every decision is the controller package's.
import type { CloneSet, DaemonSet, KubeObject, SidecarSet, StatefulSet } from '@kruise-ts/api';
import { type CloneSetCache, createCloneSetCache, reconcileCloneSet } from '@kruise-ts/cloneset';
import type { FeatureGates, ReconcileResult } from '@kruise-ts/core';
import { reconcileDaemonSet } from '@kruise-ts/daemonset';
import { reconcileSidecarSet } from '@kruise-ts/sidecarset';
import { reconcileStatefulSet } from '@kruise-ts/statefulset';
import { reconcileUnitedDeployment } from '@kruise-ts/uniteddeployment';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Namespace, Node, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import { keyFor } from '../kube/resources';
import {
  type CacheReader,
  type KindRef,
  NAMESPACE,
  NODE,
  type OperatorController,
  ownerKey,
  POD,
  PVC,
  REVISION,
} from './common';
import {
  advancedCronJobController,
  containerRecreateRequestController,
  imageListPullJobController,
  imagePullJobController,
  nodeImageController,
  nodeImageFromNodeController,
} from './nodeops';

export * from './common';
export {
  type DiscoveryOptions,
  isServed,
  resolveControllers,
  type ServedKinds,
  servedKinds,
} from './discovery';
export * from './nodeops';

function owned(cache: CacheReader, uid: string | undefined) {
  if (!uid)
    return { pods: [] as Pod[], revisions: [] as ControllerRevision[], pvcs: [] as PersistentVolumeClaim[] };
  return {
    pods: cache.ownedBy(POD, uid) as unknown as Pod[],
    revisions: cache.ownedBy(REVISION, uid) as unknown as ControllerRevision[],
    pvcs: cache.ownedBy(PVC, uid) as unknown as PersistentVolumeClaim[],
  };
}

/** CloneSet (apps.kruise.io/v1alpha1): owned pods, revisions and PVCs, plus nodes. */
export const cloneSetController: OperatorController = {
  name: 'cloneset-controller',
  primary: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
  secondary: [POD, PVC, REVISION, NODE],
  keysFor: (obj) => (obj.kind === 'Node' ? [] : ownerKey(obj, cloneSetController.primary)),
  readSet: (obj, cache) => {
    const o = owned(cache, obj.metadata.uid);
    return [obj, ...(o.pods as unknown as KubeObject[]), ...(o.revisions as unknown as KubeObject[])];
  },
  reconcile: cloneSetReconcile(undefined),
  makeReconcile: () => cloneSetReconcile(createCloneSetCache()),
};

/** CloneSet's reconcile with `memo` (one per runner; `undefined`: a fresh one per reconcile). */
function cloneSetReconcile(memo: CloneSetCache | undefined): OperatorController['reconcile'] {
  return (obj, cache, now, _state, env) => {
    const o = owned(cache, obj.metadata.uid);
    return reconcileCloneSet(
      { cloneSet: obj as CloneSet, ...o, nodes: cache.list(NODE) as unknown as Node[], now },
      {
        featureGates: env.featureGates,
        seed: env.seed,
        structureCache: env.structureCache,
        scalingExcludePreparingDelete: env.scalingExcludePreparingDelete,
        ...(memo ? { cache: memo } : {}),
      },
    );
  };
}

/** Advanced StatefulSet (apps.kruise.io/v1beta1): the namespace's pods, revisions and PVCs. */
export const statefulSetController: OperatorController = {
  name: 'statefulset-controller',
  primary: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
  secondary: [POD, PVC, REVISION],
  readSet: (obj, cache) => [
    obj,
    ...cache.ownedBy(POD, obj.metadata.uid ?? ''),
    ...cache.ownedBy(REVISION, obj.metadata.uid ?? ''),
  ],
  reconcile: (obj, cache, now, state, env) => {
    const ns = obj.metadata.namespace;
    return reconcileStatefulSet(
      {
        statefulSet: obj as StatefulSet,
        pods: cache.list(POD, ns) as unknown as Pod[],
        revisions: cache.list(REVISION, ns) as unknown as ControllerRevision[],
        pvcs: cache.list(PVC, ns) as unknown as PersistentVolumeClaim[],
        now,
        controllerState: state as any,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    ) as ReconcileResult<unknown>;
  },
};

/** Advanced DaemonSet: nodes (any node event enqueues every DaemonSet), the namespace's pods and revisions. */
export const daemonSetController: OperatorController = {
  name: 'daemonset-controller',
  primary: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet' },
  secondary: [POD, REVISION, NODE],
  keysFor: (obj, cache) =>
    obj.kind === 'Node'
      ? cache
          .list(daemonSetController.primary)
          .map((d) => keyFor(d.metadata.namespace, d.metadata.name ?? ''))
      : ownerKey(obj, daemonSetController.primary),
  readSet: (obj, cache) => [obj, ...cache.ownedBy(POD, obj.metadata.uid ?? '')],
  reconcile: (obj, cache, now, state, env) => {
    const ns = obj.metadata.namespace;
    return reconcileDaemonSet(
      {
        daemonSet: obj as DaemonSet,
        nodes: cache.list(NODE) as unknown as Node[],
        pods: cache.list(POD, ns) as unknown as Pod[],
        revisions: cache.list(REVISION, ns) as unknown as ControllerRevision[],
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    ) as ReconcileResult<unknown>;
  },
};

/** SidecarSet (cluster-scoped): every pod event enqueues every SidecarSet (they select pods by labels). */
export const sidecarSetController: OperatorController = {
  name: 'sidecarset-controller',
  primary: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' },
  secondary: [POD, NAMESPACE, REVISION],
  keysFor: (obj, cache) =>
    obj.kind === 'Pod' ? cache.list(sidecarSetController.primary).map((s) => s.metadata.name ?? '') : [],
  readSet: (obj) => [obj],
  reconcile: (obj, cache, now, _state, env) =>
    reconcileSidecarSet(
      {
        sidecarSet: obj as SidecarSet,
        pods: cache.list(POD) as unknown as Pod[],
        namespaces: cache.list(NAMESPACE) as unknown as Namespace[],
        revisions: cache.list(REVISION, env.kruiseNamespace) as unknown as ControllerRevision[],
        now,
        kruiseNamespace: env.kruiseNamespace,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    ) as ReconcileResult<unknown>,
};

const SUBSET_KINDS: KindRef[] = [
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
];

/** UnitedDeployment: its subset workloads (of the four kinds, plus ReplicaSets) in the namespace. */
export const unitedDeploymentController: OperatorController = {
  name: 'uniteddeployment-controller',
  primary: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' },
  secondary: [POD, REVISION, ...SUBSET_KINDS],
  readSet: (obj) => [obj],
  reconcile: (obj, cache, now, state, env) => {
    const ns = obj.metadata.namespace;
    return reconcileUnitedDeployment(
      {
        unitedDeployment: obj as any,
        subsets: SUBSET_KINDS.flatMap((k) => cache.list(k, ns)),
        pods: cache.list(POD, ns) as unknown as Pod[],
        revisions: cache.list(REVISION, ns) as unknown as ControllerRevision[],
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    ) as ReconcileResult<unknown>;
  },
};

/**
 * Every controller, in docs/reference/operator.md §3.5 registration order (the NodeImage controller runs as
 * two runners: by NodeImage, and by Node for the NodeImages that do not exist yet).
 */
export const allControllers: readonly OperatorController[] = [
  advancedCronJobController,
  cloneSetController,
  containerRecreateRequestController,
  daemonSetController,
  nodeImageController,
  nodeImageFromNodeController,
  imagePullJobController,
  sidecarSetController,
  statefulSetController,
  unitedDeploymentController,
  imageListPullJobController,
];

/** The `--controllers` name of a controller: `selectAs`, else its name without `-controller`. */
export function shortName(c: OperatorController): string {
  return c.selectAs ?? c.name.replace(/-controller$/, '');
}

/**
 * Controllers by their short name (`cloneset`, `statefulset`, `imagepulljob`, ...), for
 * `--controllers`; with `gates`, only those whose §3.5 condition holds (e.g. `imagepulljob`
 * needs `KruiseDaemon` and `ImagePullJobGate`). The CRD half of §3.5 is `resolveControllers`.
 */
export function selectControllers(
  names: readonly string[] | 'all',
  gates?: FeatureGates,
): OperatorController[] {
  const picked =
    names === 'all' ? [...allControllers] : allControllers.filter((c) => names.includes(shortName(c)));
  return gates ? picked.filter((c) => c.enabled?.(gates) ?? true) : picked;
}
