// Scale up (docs/reference/cloneset.md §7): how many pods and of which revision, instance ids
// with PVC reuse, and the construction of each new pod and its PVCs.

import type { KubeObject } from '@kruise-ts/api';
import {
  ANNOTATION_LIFECYCLE_TIMESTAMP,
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CLONESET_INSTANCE_ID,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
  LABEL_POD_TEMPLATE_HASH,
  LifecycleStates,
} from '@kruise-ts/api';
import { createRng, extend, fnv32a, mix32 } from '@kruise-ts/core';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, Volume } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { controllerRefOf, instanceIdOf } from './ownership';
import { shortHashOf } from './predicates';
import type { SyncState } from './sync';
import { Reasons } from './types';

/** Length of a generated instance id (`rand.String(5)`). */
export const INSTANCE_ID_LENGTH = 5;

/**
 * The seed of the instance-id generator: `options.seed` mixed with the CloneSet's uid and name
 * and an order-independent digest of the observed pod names, so the same input always yields
 * the same ids while a later reconcile (other pods) draws other ones.
 */
export function instanceIdSeed(state: Pick<SyncState, 'seed' | 'cs' | 'usedPodNames'>): number {
  let digest = 0;
  for (const name of state.usedPodNames()) digest = (digest + fnv32a(name)) >>> 0;
  const cs = state.cs.metadata;
  return mix32(
    (state.seed >>> 0) ^ fnv32a(`${cs?.uid ?? ''}/${cs?.namespace ?? ''}/${cs?.name ?? ''}`) ^ mix32(digest),
  );
}

/**
 * Instance ids for `num` new pods (§7.3): first the ids found on owned PVCs but on no listed
 * pod (reattaching those PVCs), then random 5-character ids that clash with no pod or PVC id.
 * An id whose pod name `<cloneset>-<id>` is still taken by some pod (e.g. a terminating one)
 * is not reused. The list is sorted; current-revision pods take ids first (§7.1).
 */
export function availableInstanceIds(state: SyncState, num: number): string[] {
  const podIds = new Set<string>();
  for (const p of state.pods) {
    const id = instanceIdOf(p);
    if (id !== undefined) podIds.add(id);
  }
  const pvcIds = new Set<string>();
  for (const pvc of state.pvcs) {
    const id = instanceIdOf(pvc);
    if (id !== undefined) pvcIds.add(id);
  }
  const prefix = `${state.cs.metadata?.name ?? ''}-`;
  const usedNames = state.usedPodNames();
  const ids = new Set<string>();
  for (const id of pvcIds) {
    if (!podIds.has(id) && !usedNames.has(prefix + id)) ids.add(id);
  }
  if (ids.size < num) {
    const rng = createRng(instanceIdSeed(state));
    for (let tries = 0; ids.size < num && tries < num * 100 + 1000; tries++) {
      const id = rng.string(INSTANCE_ID_LENGTH);
      if (podIds.has(id) || pvcIds.has(id) || ids.has(id) || usedNames.has(prefix + id)) continue;
      ids.add(id);
    }
  }
  return [...ids].sort().slice(0, num);
}

/** The PVC name of claim template `t` for instance `id`: `<t.name>-<cloneset>-<id>` (§7.2). */
export function pvcName(templateName: string, csName: string, id: string): string {
  return `${templateName}-${csName}-${id}`;
}

/**
 * Builds one new pod and its PVCs (§7.2): template labels/annotations/finalizers, generateName
 * `<cloneset>-`, controller ownerRef, revision labels (`controller-revision-hash` = revision name,
 * or the short hash with `CloneSetShortHash`; `pod-template-hash` = short hash), instance id,
 * name `<cloneset>-<id>`, readiness gate `InPlaceUpdateReady`, one volume per claim template,
 * lifecycle `PreparingNormal` with its timestamp.
 *
 * Example: CloneSet `sample`, revision `sample-7f6d4`, id `x2k9p`, claim template `data` →
 * pod `sample-x2k9p` with volume `data` → PVC `data-sample-x2k9p`.
 */
export function newPod(
  state: SyncState,
  template: PodTemplateSpec,
  revisionName: string,
  id: string,
): { pod: Pod & KubeObject; pvcs: (PersistentVolumeClaim & KubeObject)[] } {
  const cs = state.cs;
  const csName = cs.metadata?.name ?? '';
  const ns = cs.metadata?.namespace;
  const short = shortHashOf(revisionName);
  const tm = template.metadata ?? {};
  // §7.2: the template's labels, then the revision, template-hash, instance-id and lifecycle
  // labels (copies: the template itself is not changed)
  const labels: Record<string, string> = extend(tm.labels);
  labels[LABEL_CONTROLLER_REVISION_HASH] = state.gates.CloneSetShortHash ? short : revisionName;
  labels[LABEL_POD_TEMPLATE_HASH] = short;
  labels[LABEL_CLONESET_INSTANCE_ID] = id;
  labels[LABEL_LIFECYCLE_STATE] = LifecycleStates.PreparingNormal;
  const annotations: Record<string, string> = extend(tm.annotations);
  annotations[ANNOTATION_LIFECYCLE_TIMESTAMP] = state.nowStr;
  const spec = extend(template.spec ?? { containers: [] });
  const gates = spec.readinessGates ?? [];
  if (!gates.some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY)) {
    spec.readinessGates = [...gates, { conditionType: CONDITION_INPLACE_UPDATE_READY }];
  }
  const vcts = cs.spec.volumeClaimTemplates ?? [];
  const pvcs: (PersistentVolumeClaim & KubeObject)[] = [];
  if (vcts.length > 0) {
    const claimVolumes: Volume[] = [];
    const names = new Set<string>();
    for (const t of vcts) {
      const tName = t.metadata?.name ?? '';
      const claimName = pvcName(tName, csName, id);
      names.add(tName);
      claimVolumes.push({ name: tName, persistentVolumeClaim: { claimName } });
      const pvcMeta: ObjectMeta = {
        name: claimName,
        labels: {
          ...(t.metadata?.labels ?? {}),
          ...(cs.spec.selector?.matchLabels ?? {}),
          [LABEL_CLONESET_INSTANCE_ID]: id,
        },
        ownerReferences: [controllerRefOf(cs)],
      };
      if (ns !== undefined) pvcMeta.namespace = ns;
      if (t.metadata?.annotations) pvcMeta.annotations = { ...t.metadata.annotations };
      pvcs.push({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: pvcMeta, spec: t.spec ?? {} });
    }
    spec.volumes = [...claimVolumes, ...(spec.volumes ?? []).filter((v) => !names.has(v.name))];
  }
  const metadata: ObjectMeta = {
    name: `${csName}-${id}`,
    generateName: `${csName}-`,
    labels,
    annotations,
    ownerReferences: [controllerRefOf(cs)],
  };
  if (ns !== undefined) metadata.namespace = ns;
  if (tm.finalizers && tm.finalizers.length > 0) metadata.finalizers = [...tm.finalizers];
  return { pod: { apiVersion: 'v1', kind: 'Pod', metadata, spec }, pvcs };
}

/**
 * Creates `expectedCreations` pods (§7.1): the first `expectedCurrentCreations` from the current
 * revision's template, the rest from the update revision's. Each pod's PVCs are created before
 * it unless a PVC of that name exists. Returns how many pods were created (fewer when ids run out).
 *
 * At most the reconcile's burst is created (kruise-ts's bound, README "Differences"): with
 * `scaleUpLimit` 2,147,483,647 and the default burst, 500 pods now and the rest in the next
 * reconciles, current-revision pods first as always. The work, ids included, is in the pods
 * created, never in `expectedCreations`.
 */
export function createPods(
  state: SyncState,
  expectedCreations: number,
  expectedCurrentCreations: number,
): number {
  if (expectedCreations <= 0) return 0;
  const ids = availableInstanceIds(state, state.burst.takeUpTo(expectedCreations));
  const csName = state.cs.metadata?.name ?? '';
  let created = 0;
  for (let i = 0; i < ids.length; i++) {
    const current = i < expectedCurrentCreations;
    const rev = current ? state.currentRevision : state.updateRevision;
    const template = current ? state.currentTemplate : state.updateTemplate;
    const { pod, pvcs } = newPod(state, template, rev.metadata?.name ?? '', ids[i]);
    for (const pvc of pvcs) {
      if (state.usedPvcNames().has(pvc.metadata?.name ?? '')) continue;
      state.rec.act({ verb: 'create', object: pvc, reason: Reasons.ScaleUp });
    }
    state.rec.act({ verb: 'create', object: pod, reason: Reasons.ScaleUp });
    state.rec.event(
      'Normal',
      'SuccessfulCreate',
      `succeed to create pod ${pod.metadata?.name ?? `${csName}-`}`,
    );
    created++;
  }
  return created;
}
