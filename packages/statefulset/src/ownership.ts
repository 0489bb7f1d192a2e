// Which objects a set works with (docs/reference/statefulset.md R4.1, §4.2): member pods (parsed parent
// equals the set name) and revisions, claimed the controller-ref way — owned ones kept (and
// released when they no longer match the selector), orphans matching the selector adopted —
// and the v1alpha1 → v1beta1 conversion (§2.3).
import { APPS_KRUISE_GROUP, APPS_V1ALPHA1, type StatefulSet, type StatefulSetStatus } from '@kruise-ts/api';
import {
  type Action,
  type LabelRequirement,
  labelSelectorAsRequirements,
  type ObjectRef,
  requirementMatches,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1.js';
import { controllerRefOf } from './identity';
import { isMemberOf } from './ordinals';
import { revisionRef } from './revisions';
import { coreRef } from './round';
import { Reasons } from './types';

/** Is this controller reference the set's? By uid; a set without uid matches by group, kind and name. */
export function isControllerRefOf(ref: OwnerReference, set: StatefulSet): boolean {
  if (set.metadata.uid) return ref.uid === set.metadata.uid;
  return (
    ref.kind === 'StatefulSet' &&
    ref.name === set.metadata.name &&
    ref.apiVersion.startsWith(`${APPS_KRUISE_GROUP}/`)
  );
}

type Claimable = { metadata?: ObjectMeta };

/**
 * The controller-ref claim of Kubernetes' `ControllerRefManager` for one kind: objects the set
 * controls are kept while they match the selector and released (their reference removed)
 * otherwise; orphans matching the selector are adopted (reference added) unless the set or
 * the object is being deleted; objects controlled by someone else are ignored.
 */
function claimObjects<T extends Claimable>(
  set: StatefulSet,
  objects: readonly T[],
  refOf: (o: T) => ObjectRef,
): { claimed: T[]; actions: Action[] } {
  const claimed: T[] = [];
  const actions: Action[] = [];
  // The selector parsed once (an invalid one matches nothing, as `LabelSelectorAsSelector` fails).
  let requirements: LabelRequirement[] | null;
  try {
    requirements = labelSelectorAsRequirements(set.spec.selector);
  } catch {
    requirements = null;
  }
  for (const o of objects) {
    const refs = o.metadata?.ownerReferences ?? [];
    const controller = refs.find((r) => r.controller === true);
    const labels = o.metadata?.labels ?? {};
    const matches = requirements?.every((r) => requirementMatches(r, labels)) ?? false;
    if (controller) {
      if (!isControllerRefOf(controller, set)) continue;
      if (matches) {
        claimed.push(o);
        continue;
      }
      if (o.metadata?.deletionTimestamp) continue;
      const kept = refs.filter((r) => r !== controller);
      actions.push({
        verb: 'patch',
        target: refOf(o),
        patchType: 'merge',
        patch: { metadata: { ownerReferences: kept.length > 0 ? kept : null } },
        reason: Reasons.Release,
      });
      continue;
    }
    if (!matches || set.metadata.deletionTimestamp || o.metadata?.deletionTimestamp) continue;
    const ownerReferences = [...refs, controllerRefOf(set)];
    actions.push({
      verb: 'patch',
      target: refOf(o),
      patchType: 'merge',
      patch: { metadata: { ownerReferences } },
      reason: Reasons.Adopt,
    });
    claimed.push({ ...o, metadata: { ...o.metadata, ownerReferences } });
  }
  return { claimed, actions };
}

/** R4.1: the member pods of the set in its namespace (R3.2), claimed. */
export function claimPods(set: StatefulSet, pods: readonly Pod[]): { pods: Pod[]; actions: Action[] } {
  const ns = set.metadata.namespace ?? '';
  const name = set.metadata.name ?? '';
  const members = pods.filter(
    (p) => (p.metadata?.namespace ?? '') === ns && isMemberOf(name, p.metadata?.name),
  );
  const r = claimObjects(set, members, (p) => coreRef(p, 'Pod'));
  return { pods: r.claimed, actions: r.actions };
}

/** §4.2: the set's revisions in its namespace, claimed. */
export function claimRevisions(
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
): { revisions: ControllerRevision[]; actions: Action[] } {
  const ns = set.metadata.namespace ?? '';
  const inNs = revisions.filter((r) => (r.metadata?.namespace ?? '') === ns);
  const r = claimObjects(set, inNs, revisionRef);
  return { revisions: r.claimed, actions: r.actions };
}

/**
 * §2.3: the v1beta1 form the controller reconciles. A v1alpha1 set is converted field by field:
 * `reserveOrdinals`, `lifecycle`, `scaleStrategy`, `persistentVolumeClaimRetentionPolicy`,
 * `ordinals` and `volumeClaimUpdateStrategy` do not exist in v1alpha1 and are dropped.
 * A v1beta1 set is returned as is.
 */
export function toV1beta1(set: StatefulSet): StatefulSet {
  if (set.apiVersion !== APPS_V1ALPHA1) return set;
  const {
    reserveOrdinals: _r,
    lifecycle: _l,
    scaleStrategy: _s,
    persistentVolumeClaimRetentionPolicy: _p,
    ordinals: _o,
    volumeClaimUpdateStrategy: _v,
    ...spec
  } = set.spec;
  return { ...set, spec };
}

/** §2.3: a status in the shape of the set's version (v1alpha1 lacks the updated ready/available counts and volumeClaims). */
export function statusForVersion(apiVersion: string, status: StatefulSetStatus): StatefulSetStatus {
  if (apiVersion !== APPS_V1ALPHA1) return status;
  const { updatedReadyReplicas: _a, updatedAvailableReplicas: _b, volumeClaims: _c, ...rest } = status;
  return rest;
}
