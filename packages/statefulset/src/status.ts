// Status of an Advanced StatefulSet (docs/reference/statefulset.md §13): the counts (§13.1), the
// volumeClaims entries, completion of a rollout (R13.2) and write suppression (R13.3).
import type { StatefulSet, StatefulSetStatus, VolumeClaimStatus } from '@kruise-ts/api';
import { tryParseQuantity } from '@kruise-ts/core';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import { claimName, inRange, ordinalOf, type ReplicaRange } from './ordinals';
import {
  isCreated,
  isLifecycleNormal,
  isRunningAndReady,
  isTerminating,
  readyLongEnough,
} from './predicates';
import { isAtRevision } from './revisionChoice';

/** The seven counts of §13.1. */
export type ReplicaCounts = Pick<
  StatefulSetStatus,
  | 'replicas'
  | 'readyReplicas'
  | 'availableReplicas'
  | 'currentReplicas'
  | 'updatedReplicas'
  | 'updatedReadyReplicas'
  | 'updatedAvailableReplicas'
>;

/**
 * §13.1 `computeReplicaStatus` over pod objects (null entries skipped):
 * `replicas` = created (phase non-empty, terminating/failed/condemned included); `readyReplicas` =
 * running and ready; `availableReplicas` = … and available (§1); `updatedReadyReplicas` /
 * `updatedAvailableReplicas` = ready / available at the update revision; `currentReplicas` /
 * `updatedReplicas` = created, not terminating, at the current / update revision (exact names).
 *
 * Example (§13.3 round 1): pods 0, 1, 2 running and ready at r0, C = r0, U = r1 → replicas 3,
 * ready 3, current 3, updated 0.
 */
export function computeReplicaCounts(
  pods: Iterable<Pod | null | undefined>,
  currentRevision: string,
  updateRevision: string,
  minReadySeconds: number,
  nowMs: number,
): Required<ReplicaCounts> {
  const c = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    updatedAvailableReplicas: 0,
  };
  for (const pod of pods) {
    if (!pod || !isCreated(pod)) continue;
    c.replicas++;
    const atUpdate = isAtRevision(pod, updateRevision);
    if (isRunningAndReady(pod)) {
      c.readyReplicas++;
      const available = isLifecycleNormal(pod) && readyLongEnough(pod, minReadySeconds, nowMs).available;
      if (available) c.availableReplicas++;
      if (atUpdate) {
        c.updatedReadyReplicas++;
        if (available) c.updatedAvailableReplicas++;
      }
    }
    if (!isTerminating(pod)) {
      if (isAtRevision(pod, currentRevision)) c.currentReplicas++;
      if (atUpdate) c.updatedReplicas++;
    }
  }
  return c;
}

/** A storage quantity by value; absent or malformed counts as 0 (user data never throws). Memoised per call. */
function quantityReader(): (q: unknown) => bigint {
  const memo = new Map<unknown, bigint>();
  return (q) => {
    if (q === undefined || q === null) return 0n;
    let v = memo.get(q);
    if (v === undefined) {
      v = tryParseQuantity(q) ?? 0n;
      memo.set(q, v);
    }
    return v;
  };
}

/**
 * §13.2 `volumeClaims`, one entry per claim template: `compatibleReplicas` counts the slots whose
 * claim (from `claimsOf(template name)`, `undefined` for a slot without one) exists, is not
 * terminating and requests at least the template's storage; `compatibleReadyReplicas` those
 * whose claim's capacity also reaches it.
 */
function volumeClaimEntries(
  set: StatefulSet,
  claimsOf: (templateName: string) => Iterable<PersistentVolumeClaim | undefined>,
): VolumeClaimStatus[] {
  const templates = set.spec.volumeClaimTemplates ?? [];
  if (templates.length === 0) return [];
  const quantity = quantityReader();
  return templates.map((t) => {
    const tname = t.metadata?.name ?? '';
    const want = quantity(t.spec?.resources?.requests?.storage);
    let compatible = 0;
    let ready = 0;
    for (const claim of claimsOf(tname)) {
      if (!claim || claim.metadata?.deletionTimestamp) continue;
      if (quantity(claim.spec?.resources?.requests?.storage) < want) continue;
      compatible++;
      if (quantity(claim.status?.capacity?.storage) >= want) ready++;
    }
    return { volumeClaimName: tname, compatibleReplicas: compatible, compatibleReadyReplicas: ready };
  });
}

/** §13.2 `volumeClaims` over the slot pods (null entries skipped), claims looked up by name (R3.13). */
export function computeVolumeClaimStatus(
  set: StatefulSet,
  slotPods: Iterable<Pod | null | undefined>,
  lookup: (name: string) => PersistentVolumeClaim | undefined,
): VolumeClaimStatus[] {
  const setName = set.metadata.name ?? '';
  const ordinals: number[] = [];
  for (const p of slotPods) if (p) ordinals.push(ordinalOf(p.metadata?.name));
  return volumeClaimEntries(set, (tname) => ordinals.map((o) => lookup(claimName(tname, setName, o))));
}

/**
 * The ordinal of a claim name `<template>-<set>-<ordinal>` (R3.13) for the given prefix, if
 * canonical: `claimName` writes the ordinal in decimal without padding ("0", "7", "12", never
 * "07"), at most 2,147,483,647. Read in place, without slicing the digits out.
 */
function claimOrdinal(name: string, prefix: string): number | undefined {
  const from = prefix.length;
  if (name.length === from || !name.startsWith(prefix)) return undefined;
  if (name.charCodeAt(from) === 48 && name.length > from + 1) return undefined; // a leading zero
  let o = 0;
  for (let i = from; i < name.length; i++) {
    const d = name.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    o = o * 10 + d;
    if (o > 2147483647) return undefined;
  }
  return o;
}

/**
 * §13.2 `volumeClaims` over a replica range, from the claims rather than the slots: every desired
 * ordinal is a slot (a pod or a new pod object), so the claims of the slots are the claims whose
 * name is the claim of a desired ordinal — what {@link computeVolumeClaimStatus} reads over the
 * whole slot array, in time linear in the claims, whatever `spec.replicas` is.
 *
 * Example: template `data` (1Gi), set `web`, range {0, 1, 2}, claims `data-web-0` (1Gi bound) and
 * `data-web-7` → `{volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 1}`.
 */
export function volumeClaimStatusOfRange(
  set: StatefulSet,
  range: ReplicaRange,
  claims: ReadonlyMap<string, PersistentVolumeClaim>,
): VolumeClaimStatus[] {
  return volumeClaimEntries(set, (tname) => {
    const prefix = `${tname}-${set.metadata.name ?? ''}-`;
    const ofRange: PersistentVolumeClaim[] = [];
    for (const [name, claim] of claims) {
      const o = claimOrdinal(name, prefix);
      if (o !== undefined && inRange(range, o)) ofRange.push(claim);
    }
    return ofRange;
  });
}

/**
 * R13.2 `completeRollingUpdate`: with `updateStrategy.type == RollingUpdate`, when
 * `updatedReplicas == replicas == readyReplicas`, the rollout is complete: `currentReplicas :=
 * updatedReplicas`, `currentRevision := updateRevision`. Never for OnDelete. Returns a new status.
 *
 * Example (§13.3): three pods at r1, all ready → current r0 becomes r1, currentReplicas 3.
 */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): StatefulSetStatus {
  if (set.spec.updateStrategy?.type !== 'RollingUpdate') return status;
  if (status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    return { ...status, currentReplicas: status.updatedReplicas, currentRevision: status.updateRevision };
  }
  return status;
}

/**
 * R13.3 `inconsistentStatus`: must the status be written? Only when observedGeneration grew, or
 * replicas, currentReplicas, readyReplicas, availableReplicas, updatedReplicas, currentRevision,
 * updateRevision, labelSelector or a volumeClaims entry differ. **Quirk:** updatedReadyReplicas,
 * updatedAvailableReplicas, collisionCount and conditions alone never trigger a write.
 */
export function statusNeedsWrite(stored: StatefulSetStatus | undefined, next: StatefulSetStatus): boolean {
  const s: Partial<StatefulSetStatus> = stored ?? {};
  if ((next.observedGeneration ?? 0) > (s.observedGeneration ?? 0)) return true;
  if ((s.replicas ?? 0) !== next.replicas) return true;
  if ((s.currentReplicas ?? 0) !== next.currentReplicas) return true;
  if ((s.readyReplicas ?? 0) !== next.readyReplicas) return true;
  if ((s.availableReplicas ?? 0) !== next.availableReplicas) return true;
  if ((s.updatedReplicas ?? 0) !== next.updatedReplicas) return true;
  if ((s.currentRevision ?? '') !== (next.currentRevision ?? '')) return true;
  if ((s.updateRevision ?? '') !== (next.updateRevision ?? '')) return true;
  if ((s.labelSelector ?? '') !== (next.labelSelector ?? '')) return true;
  for (const vc of next.volumeClaims ?? []) {
    const old = (s.volumeClaims ?? []).find((o) => o.volumeClaimName === vc.volumeClaimName);
    if (!old) return true;
    if (
      old.compatibleReplicas !== vc.compatibleReplicas ||
      old.compatibleReadyReplicas !== vc.compatibleReadyReplicas
    ) {
      return true;
    }
  }
  return false;
}
