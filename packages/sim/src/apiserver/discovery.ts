// Discovery and OpenAPI: `/version` (a server version the installed kubectl
// dispatcher maps to a working kubectl, guide §B), aggregated discovery v2 and
// v2beta1 (§C; kubectl ≤ 1.29 only understands v2beta1), legacy discovery
// (`/api`, `/apis`, `/api/v1`, `/apis/<g>/<v>`: client-node's
// KubernetesObjectApi uses it), and OpenAPI v3 (§D): a root listing every
// group-version with a content hash, and per group-version documents with
// the real CRD schemas and PATCH operations declaring `fieldValidation`.
import { createHash } from 'node:crypto';
import { type Registry, type ResourceInfo, VERBS } from './registry';

/** The version `/version` reports: minor 32, which the dispatcher maps to its built-in kubectl 1.32.4. */
export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-kruise-ts',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** Which aggregated discovery version the Accept header asks for first (in order), if any. */
export function aggregatedVersion(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const params = part.split(';').map((s) => s.trim());
    if (!params.includes('g=apidiscovery.k8s.io') || !params.includes('as=APIGroupDiscoveryList')) continue;
    if (params.includes('v=v2')) return 'v2';
    if (params.includes('v=v2beta1')) return 'v2beta1';
  }
  return undefined;
}

function scaleKind() {
  return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
}

function discoveryResource(r: ResourceInfo): Record<string, unknown> {
  const subresources: unknown[] = [];
  const self = { group: r.group, version: r.version, kind: r.kind };
  if (r.status)
    subresources.push({ subresource: 'status', responseKind: self, verbs: ['get', 'patch', 'update'] });
  if (r.scale)
    subresources.push({ subresource: 'scale', responseKind: scaleKind(), verbs: ['get', 'patch', 'update'] });
  const out: Record<string, unknown> = {
    resource: r.plural,
    responseKind: self,
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: VERBS,
  };
  if (r.shortNames.length) out.shortNames = r.shortNames;
  if (r.categories.length) out.categories = r.categories;
  if (subresources.length) out.subresources = subresources;
  return out;
}

/** Aggregated discovery (`APIGroupDiscoveryList`) for `/api` (core) or `/apis` (groups). */
export function aggregatedDiscovery(reg: Registry, core: boolean, v: 'v2' | 'v2beta1'): unknown {
  const groups = core ? [{ name: '', versions: ['v1'] }] : reg.groups();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${v}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: core ? {} : { name: g.name },
      versions: g.versions.map((ver) => ({
        version: ver,
        resources: reg.inGroupVersion(g.name, ver).map(discoveryResource),
        freshness: 'Current',
      })),
    })),
  };
}

/** Legacy `/api` (`APIVersions`). */
export function legacyApi(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** Legacy `/apis` (`APIGroupList`). */
export function legacyApis(reg: Registry): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: reg.groups().map((g) => ({
      name: g.name,
      versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v })),
      preferredVersion: { groupVersion: `${g.name}/${g.versions[0]}`, version: g.versions[0] },
    })),
  };
}

/** Legacy `/apis/<group>` (`APIGroup`), undefined when the group is not served. */
export function legacyGroup(reg: Registry, group: string): unknown {
  const g = reg.groups().find((x) => x.name === group);
  if (!g) return undefined;
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: g.name,
    versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${g.name}/${g.versions[0]}`, version: g.versions[0] },
  };
}

/** Legacy `APIResourceList` of one group-version (subresources as `clonesets/status`). */
export function resourceList(reg: Registry, group: string, version: string): unknown {
  const resources: unknown[] = [];
  for (const r of reg.inGroupVersion(group, version)) {
    const base = { singularName: r.singular, namespaced: r.namespaced, kind: r.kind };
    const main: Record<string, unknown> = { name: r.plural, ...base, verbs: VERBS };
    if (r.shortNames.length) main.shortNames = r.shortNames;
    if (r.categories.length) main.categories = r.categories;
    resources.push(main);
    if (r.status)
      resources.push({
        name: `${r.plural}/status`,
        ...base,
        singularName: '',
        verbs: ['get', 'patch', 'update'],
      });
    if (r.scale)
      resources.push({
        name: `${r.plural}/scale`,
        singularName: '',
        namespaced: r.namespaced,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

// ---------------------------------------------------------------- OpenAPI v3

/** The OpenAPI schema name of a kind: `io.kruise.apps.v1alpha1.CloneSet`, `io.k8s.api.core.v1.Pod`. */
export function schemaName(r: ResourceInfo): string {
  if (!r.custom)
    return `io.k8s.api.${r.group === '' ? 'core' : r.group.split('.')[0]}.${r.version}.${r.kind}`;
  return `${r.group.split('.').reverse().join('.')}.${r.version}.${r.kind}`;
}

/** The OpenAPI v3 document of one group-version. */
export function openApiDoc(reg: Registry, group: string, version: string): unknown {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const fieldValidation = {
    name: 'fieldValidation',
    in: 'query',
    description:
      'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields.',
    schema: { type: 'string', uniqueItems: true },
  };
  for (const r of reg.inGroupVersion(group, version)) {
    const gvk = { group: r.group, version: r.version, kind: r.kind };
    const name = schemaName(r);
    const ref = { $ref: `#/components/schemas/${name}` };
    const body = { content: { 'application/json': { schema: ref } } };
    const op = (verb: string, action: string) => ({
      operationId: `${verb}${r.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      parameters: verb === 'read' ? [] : [fieldValidation],
      responses: { '200': { description: 'OK', ...body } },
    });
    const prefix = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const path = `${prefix}/${r.namespaced ? 'namespaces/{namespace}/' : ''}${r.plural}/{name}`;
    paths[path] = {
      get: op('read', 'get'),
      put: { ...op('replace', 'put'), requestBody: body },
      patch: {
        ...op('patch', 'patch'),
        requestBody: { content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
      },
      delete: op('delete', 'delete'),
    };
    const s = (r.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Record<
      string,
      unknown
    >;
    schemas[name] = { ...s, 'x-kubernetes-group-version-kind': [gvk] };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}

/** Content hash of a document (for `serverRelativeURL?hash=`). */
export function contentHash(doc: unknown): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64).toUpperCase();
}

/** The OpenAPI v3 root: every group-version and its document URL. */
export function openApiRoot(reg: Registry, hashOf: (gv: string) => string): unknown {
  const paths: Record<string, unknown> = {};
  const gvs = [{ key: 'api/v1', group: '', version: 'v1' }];
  for (const g of reg.groups())
    for (const v of g.versions) gvs.push({ key: `apis/${g.name}/${v}`, group: g.name, version: v });
  for (const gv of gvs) paths[gv.key] = { serverRelativeURL: `/openapi/v3/${gv.key}?hash=${hashOf(gv.key)}` };
  return { paths };
}
