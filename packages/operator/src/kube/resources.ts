// The resources the operator reads and writes: group/version/plural/scope per kind, and the
// REST paths built from them (collection, object, status subresource). The one table the
// informers, the executor and the RBAC manifest agree on.
import { kruiseKinds } from '@kruise-ts/api';

/** One served resource. */
export interface ResourceDef {
  /** `apps.kruise.io/v1alpha1`, or `v1` for the core group. */
  apiVersion: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Has a status subresource (status is written through `/status`). */
  status: boolean;
}

const builtins: ResourceDef[] = [
  { apiVersion: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, status: true },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    status: true,
  },
  { apiVersion: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, status: true },
  { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, status: true },
  { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true, status: false },
  { apiVersion: 'v1', kind: 'Service', plural: 'services', namespaced: true, status: true },
  { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true, status: false },
  {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    namespaced: true,
    status: false,
  },
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments', namespaced: true, status: true },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true, status: true },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true, status: true },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', namespaced: true, status: false },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
    status: false,
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
    status: false,
  },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    status: true,
  },
];

/** Every Kruise kind at its storage version (the version the operator reads and writes). */
const kruise: ResourceDef[] = kruiseKinds.map((k) => {
  const storage = k.versions.find((v) => v.storage) ?? k.versions[0];
  return {
    apiVersion: `${k.group}/${storage.name}`,
    kind: k.kind,
    plural: k.plural,
    namespaced: k.namespaced,
    status: true,
  };
});

/** All known resources. */
export const resources: readonly ResourceDef[] = [...builtins, ...kruise];

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/**
 * The resource of `apiVersion`/`kind`. The group and kind decide (any version of a Kruise kind maps
 * to the same plural; the object's own apiVersion is kept in paths). Unknown kinds fall back to the
 * Kubernetes convention: lowercase kind + "s", namespaced.
 */
export function resourceFor(apiVersion: string, kind: string): ResourceDef {
  const group = groupOf(apiVersion);
  const found = resources.find((r) => r.kind === kind && groupOf(r.apiVersion) === group);
  if (found) return { ...found, apiVersion };
  return { apiVersion, kind, plural: `${kind.toLowerCase()}s`, namespaced: true, status: true };
}

function prefix(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/**
 * The collection path. Example: pods in `default` → `/api/v1/namespaces/default/pods`;
 * CloneSets in all namespaces → `/apis/apps.kruise.io/v1alpha1/clonesets`.
 */
export function collectionPath(res: ResourceDef, namespace?: string): string {
  const ns = res.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix(res.apiVersion)}${ns}/${res.plural}`;
}

/** The object path, optionally with a subresource (`status`). */
export function objectPath(
  res: ResourceDef,
  namespace: string | undefined,
  name: string,
  sub?: string,
): string {
  const base = `${collectionPath(res, namespace)}/${encodeURIComponent(name)}`;
  return sub ? `${base}/${sub}` : base;
}

/** `namespace/name` (or `name` for cluster-scoped objects): the cache and queue key. */
export function keyFor(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
