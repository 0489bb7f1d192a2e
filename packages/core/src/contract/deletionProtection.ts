// Deletion protection (docs/reference/operator.md §1): the label `policy.kruise.io/delete-protection`
// with `Always` or `Cascading` on Namespaces, CRDs, Deployments/ReplicaSets/StatefulSets,
// CloneSets, Advanced StatefulSets, UnitedDeployments, Services and Ingresses. Pure admission
// logic shared by the operator's webhook and the simulator's API server: the caller passes the
// gate values and the listers (from the informer cache, or the API for CRs).

import type { KubeObject } from '@kruise-ts/api';
import {
  DELETE_PROTECTION_ALWAYS,
  DELETE_PROTECTION_CASCADING,
  LABEL_DELETE_PROTECTION,
} from '@kruise-ts/api';

/** The admission decision: allowed, or denied with an HTTP code (403) and message. */
export type ProtectionDecision = { allowed: true } | { allowed: false; code: number; message: string };

/** Which check applies (docs/reference/operator.md table 1.3): workloads are Deployment, ReplicaSet, StatefulSet, CloneSet, Advanced StatefulSet and UnitedDeployment. */
export type ProtectedKind = 'Namespace' | 'CustomResourceDefinition' | 'Workload' | 'Service' | 'Ingress';

/** What a check may need besides the object: the gates and the listers. */
export interface ProtectionContext {
  /** Gate `ResourcesDeletionProtection` (D1.2; off by default at v1.8.2). */
  enabled: boolean;
  /** Gate `DeletionProtectionForCRDCascadingGate` (D1.9). */
  crdCascading?: boolean;
  /** Pods of a namespace (D1.7); throwing means a list error (M6). */
  listPods?(namespace: string): KubeObject[];
  /** PVCs of a namespace (D1.7); throwing means a list error (M7). */
  listPVCs?(namespace: string): KubeObject[];
  /** CRs of a CRD's storage version in all namespaces (D1.9); throwing → M9. */
  listCRs?(group: string, version: string, listKind: string): KubeObject[];
}

const P = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection';
/**
 * The exact denial messages M1–M9 of docs/reference/operator.md §1.6 (note "ResourcesProtectionDeletion",
 * byte for byte). Example: `M2(3)` = `forbidden by ResourcesProtectionDeletion for
 * policy.kruise.io/delete-protection=Cascading and replicas 3>0`.
 */
export const DeletionProtectionMessages = {
  M1: `${P}=Always`,
  M2: (n: number) => `${P}=Cascading and replicas ${n}>0`,
  M3: (n: number) => `${P}=Cascading and active pods ${n}>0`,
  M4: (n: number) => `${P}=Cascading and "Bound" status pvc ${n}>0`,
  M5: (n: number) => `${P}=Cascading and active CRs ${n}>0`,
  M6: (err: string) => `forbidden by ResourcesProtectionDeletion for list pods error: ${err}`,
  M7: (err: string) => `forbidden by ResourcesProtectionDeletion for list pvc error: ${err}`,
  M8: 'feature-gate DeletionProtectionForCRDCascadingGate is not enabled',
  M9: (gvk: string, err: string) => `failed to list CRs of ${gvk}: ${err}`,
};

/** The text of a lister's error (whatever was thrown). */
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const deny = (message: string): ProtectionDecision => ({ allowed: false, code: 403, message });
const ALLOW: ProtectionDecision = { allowed: true };

/**
 * D1.6: gate off → allow; being deleted → allow; `Always` → deny (M1); `Cascading` → the
 * kind-specific check (Service/Ingress ignore it, D1.10; workloads D1.8; Namespace D1.7; CRD
 * D1.9); any other value → allow (D1.1: exact, case-sensitive). Never throws: a lister that
 * throws is a list error and denies (M6, M7, M9).
 *
 * Examples: a Namespace labelled `Cascading` with 2 running pods and 1 Succeeded pod → 2 active
 * → denied "…=Cascading and active pods 2>0"; a CloneSet labelled `Cascading` with
 * `spec.replicas: 0` → allowed; labelled `always` (lower case) → allowed.
 */
export function checkDeletionProtection(
  kind: ProtectedKind,
  obj: KubeObject,
  ctx: ProtectionContext,
): ProtectionDecision {
  if (!ctx.enabled) return ALLOW;
  if (obj.metadata?.deletionTimestamp) return ALLOW;
  const value = obj.metadata?.labels?.[LABEL_DELETE_PROTECTION];
  if (value === DELETE_PROTECTION_ALWAYS) return deny(DeletionProtectionMessages.M1);
  if (value !== DELETE_PROTECTION_CASCADING) return ALLOW;
  switch (kind) {
    case 'Service':
    case 'Ingress':
      return ALLOW;
    case 'Workload': {
      // D1.8: spec.replicas of the object being deleted, nil never blocks
      const replicas = (obj as { spec?: { replicas?: number } }).spec?.replicas;
      return typeof replicas === 'number' && replicas > 0
        ? deny(DeletionProtectionMessages.M2(replicas))
        : ALLOW;
    }
    case 'Namespace':
      return checkNamespace(obj.metadata.name ?? '', ctx);
    case 'CustomResourceDefinition':
      return checkCrd(obj, ctx);
  }
}

/** D1.7: active pods first, then Bound PVCs not being deleted. */
function checkNamespace(ns: string, ctx: ProtectionContext): ProtectionDecision {
  let pods: KubeObject[];
  try {
    pods = ctx.listPods?.(ns) ?? [];
  } catch (e) {
    return deny(DeletionProtectionMessages.M6(errorText(e)));
  }
  const active = pods.filter((p) => {
    const phase = (p as { status?: { phase?: string } }).status?.phase;
    return phase !== 'Succeeded' && phase !== 'Failed' && !p.metadata.deletionTimestamp;
  }).length;
  if (active > 0) return deny(DeletionProtectionMessages.M3(active));
  let pvcs: KubeObject[];
  try {
    pvcs = ctx.listPVCs?.(ns) ?? [];
  } catch (e) {
    return deny(DeletionProtectionMessages.M7(errorText(e)));
  }
  const bound = pvcs.filter(
    (p) => !p.metadata.deletionTimestamp && (p as { status?: { phase?: string } }).status?.phase === 'Bound',
  ).length;
  return bound > 0 ? deny(DeletionProtectionMessages.M4(bound)) : ALLOW;
}

/** D1.9: Cascading needs the CRD cascading gate; then no live CR of the storage version may exist. */
function checkCrd(crd: KubeObject, ctx: ProtectionContext): ProtectionDecision {
  if (!ctx.crdCascading) return deny(DeletionProtectionMessages.M8);
  const spec = (
    crd as {
      spec?: {
        group?: string;
        versions?: Array<{ name: string; storage?: boolean }>;
        names?: { listKind?: string };
      };
    }
  ).spec;
  const storage = spec?.versions?.find((v) => v.storage);
  const group = spec?.group ?? '';
  const listKind = spec?.names?.listKind ?? '';
  const gvk = `${group}/${storage?.name ?? ''}, Kind=${listKind}`;
  if (!storage) return deny(DeletionProtectionMessages.M9(gvk, 'no storage version'));
  let crs: KubeObject[];
  try {
    crs = ctx.listCRs?.(group, storage.name, listKind) ?? [];
  } catch (e) {
    return deny(DeletionProtectionMessages.M9(gvk, errorText(e)));
  }
  const live = crs.filter((c) => !c.metadata.deletionTimestamp).length;
  return live > 0 ? deny(DeletionProtectionMessages.M5(live)) : ALLOW;
}
