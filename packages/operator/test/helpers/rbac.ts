// RBAC as the API server's RBAC authorizer evaluates it, for the operator's ServiceAccount
// (kruise-system/kruise-manager), from the manifests under deploy/: reading the manifests
// (readDeploy), the grants the bindings give the ServiceAccount (grantsFor), the request
// attributes of an API path (attributesOf, as kube-apiserver's RequestInfo resolver derives them),
// the allow decision (allows), and a KubeClient wrapper that records every request the operator
// sends and the ones the manifests would refuse (AuditingClient). Tests use it to check the
// manifests against what the operator's code actually does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type KubeObject, readManifests } from '@kruise-ts/api';
import type {
  KubeClient,
  KubeResponse,
  RequestOptions,
  WatchEvent,
  WatchHandle,
} from '../../src/kube/client';

/** The operator's deploy directory. */
export const DEPLOY_DIR = fileURLToPath(new URL('../../deploy/', import.meta.url));
/** The file holding every grant on Secrets outside the kruise namespace (ImagePullJobGate). */
export const SECRETS_FILE = 'rbac-secrets.yaml';
/** The operator's ServiceAccount (manager.yaml `serviceAccountName`). */
export const MANAGER_SA = { namespace: 'kruise-system', name: 'kruise-manager' };

/** One `rules[]` entry of a Role or ClusterRole. */
export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** The objects of one manifest file (path relative to deploy/). */
export interface DeployFile {
  file: string;
  objects: KubeObject[];
}

/** A rule the ServiceAccount holds: cluster-wide (no namespace) or in one namespace. */
export interface Grant {
  rule: PolicyRule;
  namespace?: string;
  /** `ClusterRole/<name>` or `Role/<namespace>/<name>`, and the file it came from. */
  role: string;
  file: string;
}

/** Every `.yaml` file under deploy/, relative paths, sorted. */
export function deployYamlFiles(dir = DEPLOY_DIR): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** Parses deploy files (any kind accepted); throws on a document the reader refuses. */
export function readDeploy(files: readonly string[], dir = DEPLOY_DIR): DeployFile[] {
  return files.map((file) => {
    const r = readManifests(readFileSync(join(dir, file), 'utf8'), { acceptKind: () => true });
    if (r.errors.length > 0) throw new Error(`${file}: ${JSON.stringify(r.errors)}`);
    return { file, objects: r.objects };
  });
}

/**
 * The `resources` of deploy/kustomization.yaml: what `kubectl apply -k deploy/` installs. Read as
 * the block list under `resources:` (the file has no metadata, which the manifest reader asks for);
 * comment lines are skipped, so a commented-out file is not installed.
 */
export function kustomizationResources(dir = DEPLOY_DIR): string[] {
  const text = readFileSync(join(dir, 'kustomization.yaml'), 'utf8');
  const block = /^resources:\n((?:[ \t]+.*\n?)*)/m.exec(text)?.[1] ?? '';
  return [...block.matchAll(/^[ \t]+- ([^\s#]+)[ \t]*$/gm)].map((m) => m[1]);
}

/** The RBAC objects (Role, ClusterRole and their bindings) of some files. */
export function rbacObjects(files: readonly DeployFile[]): Array<{ file: string; object: KubeObject }> {
  return files.flatMap((f) =>
    f.objects
      .filter((o) => o.apiVersion.startsWith('rbac.authorization.k8s.io/'))
      .map((object) => ({ file: f.file, object })),
  );
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

/** The grants `sa` holds through the bindings of `files` (a binding to a missing role grants nothing). */
export function grantsFor(files: readonly DeployFile[], sa = MANAGER_SA): Grant[] {
  const objs = rbacObjects(files);
  const roles = new Map<string, { rules: PolicyRule[]; file: string }>();
  for (const { file, object } of objs) {
    if (object.kind === 'ClusterRole')
      roles.set(`ClusterRole/${object.metadata.name}`, { rules: (object as any).rules ?? [], file });
    if (object.kind === 'Role')
      roles.set(`Role/${object.metadata.namespace}/${object.metadata.name}`, {
        rules: (object as any).rules ?? [],
        file,
      });
  }
  const out: Grant[] = [];
  for (const { object } of objs) {
    if (object.kind !== 'ClusterRoleBinding' && object.kind !== 'RoleBinding') continue;
    const subjects = ((object as any).subjects ?? []) as Subject[];
    if (
      !subjects.some((s) => s.kind === 'ServiceAccount' && s.name === sa.name && s.namespace === sa.namespace)
    )
      continue;
    const ref = (object as any).roleRef as { kind: string; name: string };
    const ns = object.kind === 'RoleBinding' ? object.metadata.namespace : undefined;
    const key = ref.kind === 'ClusterRole' ? `ClusterRole/${ref.name}` : `Role/${ns}/${ref.name}`;
    const role = roles.get(key);
    if (!role) continue;
    for (const rule of role.rules) out.push({ rule, namespace: ns, role: key, file: role.file });
  }
  return out;
}

/** What the authorizer sees of one request. */
export interface RequestAttributes {
  method: string;
  path: string;
  /** A discovery path (`/api`, `/apis/<group>/<version>`): allowed to every authenticated user. */
  discovery: boolean;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

const VERB_OF: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch' };

/**
 * The request attributes of `method path`, as kube-apiserver's RequestInfo resolver derives them:
 * `/api/v1/namespaces/default/pods/web-0/status` with PATCH → verb `patch`, group `""`, resource
 * `pods`, subresource `status`, namespace `default`, name `web-0`; a GET without a name is `list`
 * (`watch` with `watch=true`); `/api/v1/namespaces/x` is the Namespace `x` (namespace `x` too).
 */
export function attributesOf(method: string, fullPath: string, watch = false): RequestAttributes {
  const [path, qs] = fullPath.split('?');
  const isWatch = watch || new URLSearchParams(qs ?? '').get('watch') === 'true';
  const parts = path.split('/').filter(Boolean);
  let rest: string[];
  let group = '';
  if (parts[0] === 'api') rest = parts.slice(2);
  else if (parts[0] === 'apis') {
    group = parts[1] ?? '';
    rest = parts.slice(3);
  } else rest = [];
  const base = { method, path: fullPath, group };
  if (rest.length === 0) return { ...base, discovery: true, verb: 'get', resource: '' };
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize') rest = rest.slice(2);
  }
  const [resource, name, subresource] = rest;
  let verb: string;
  if (method === 'GET') verb = isWatch ? 'watch' : name ? 'get' : 'list';
  else if (method === 'DELETE') verb = name ? 'delete' : 'deletecollection';
  else verb = VERB_OF[method] ?? method.toLowerCase();
  return { ...base, discovery: false, verb, resource, subresource, namespace, name };
}

/** Whether one rule allows the request (RBAC: verb, group, resource[/sub], resourceNames). */
export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === v || x === '*');
  if (!has(rule.verbs, a.verb) || !has(rule.apiGroups, a.group)) return false;
  const full = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resOk = (rule.resources ?? []).some(
    (r) => r === full || r === '*' || (a.subresource !== undefined && r === `*/${a.subresource}`),
  );
  if (!resOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== undefined && names.includes(a.name));
}

/** Whether `grants` allow the request: a cluster-wide grant anywhere, a namespaced one in its namespace. */
export function allows(grants: readonly Grant[], a: RequestAttributes): boolean {
  if (a.discovery) return true;
  return grants.some(
    (g) => (g.namespace === undefined || g.namespace === a.namespace) && ruleAllows(g.rule, a),
  );
}

/**
 * kube-apiserver's 403 message for a refused request: the qualified resource (and name), then
 * the verb on the resource with its subresource. Example: `widgets.example.com is forbidden: User
 * "system:serviceaccount:kruise-system:kruise-manager" cannot list resource "widgets" in API group
 * "example.com" at the cluster scope`.
 */
export function forbiddenMessage(a: RequestAttributes, sa = MANAGER_SA): string {
  const full = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const what = a.name ? `${qualified} "${a.name}"` : qualified;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${what} is forbidden: User "system:serviceaccount:${sa.namespace}:${sa.name}" cannot ${a.verb} resource "${full}" in API group "${a.group}" ${where}`;
}

/** A request as a short line for failure messages: `list secrets (cluster)`. */
export function describeRequest(a: RequestAttributes): string {
  const full = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const g = a.group ? `.${a.group}` : '';
  return `${a.verb} ${full}${g}${a.name ? ` ${a.name}` : ''} (${a.namespace ?? 'cluster'})`;
}

/**
 * A KubeClient in front of another that checks every request against `grants`. `audit` records
 * the refusals and still sends the request (the operator behaves as it would with `*` rights, and
 * a test lists afterwards what the manifests would have refused); `enforce` answers a refused
 * request with the API server's 403 Forbidden instead of sending it.
 */
export class AuditingClient implements KubeClient {
  readonly requests: RequestAttributes[] = [];
  readonly denied: RequestAttributes[] = [];

  constructor(
    private readonly inner: KubeClient,
    private readonly grants: readonly Grant[],
    private readonly mode: 'audit' | 'enforce' = 'audit',
  ) {}

  private check(a: RequestAttributes): boolean {
    this.requests.push(a);
    if (allows(this.grants, a)) return true;
    this.denied.push(a);
    return this.mode === 'audit';
  }

  async request(method: string, path: string, opts?: RequestOptions): Promise<KubeResponse> {
    const a = attributesOf(method, path);
    if (this.check(a)) return this.inner.request(method, path, opts);
    return {
      status: 403,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: forbiddenMessage(a),
        reason: 'Forbidden',
        details: { ...(a.name ? { name: a.name } : {}), group: a.group, kind: a.resource },
        code: 403,
      },
    };
  }

  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (ev: WatchEvent) => void,
    onDone: (err?: Error & { statusCode?: number }) => void,
  ): WatchHandle {
    const a = attributesOf('GET', path, true);
    if (this.check(a)) return this.inner.watch(path, query, onEvent, onDone);
    const err = new Error(`watch ${path}: 403`) as Error & { statusCode?: number };
    err.statusCode = 403;
    const t = setTimeout(() => onDone(err), 0);
    return { stop: () => clearTimeout(t) };
  }

  /** The requests that touch `resource` (e.g. `secrets`), as short lines. */
  touching(resource: string): string[] {
    return [...new Set(this.requests.filter((r) => r.resource === resource).map(describeRequest))].sort();
  }
}
