// Pod identity and storage (docs/reference/statefulset.md §3.4–§3.5, R3.9–R3.15): new pod objects
// stamped from a revision's template, identity/storage matching and repair, and the claims a
// pod needs.
import {
  ANNOTATION_LIFECYCLE_TIMESTAMP,
  APPS_V1BETA1,
  type KubeObject,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
  LABEL_POD_INDEX,
  LABEL_STATEFULSET_POD_NAME,
  type Lifecycle,
  LifecycleStates,
  type StatefulSet,
} from '@kruise-ts/api';
import { type FeatureGates, isAllHooked } from '@kruise-ts/core';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, Volume } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1.js';
import { claimName, isMemberOf, ordinalOf, podName } from './ordinals';

/** R3.12: the controller ownerReference of a new pod (`apps.kruise.io/v1beta1`, StatefulSet). */
export function controllerRefOf(set: StatefulSet): OwnerReference {
  return {
    apiVersion: APPS_V1BETA1,
    kind: 'StatefulSet',
    name: set.metadata.name ?? '',
    uid: set.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** R3.15: template claim volumes first, then the pod's other volumes (claims win on a name clash). */
export function volumesWithClaims(
  set: StatefulSet,
  ordinal: number,
  volumes: readonly Volume[] | undefined,
): Volume[] {
  const templates = set.spec.volumeClaimTemplates ?? [];
  const names = new Set(templates.map((t) => t.metadata?.name ?? ''));
  const out: Volume[] = templates.map((t) => ({
    name: t.metadata?.name ?? '',
    persistentVolumeClaim: {
      claimName: claimName(t.metadata?.name ?? '', set.metadata.name ?? '', ordinal),
      readOnly: false,
    },
  }));
  for (const v of volumes ?? []) if (!names.has(v.name)) out.push(v);
  return out;
}

/**
 * R3.10 identity labels: `statefulset.kubernetes.io/pod-name = <pod name>` and, with gate
 * `PodIndexLabel` (default on), `apps.kubernetes.io/pod-index = "<ordinal>"`. A new label map.
 */
export function identityLabels(
  labels: Readonly<Record<string, string>> | undefined,
  name: string,
  ordinal: number,
  gates: Pick<FeatureGates, 'PodIndexLabel'>,
): Record<string, string> {
  const out: Record<string, string> = { ...(labels ?? {}), [LABEL_STATEFULSET_POD_NAME]: name };
  if (gates.PodIndexLabel) out[LABEL_POD_INDEX] = String(ordinal);
  return out;
}

/**
 * R3.9–R3.12, R3.15: a new pod object for `ordinal`, built from `template` (the current or update
 * revision's) and labelled with `revision`: name `<set>-<ordinal>`, the set's namespace, template
 * labels/annotations/finalizers, identity labels, the revision label, the controller ref, and
 * `hostname` / `subdomain` (`spec.serviceName`). Its lifecycle label is set at creation (R6.2,
 * {@link withCreationLifecycle}). No status: the object is "not yet created" (§1).
 *
 * Example: set `web`, ordinal 2, serviceName `web-svc` → pod `web-2` with
 * `statefulset.kubernetes.io/pod-name: web-2`, `apps.kubernetes.io/pod-index: "2"`,
 * `spec.hostname: web-2`, `spec.subdomain: web-svc`, and a volume `data` → claim `data-web-2`
 * for a claim template `data`.
 */
export function newStatefulSetPod(
  set: StatefulSet,
  template: PodTemplateSpec,
  revision: string,
  ordinal: number,
  gates: Pick<FeatureGates, 'PodIndexLabel'>,
): Pod & KubeObject {
  const name = podName(set.metadata.name ?? '', ordinal);
  const tm = template.metadata ?? {};
  const labels = identityLabels(tm.labels, name, ordinal, gates);
  labels[LABEL_CONTROLLER_REVISION_HASH] = revision;
  const metadata: ObjectMeta = { name, labels, ownerReferences: [controllerRefOf(set)] };
  if (set.metadata.namespace !== undefined) metadata.namespace = set.metadata.namespace;
  if (tm.annotations && Object.keys(tm.annotations).length > 0) metadata.annotations = { ...tm.annotations };
  if (tm.finalizers && tm.finalizers.length > 0) metadata.finalizers = [...tm.finalizers];
  const spec = structuredClone(template.spec ?? { containers: [] });
  spec.hostname = name;
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName;
  const volumes = volumesWithClaims(set, ordinal, spec.volumes);
  if (volumes.length > 0) spec.volumes = volumes;
  else delete spec.volumes;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

/**
 * The stand-in of a not-yet-created pod in the slot array: its name, namespace and labels
 * (template labels, identity labels, revision label) — everything the round reads from a new pod
 * object before it is created. {@link newStatefulSetPod} builds the full object on creation.
 */
export function newPodStub(
  set: StatefulSet,
  template: PodTemplateSpec,
  revision: string,
  ordinal: number,
): Pod {
  const name = podName(set.metadata.name ?? '', ordinal);
  const labels: Record<string, string> = {
    ...(template.metadata?.labels ?? {}),
    [LABEL_STATEFULSET_POD_NAME]: name,
  };
  labels[LABEL_CONTROLLER_REVISION_HASH] = revision;
  const metadata: Pod['metadata'] = { name, labels };
  if (set.metadata.namespace !== undefined) metadata.namespace = set.metadata.namespace;
  return { apiVersion: 'v1', kind: 'Pod', metadata };
}

/**
 * R6.2 / R3.12: the lifecycle label a pod gets when it is created — `PreparingNormal` when a
 * `preNormal` hook exists and the pod does not already satisfy all of it, else `Normal` — with
 * the lifecycle timestamp annotation.
 */
export function withCreationLifecycle<P extends Pod>(
  pod: P,
  lifecycle: Lifecycle | undefined,
  now: string,
): P {
  const state =
    lifecycle?.preNormal && !isAllHooked(lifecycle.preNormal, pod)
      ? LifecycleStates.PreparingNormal
      : LifecycleStates.Normal;
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      labels: { ...(pod.metadata?.labels ?? {}), [LABEL_LIFECYCLE_STATE]: state },
      annotations: { ...(pod.metadata?.annotations ?? {}), [ANNOTATION_LIFECYCLE_TIMESTAMP]: now },
    },
  };
}

/**
 * R3.11 `identityMatches`: ordinal ≥ 0, parent equals the set name, name `<set>-<ordinal>`,
 * namespace equals the set's, and the pod-name label equals the pod name (the pod-index label
 * is not checked).
 */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const name = pod.metadata?.name ?? '';
  const ordinal = ordinalOf(name);
  return (
    ordinal >= 0 &&
    isMemberOf(set.metadata.name ?? '', name) &&
    name === podName(set.metadata.name ?? '', ordinal) &&
    (pod.metadata?.namespace ?? '') === (set.metadata.namespace ?? '') &&
    pod.metadata?.labels?.[LABEL_STATEFULSET_POD_NAME] === name
  );
}

/**
 * R3.14 `storageMatches`: ordinal ≥ 0 and, for every claim template `t`, the pod has a volume
 * named `t.name` whose PVC source claims `<t.name>-<set>-<ordinal>`.
 */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod.metadata?.name);
  if (ordinal < 0) return false;
  const volumes = pod.spec?.volumes ?? [];
  for (const t of set.spec.volumeClaimTemplates ?? []) {
    const tname = t.metadata?.name ?? '';
    const v = volumes.find((x) => x.name === tname);
    if (v?.persistentVolumeClaim?.claimName !== claimName(tname, set.metadata.name ?? '', ordinal))
      return false;
  }
  return true;
}

/** R6.7 repair of a pod: identity labels (R3.10) and claim volumes (R3.15). A new pod. */
export function repairedPod(set: StatefulSet, pod: Pod, gates: Pick<FeatureGates, 'PodIndexLabel'>): Pod {
  const name = pod.metadata?.name ?? '';
  const ordinal = ordinalOf(name);
  const labels = identityLabels(pod.metadata?.labels, name, ordinal, gates);
  const out: Pod = { ...pod, metadata: { ...pod.metadata, labels } };
  if (!storageMatches(set, pod)) {
    out.spec = {
      ...(pod.spec ?? { containers: [] }),
      volumes: volumesWithClaims(set, ordinal, pod.spec?.volumes),
    };
  }
  return out;
}

/**
 * R3.13: the claims pod `<set>-<ordinal>` uses, by template name: name `<t>-<set>-<ordinal>`,
 * the set's namespace, labels = `spec.selector.matchLabels` (replacing the template's labels at
 * v1.8.2, §17 item 2), the template's annotations and spec, no status.
 */
export function claimsForOrdinal(
  set: StatefulSet,
  ordinal: number,
): Map<string, PersistentVolumeClaim & KubeObject> {
  const out = new Map<string, PersistentVolumeClaim & KubeObject>();
  for (const t of set.spec.volumeClaimTemplates ?? []) {
    const tname = t.metadata?.name ?? '';
    const metadata: ObjectMeta = {
      name: claimName(tname, set.metadata.name ?? '', ordinal),
      labels: { ...(set.spec.selector?.matchLabels ?? {}) },
    };
    if (set.metadata.namespace !== undefined) metadata.namespace = set.metadata.namespace;
    if (t.metadata?.annotations && Object.keys(t.metadata.annotations).length > 0) {
      metadata.annotations = { ...t.metadata.annotations };
    }
    const claim: PersistentVolumeClaim & KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata,
    };
    if (t.spec) claim.spec = structuredClone(t.spec);
    out.set(tname, claim);
  }
  return out;
}
