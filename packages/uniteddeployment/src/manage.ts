// Managing subset workloads (docs/reference/uniteddeployment.md §7): provisioning (§7.2: create missing,
// delete removed, delete other kinds), update detection and updates (§7.3) with the StatefulSet
// stuck-pod workaround (§7.9). Returns actions; the reconcile decides about conditions.
import type { KubeObject } from '@kruise-ts/api';
import { type Action, jsonEqual, matchesLabelSelector, refOf } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { compareBytes } from './allocator';
import { claimObjects, isPodReady, type ObservedSubset } from './observe';
import { applySubsetTemplate, subsetPatchText } from './render';
import type { UnitedDeploymentObject } from './types';
import {
  ANNOTATION_SUBSET_PATCH,
  LABEL_UD_REVISION,
  SUBSET_KINDS,
  type SubsetKind,
  subsetKindOfObject,
} from './workloads';

/** What provisioning and updating work from. */
export interface SubsetPlan {
  ud: UnitedDeploymentObject;
  kind: SubsetKind;
  owner: OwnerReference;
  expectedRevision: string;
  nextReplicas: Record<string, number>;
  nextPartitions: Record<string, number>;
  /** Discovered subsets of the template kind, by subset name. */
  nameToSubset: Map<string, ObservedSubset>;
}

/** The reference of a workload, for delete actions. */
export function workloadRef(w: KubeObject) {
  return refOf(w);
}

/** The reference of a pod, for delete actions. */
function podRef(pod: Pod) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    name: pod.metadata?.name ?? '',
    ...(pod.metadata?.namespace !== undefined ? { namespace: pod.metadata.namespace } : {}),
    ...(pod.metadata?.uid !== undefined ? { uid: pod.metadata.uid } : {}),
  };
}

/** Whether an object is in the UnitedDeployment's namespace (an unset namespace matches any). */
export function sameNamespace(ud: UnitedDeploymentObject, o: KubeObject): boolean {
  const ns = ud.metadata.namespace;
  return ns === undefined || o.metadata.namespace === undefined || o.metadata.namespace === ns;
}

/** §7.1 step 1: the workloads of a kind in the UD's namespace matching the UD selector (Go lists by selector). */
export function listSubsetWorkloads(
  ud: UnitedDeploymentObject,
  objects: readonly KubeObject[],
  kind: SubsetKind,
): KubeObject[] {
  return objects.filter(
    (o) =>
      subsetKindOfObject(o) === kind &&
      sameNamespace(ud, o) &&
      matchesLabelSelector(ud.spec.selector, o.metadata.labels),
  );
}

/** §7.3: the first differing of revision label, replicas, observed partition, subset-patch annotation. */
export function subsetNeedsUpdate(
  subset: ObservedSubset,
  expectedRevision: string,
  replicas: number,
  partition: number,
  patchText: string,
): 'revision' | 'replicas' | 'partition' | 'patch' | undefined {
  const meta = subset.workload.metadata;
  if (meta.labels?.[LABEL_UD_REVISION] !== expectedRevision) return 'revision';
  if (subset.spec.replicas !== replicas) return 'replicas';
  if (subset.spec.partition !== partition) return 'partition';
  if ((meta.annotations?.[ANNOTATION_SUBSET_PATCH] ?? '') !== patchText) return 'patch';
  return undefined;
}

/**
 * §7.9: after updating an apps/v1 StatefulSet that is not `OnDelete`, the pods with ordinal ≥
 * partition, not at `revision` and not Ready are deleted (stuck-pod workaround). Example: five
 * unready old pods 0–4 and partition 3 → pods 3 and 4.
 */
export function stuckPodsToDelete(pods: readonly Pod[], revision: string, partition: number): Pod[] {
  const ordinal = (p: Pod) => Number(/-(\d+)$/.exec(p.metadata?.name ?? '')?.[1] ?? Number.NaN);
  return pods
    .filter((p) => {
      const n = ordinal(p);
      if (Number.isNaN(n) || n < partition) return false;
      return (
        p.metadata?.labels?.[LABEL_UD_REVISION] !== revision &&
        !isPodReady(p) &&
        !p.metadata?.deletionTimestamp
      );
    })
    .sort((a, b) => ordinal(a) - ordinal(b));
}

/** Result of {@link provisionSubsets}. */
export interface ProvisionResult {
  actions: Action[];
  errors: string[];
  /** Something was created or deleted (→ `SubsetProvisioned=True`). */
  provisioned: boolean;
  created: boolean;
}

/**
 * §7.2: creates the missing subsets (ascending names, slow-start batches 1, 2, 4, …, stopping after a
 * batch in which one failed to render), deletes workloads of subsets no longer in the topology and
 * every owned workload of the other three kinds.
 */
export function provisionSubsets(plan: SubsetPlan, allObjects: readonly KubeObject[]): ProvisionResult {
  const { ud, kind, owner, expectedRevision, nextReplicas, nextPartitions, nameToSubset } = plan;
  const actions: Action[] = [];
  const topology = ud.spec.topology?.subsets ?? [];
  const expected = new Set(topology.map((s) => s.name));
  const toCreate = [...expected].filter((n) => !nameToSubset.has(n)).sort(compareBytes);
  const provisionErrors: string[] = [];
  let provisioned = false;
  let created = false;
  for (let start = 0, batch = 1; start < toCreate.length; start += batch, batch *= 2) {
    let failed = false;
    for (const subsetName of toCreate.slice(start, start + batch)) {
      const r = applySubsetTemplate(ud, {
        kind,
        subsetName,
        revision: expectedRevision,
        replicas: nextReplicas[subsetName] ?? 0,
        partition: nextPartitions[subsetName] ?? 0,
      });
      if ('error' in r) {
        provisionErrors.push(r.error);
        failed = true;
      } else {
        actions.push({ verb: 'create', object: r.object, reason: 'CreateSubset' });
        provisioned = created = true;
      }
    }
    if (failed) break;
  }
  for (const name of [...nameToSubset.keys()].filter((n) => !expected.has(n)).sort(compareBytes)) {
    const w = nameToSubset.get(name)!.workload;
    if (w.metadata.deletionTimestamp) continue;
    actions.push({ verb: 'delete', target: workloadRef(w), reason: 'DeleteSubset' });
    provisioned = true;
  }
  for (const other of SUBSET_KINDS) {
    if (other === kind) continue;
    const objs = listSubsetWorkloads(ud, allObjects, other);
    const c = claimObjects(ud, owner, ud.spec.selector, objs, {
      adopt: 'AdoptSubset',
      release: 'ReleaseSubset',
    });
    for (const w of c.claimed) {
      if (w.metadata.deletionTimestamp) continue;
      actions.push({ verb: 'delete', target: workloadRef(w), reason: 'DeleteSubsetOfOtherKind' });
      provisioned = true;
    }
  }
  return { actions, errors: provisionErrors, provisioned, created };
}

/** Result of {@link updateSubsets}. */
export interface UpdateResult {
  actions: Action[];
  errors: string[];
  /** Some subset was (re-)rendered (→ `SubsetUpdated=True`). */
  updated: boolean;
  /** A subset needing an update is being scaled up (§5.4 item 3). */
  scalingUp: boolean;
}

/**
 * §7.3: every subset in both the topology and the cluster whose revision label, replicas, observed
 * partition or subset-patch annotation differs is re-rendered on top of its object (ascending names,
 * slow-start batches); after an apps/v1 StatefulSet update that is not OnDelete, its stuck pods are
 * deleted (§7.9).
 */
export function updateSubsets(plan: SubsetPlan): UpdateResult {
  const { ud, kind, expectedRevision, nextReplicas, nextPartitions, nameToSubset } = plan;
  const actions: Action[] = [];
  const topology = ud.spec.topology?.subsets ?? [];
  const expected = new Set(topology.map((s) => s.name));
  const updateErrors: string[] = [];
  let scalingUp = false;
  let updatedAny = false;
  const candidates = [...nameToSubset.keys()].filter((n) => expected.has(n)).sort(compareBytes);
  const needing = candidates.filter((name) => {
    const subset = topology.find((s) => s.name === name);
    return (
      subsetNeedsUpdate(
        nameToSubset.get(name)!,
        expectedRevision,
        nextReplicas[name] ?? 0,
        nextPartitions[name] ?? 0,
        subsetPatchText(subset),
      ) !== undefined
    );
  });
  for (let start = 0, batch = 1; start < needing.length; start += batch, batch *= 2) {
    let failed = false;
    for (const name of needing.slice(start, start + batch)) {
      const s = nameToSubset.get(name)!;
      if ((nextReplicas[name] ?? 0) > s.spec.replicas) scalingUp = true;
      const r = applySubsetTemplate(
        ud,
        {
          kind,
          subsetName: name,
          revision: expectedRevision,
          replicas: nextReplicas[name] ?? 0,
          partition: nextPartitions[name] ?? 0,
        },
        s.workload,
      );
      if ('error' in r) {
        updateErrors.push(r.error);
        failed = true;
        continue;
      }
      updatedAny = true;
      // An update that changes nothing is a no-op on an API server (Q4 re-renders): not emitted.
      if (!jsonEqual(r.object, s.workload))
        actions.push({ verb: 'update', object: r.object, reason: 'UpdateSubset' });
      const strategy = (r.object.spec as { updateStrategy?: { type?: string } }).updateStrategy;
      if (kind === 'StatefulSet' && strategy?.type !== 'OnDelete') {
        for (const pod of stuckPodsToDelete(s.pods, expectedRevision, nextPartitions[name] ?? 0)) {
          actions.push({ verb: 'delete', target: podRef(pod), reason: 'DeleteStuckPod' });
        }
      }
    }
    if (failed) break;
  }
  return { actions, errors: updateErrors, updated: updatedAny, scalingUp };
}
