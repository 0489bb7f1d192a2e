// The API server's resource registry: every resource it serves (group, version,
// plural, kind, scope, short names, subresources, printer columns, schema),
// built from the Kruise CRDs (`crdManifests()`) plus the built-in kinds the
// controllers and the operator use. CRDs created through the API are added too.
import type { KubeObject, PrinterColumn } from '@kruise-ts/api';

/** The scale subresource's JSON paths (CRD `subresources.scale`). */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One served resource at one group-version. */
export interface ResourceInfo {
  group: string;
  version: string;
  /** `apps.kruise.io/v1alpha1`, or `v1` for the core group. */
  apiVersion: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Custom resources refuse strategic merge patches (415). */
  custom: boolean;
  status: boolean;
  scale?: ScalePaths;
  /** CRD printer columns; built-in kinds use the printers in printers.ts. */
  columns?: PrinterColumn[];
  /** The CRD's `openAPIV3Schema` (custom resources). */
  schema?: unknown;
}

/** The 8 verbs of a normal resource. */
export const VERBS: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

interface BuiltinDef {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  status?: boolean;
  scale?: boolean;
}

const BUILTINS: readonly BuiltinDef[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    status: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    status: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    status: true,
  },
  { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] },
  {
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    shortNames: ['pvc'],
    status: true,
  },
  { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    status: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    status: true,
    scale: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    status: true,
    scale: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    status: true,
    scale: true,
  },
  {
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    namespaced: true,
    categories: ['all'],
    status: true,
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    namespaced: true,
    shortNames: ['ing'],
    status: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    namespaced: true,
  },
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    status: true,
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  },
];

function builtin(d: BuiltinDef): ResourceInfo {
  return {
    group: d.group,
    version: d.version,
    apiVersion: d.group ? `${d.group}/${d.version}` : d.version,
    plural: d.plural,
    singular: d.kind.toLowerCase(),
    kind: d.kind,
    listKind: `${d.kind}List`,
    namespaced: d.namespaced,
    shortNames: d.shortNames ?? [],
    categories: d.categories ?? [],
    custom: false,
    status: d.status ?? false,
    scale: d.scale
      ? { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' }
      : undefined,
  };
}

type Json = Record<string, unknown>;

/** The served versions of a CRD object as resources (empty when malformed). */
export function resourcesFromCrd(crd: KubeObject): ResourceInfo[] {
  const spec = (crd.spec ?? {}) as Json;
  const names = (spec.names ?? {}) as Json;
  const group = typeof spec.group === 'string' ? spec.group : '';
  const plural = typeof names.plural === 'string' ? names.plural : '';
  const kind = typeof names.kind === 'string' ? names.kind : '';
  if (!group || !plural || !kind || !Array.isArray(spec.versions)) return [];
  const out: ResourceInfo[] = [];
  for (const v of spec.versions as Json[]) {
    if (!v || typeof v.name !== 'string' || v.served === false) continue;
    const sub = (v.subresources ?? {}) as Json;
    const scale = sub.scale as ScalePaths | undefined;
    out.push({
      group,
      version: v.name,
      apiVersion: `${group}/${v.name}`,
      plural,
      singular: typeof names.singular === 'string' ? names.singular : kind.toLowerCase(),
      kind,
      listKind: typeof names.listKind === 'string' ? names.listKind : `${kind}List`,
      namespaced: spec.scope !== 'Cluster',
      shortNames: Array.isArray(names.shortNames) ? (names.shortNames as string[]) : [],
      categories: Array.isArray(names.categories) ? (names.categories as string[]) : [],
      custom: true,
      status: sub.status !== undefined,
      scale: scale && typeof scale.specReplicasPath === 'string' ? scale : undefined,
      columns: Array.isArray(v.additionalPrinterColumns)
        ? (v.additionalPrinterColumns as PrinterColumn[])
        : [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
      schema: ((v.schema ?? {}) as Json).openAPIV3Schema,
    });
  }
  return out;
}

/**
 * Kubernetes' version priority (kube-aware sort): GA > beta > alpha, higher
 * major first, then higher minor; `v1` > `v1beta1` > `v1alpha1`.
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ta, ma, na] = parse(a);
  const [tb, mb, nb] = parse(b);
  if (ta !== tb) return tb - ta;
  if (ma !== mb) return mb - ma;
  if (na !== nb) return nb - na;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The resource registry. */
export class Registry {
  private byPath = new Map<string, ResourceInfo>();
  private byGvk = new Map<string, ResourceInfo>();
  private order: string[] = [];
  /** Bumped on every change (discovery hashes, caches). */
  generation = 0;

  constructor(crds: readonly KubeObject[]) {
    for (const d of BUILTINS) this.add(builtin(d));
    for (const crd of crds) this.addCrd(crd);
  }

  /** Adds (or replaces) the resources a CRD serves. */
  addCrd(crd: KubeObject): void {
    for (const r of resourcesFromCrd(crd)) this.add(r);
  }

  private add(r: ResourceInfo): void {
    const key = `${r.group}/${r.version}/${r.plural}`;
    if (!this.byPath.has(key)) this.order.push(key);
    this.byPath.set(key, r);
    this.byGvk.set(`${r.apiVersion}/${r.kind}`, r);
    this.generation++;
  }

  /** The resource at `/apis/<group>/<version>/<plural>` (group '' = core). */
  lookup(group: string, version: string, plural: string): ResourceInfo | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  /** The resource of an apiVersion + kind. */
  forKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    return this.byGvk.get(`${apiVersion}/${kind}`);
  }

  /** Every resource in registration order. */
  all(): ResourceInfo[] {
    return this.order.map((k) => this.byPath.get(k)!);
  }

  /** Whether a group-version is served. */
  hasGroupVersion(group: string, version: string): boolean {
    return this.all().some((r) => r.group === group && r.version === version);
  }

  /** Groups (non-core) with their versions, preferred version first. */
  groups(): { name: string; versions: string[] }[] {
    const m = new Map<string, Set<string>>();
    for (const r of this.all()) {
      if (r.group === '') continue;
      let s = m.get(r.group);
      if (!s) {
        s = new Set();
        m.set(r.group, s);
      }
      s.add(r.version);
    }
    return [...m].map(([name, vs]) => ({ name, versions: [...vs].sort(compareVersions) }));
  }

  /** Resources of one group-version. */
  inGroupVersion(group: string, version: string): ResourceInfo[] {
    return this.all().filter((r) => r.group === group && r.version === version);
  }
}
