// The table of every Kruise kind kruise-ts knows (names, scope, versions: docs/reference/crds.md),
// used by the manifest reader, the CRD generator, the API server and the operator, the
// Kubernetes built-in kinds the manifest reader accepts, and which kinds are cluster-scoped.

/** One served version of a Kruise kind. */
export interface KruiseKindVersion {
  name: string;
  served: boolean;
  storage: boolean;
}

/** A Kruise kind: group, versions, names and scope (docs/reference/crds.md). */
export interface KruiseKindInfo {
  group: string;
  kind: string;
  plural: string;
  singular: string;
  listKind: string;
  shortNames: string[];
  namespaced: boolean;
  versions: KruiseKindVersion[];
}

const v = (name: string, storage: boolean): KruiseKindVersion => ({ name, served: true, storage });

function kindInfo(
  kind: string,
  namespaced: boolean,
  shortNames: string[],
  versions: KruiseKindVersion[],
): KruiseKindInfo {
  const singular = kind.toLowerCase();
  return {
    group: 'apps.kruise.io',
    kind,
    plural: `${singular}s`,
    singular,
    listKind: `${kind}List`,
    shortNames,
    namespaced,
    versions,
  };
}

/**
 * Every Kruise kind, as docs/reference/crds.md lists them. Two deliberate additions beyond v1.8.2:
 * AdvancedCronJob serves `v1beta1` as storage version (v1.9.0, crds.md), and BroadcastJob and
 * ImageListPullJob also serve `v1beta1` (not storage), because AdvancedCronJob v1beta1 creates
 * its children at that version (advancedcronjob.md AC4.11).
 */
export const kruiseKinds: readonly KruiseKindInfo[] = [
  kindInfo('CloneSet', true, ['clone'], [v('v1alpha1', true)]),
  kindInfo('StatefulSet', true, ['sts', 'asts'], [v('v1alpha1', false), v('v1beta1', true)]),
  kindInfo('DaemonSet', true, ['daemon', 'ads'], [v('v1alpha1', true)]),
  kindInfo('SidecarSet', false, [], [v('v1alpha1', true)]),
  kindInfo('UnitedDeployment', true, ['ud'], [v('v1alpha1', true)]),
  kindInfo('ImagePullJob', true, [], [v('v1alpha1', true)]),
  kindInfo('ImageListPullJob', true, [], [v('v1alpha1', true), v('v1beta1', false)]),
  kindInfo('NodeImage', false, [], [v('v1alpha1', true)]),
  kindInfo('ContainerRecreateRequest', true, ['crr'], [v('v1alpha1', true)]),
  kindInfo('AdvancedCronJob', true, ['acj'], [v('v1alpha1', false), v('v1beta1', true)]),
  kindInfo('BroadcastJob', true, ['bcj'], [v('v1alpha1', true), v('v1beta1', false)]),
];

/** The Kruise kind named `kind` (any version), or `undefined`. */
export function findKruiseKind(kind: string): KruiseKindInfo | undefined {
  return kruiseKinds.find((k) => k.kind === kind);
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * True when `apiVersion`/`kind` is a Kruise kind at a served version.
 *
 * Example: `isKruiseKind('apps.kruise.io/v1beta1', 'StatefulSet')` is true;
 * `isKruiseKind('apps/v1', 'StatefulSet')` is false (the built-in one);
 * `isKruiseKind('apps.kruise.io/v1beta1', 'CloneSet')` is false (CloneSet is v1alpha1 only).
 */
export function isKruiseKind(apiVersion: string, kind: string): boolean {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return false;
  const { group, version } = splitApiVersion(apiVersion);
  const info = findKruiseKind(kind);
  return !!info && info.group === group && info.versions.some((x) => x.name === version && x.served);
}

/**
 * Kubernetes built-in kinds the manifest reader accepts, with their apiVersions. Anything else
 * that is not a Kruise kind is reported as unknown.
 */
export const builtinKinds: Readonly<Record<string, readonly string[]>> = {
  Pod: ['v1'],
  Node: ['v1'],
  Namespace: ['v1'],
  Service: ['v1'],
  ConfigMap: ['v1'],
  Secret: ['v1'],
  PersistentVolumeClaim: ['v1'],
  PersistentVolume: ['v1'],
  ServiceAccount: ['v1'],
  Event: ['v1', 'events.k8s.io/v1'],
  Deployment: ['apps/v1'],
  StatefulSet: ['apps/v1'],
  ReplicaSet: ['apps/v1'],
  ControllerRevision: ['apps/v1'],
  Job: ['batch/v1'],
  Lease: ['coordination.k8s.io/v1'],
  CustomResourceDefinition: ['apiextensions.k8s.io/v1'],
  MutatingWebhookConfiguration: ['admissionregistration.k8s.io/v1'],
  ValidatingWebhookConfiguration: ['admissionregistration.k8s.io/v1'],
};

/** True when `apiVersion`/`kind` is one of the accepted Kubernetes built-ins. */
export function isBuiltinKind(apiVersion: string, kind: string): boolean {
  return Object.hasOwn(builtinKinds, kind) && builtinKinds[kind].includes(apiVersion);
}

/**
 * Cluster-scoped kinds by API group (`''` = core): the Kubernetes built-ins kruise-ts meets plus
 * the cluster-scoped Kruise kinds of {@link kruiseKinds} (SidecarSet, NodeImage) and
 * ResourceDistribution (apps.kruise.io, not otherwise modelled). Every other kind is namespaced.
 */
export const clusterScopedKinds: Readonly<Record<string, readonly string[]>> = {
  Node: [''],
  Namespace: [''],
  PersistentVolume: [''],
  StorageClass: ['storage.k8s.io'],
  PriorityClass: ['scheduling.k8s.io'],
  CustomResourceDefinition: ['apiextensions.k8s.io'],
  ClusterRole: ['rbac.authorization.k8s.io'],
  ClusterRoleBinding: ['rbac.authorization.k8s.io'],
  MutatingWebhookConfiguration: ['admissionregistration.k8s.io'],
  ValidatingWebhookConfiguration: ['admissionregistration.k8s.io'],
  ResourceDistribution: ['apps.kruise.io'],
  ...Object.fromEntries(kruiseKinds.filter((k) => !k.namespaced).map((k) => [k.kind, [k.group]])),
};

/**
 * True when objects of `kind` are cluster-scoped (no namespace). With an `apiVersion`, its group
 * must be the kind's group; with `undefined`, the kind name alone decides (what the simulator's
 * store does).
 *
 * Examples: `isClusterScopedKind('v1', 'Node')` and
 * `isClusterScopedKind('apps.kruise.io/v1alpha1', 'SidecarSet')` are true;
 * `isClusterScopedKind('apps.kruise.io/v1alpha1', 'CloneSet')` is false (namespaced);
 * `isClusterScopedKind('v1', 'SidecarSet')` is false (no such kind in the core group);
 * `isClusterScopedKind(undefined, 'Namespace')` is true.
 */
export function isClusterScopedKind(apiVersion: string | undefined, kind: string): boolean {
  if (!Object.hasOwn(clusterScopedKinds, kind)) return false;
  if (apiVersion === undefined) return true;
  if (typeof apiVersion !== 'string') return false;
  return clusterScopedKinds[kind].includes(splitApiVersion(apiVersion).group);
}
