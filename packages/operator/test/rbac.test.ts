// deploy/'s RBAC against the operator's code (docs/reference/operator.md §5.4): every informer a
// controller opens needs list + watch on its resource, every controller writes its primary kind's
// status through the status subresource, and nothing beyond what the code uses is granted: no `*`
// in any rule, Secrets outside the kruise namespace only through rbac-secrets.yaml (installed
// exactly when manager.yaml runs a controller that reads Secrets), the webhook configurations, the
// cert Secret and the Lease by name only. The manifests are parsed as YAML and evaluated as the
// API server's RBAC authorizer would (test/helpers/rbac.ts).
import { applyFeatureGateDependencies, resolveFeatureGates } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import {
  allControllers,
  type KindRef,
  NAMESPACE,
  type OperatorOptions,
  POD,
  PVC,
  parseOperatorArgs,
  REVISION,
  resourceFor,
  SECRET,
  selectControllers,
} from '../src/index';
import {
  allows,
  attributesOf,
  deployYamlFiles,
  grantsFor,
  kustomizationResources,
  type RequestAttributes,
  rbacObjects,
  readDeploy,
  ruleAllows,
  SECRETS_FILE,
} from './helpers/rbac';

const installed = kustomizationResources();
const allFiles = readDeploy(deployYamlFiles().filter((f) => f !== 'kustomization.yaml'));
const secretsFile = readDeploy([SECRETS_FILE]);
/** What `kubectl apply -k deploy/` grants without the secrets file, and with it. */
const base = grantsFor(readDeploy(installed.filter((f) => f !== SECRETS_FILE)));
const withSecrets = [...base, ...grantsFor(secretsFile)];

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
const req = (
  verb: string,
  group: string,
  resource: string,
  namespace?: string,
  name?: string,
  subresource?: string,
): RequestAttributes => ({
  method: '',
  path: '',
  discovery: false,
  verb,
  group,
  resource,
  subresource,
  namespace,
  name,
});
const readsSecrets = (c: { primary: KindRef; secondary: KindRef[] }) =>
  [c.primary, ...c.secondary].some((r) => r.kind === SECRET.kind && groupOf(r.apiVersion) === '');

/** manager.yaml's container command line and env, parsed as the operator parses them. */
function managerOptions(): OperatorOptions {
  const deployment = readDeploy(['manager.yaml'])[0].objects.find((o) => o.kind === 'Deployment') as any;
  const container = deployment.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace')
      env[e.name] = deployment.metadata.namespace;
  }
  const args = (container.args as string[]).filter((a) => a !== 'operator');
  const o = parseOperatorArgs(args, env);
  if ('error' in o) throw new Error(o.error);
  return o;
}

describe('deploy/ RBAC: no wildcards, Secrets apart (operator.md §5.4)', () => {
  it('kustomization.yaml installs every manifest under deploy/ (the secrets file optional), and each file it names exists', () => {
    const files = deployYamlFiles().filter((f) => f !== 'kustomization.yaml');
    expect(installed.filter((f) => !files.includes(f))).toEqual([]);
    expect(files.filter((f) => !installed.includes(f) && f !== SECRETS_FILE)).toEqual([]);
  });

  it('no Role or ClusterRole under deploy/ has a `*` in apiGroups, resources or verbs', () => {
    const roles = rbacObjects(allFiles).filter(
      (o) => o.object.kind === 'Role' || o.object.kind === 'ClusterRole',
    );
    expect(roles.length).toBeGreaterThanOrEqual(5);
    const wild: string[] = [];
    for (const { file, object } of roles)
      for (const rule of ((object as any).rules ?? []) as Record<string, string[]>[])
        for (const field of ['apiGroups', 'resources', 'verbs', 'resourceNames', 'nonResourceURLs'])
          if ((rule[field] ?? []).some((v) => v.includes('*')))
            wild.push(
              `${file} ${object.kind}/${object.metadata.name} ${field}: ${JSON.stringify(rule[field])}`,
            );
    expect(wild).toEqual([]);
  });

  it('Secrets: no ClusterRole outside rbac-secrets.yaml names them; without that file the only Secret the operator may touch is its cert Secret', () => {
    const clusterRoles = rbacObjects(allFiles).filter(
      (o) => o.object.kind === 'ClusterRole' && o.file !== SECRETS_FILE,
    );
    const naming = clusterRoles
      .filter(({ object }) =>
        ((object as any).rules ?? []).some(
          (r: { apiGroups?: string[]; resources?: string[] }) =>
            (r.apiGroups ?? []).includes('') && (r.resources ?? []).some((x) => x === 'secrets' || x === '*'),
        ),
      )
      .map((o) => `${o.file} ${o.object.metadata.name}`);
    expect(naming).toEqual([]);
    // collection verbs carry no name (a create is authorized before the object has one)
    const collection = ['list', 'watch', 'create', 'deletecollection'];
    const object = ['get', 'update', 'patch', 'delete'];
    const allowed: string[] = [];
    for (const ns of [undefined, 'default', 'kruise-daemon-config', 'kruise-system']) {
      for (const verb of collection)
        if (allows(base, req(verb, '', 'secrets', ns))) allowed.push(`${verb} ${ns ?? '*'}`);
      for (const name of ['kruise-webhook-certs', 'regcred'])
        for (const verb of object)
          if (allows(base, req(verb, '', 'secrets', ns, name))) allowed.push(`${verb} ${ns ?? '*'}/${name}`);
    }
    expect(allowed.sort()).toEqual([
      'create kruise-system',
      'get kruise-system/kruise-webhook-certs',
      'update kruise-system/kruise-webhook-certs',
    ]);
  });

  it('rbac-secrets.yaml grants what the ImagePullJob pull-secret sync does (daemon.md §4.5): read everywhere, write in kruise-daemon-config only', () => {
    const g = grantsFor(secretsFile);
    for (const verb of ['list', 'watch']) expect(allows(g, req(verb, '', 'secrets')), verb).toBe(true);
    for (const verb of ['create', 'update', 'delete']) {
      expect(allows(g, req(verb, '', 'secrets', 'kruise-daemon-config', 'regcred-x1')), verb).toBe(true);
      expect(allows(g, req(verb, '', 'secrets', 'default', 'regcred')), `${verb} outside`).toBe(false);
    }
    expect(allows(g, req('patch', '', 'secrets', 'kruise-daemon-config', 'regcred-x1'))).toBe(false);
    // nothing but Secrets
    expect(g.every((x) => x.rule.resources?.every((r) => r === 'secrets'))).toBe(true);
  });

  it('rbac-secrets.yaml is installed exactly when manager.yaml runs a controller that reads Secrets (ImagePullJobGate)', () => {
    const o = managerOptions();
    const gates = applyFeatureGateDependencies(resolveFeatureGates(o.featureGates));
    const needs = selectControllers(o.controllers, gates).some(readsSecrets);
    expect(installed.includes(SECRETS_FILE)).toBe(needs);
  });

  it('with ImagePullJobGate off no controller reads Secrets, so the operator starts no Secret informer; on, only the ImagePullJob controller does', () => {
    const off = applyFeatureGateDependencies(resolveFeatureGates({}));
    expect(selectControllers('all', off).filter(readsSecrets)).toEqual([]);
    const on = applyFeatureGateDependencies(resolveFeatureGates({ ImagePullJobGate: true }));
    expect(
      selectControllers('all', on)
        .filter(readsSecrets)
        .map((c) => c.name),
    ).toEqual(['imagepulljob-controller']);
  });

  it('D1.9 CRD Cascading: the CRs of every CRD deploy/ installs can be listed across namespaces (no `*/*` list)', () => {
    const crds = readDeploy(installed.filter((f) => f.startsWith('crds/'))).flatMap((f) => f.objects);
    expect(crds.length).toBeGreaterThanOrEqual(11);
    for (const crd of crds) {
      const spec = (crd as any).spec as { group: string; names: { plural: string } };
      expect(allows(base, req('list', spec.group, spec.names.plural)), crd.metadata.name).toBe(true);
    }
    // a CRD of another group is not listable: its Cascading deletion is refused (M9), not allowed
    expect(allows(base, req('list', 'example.com', 'widgets'))).toBe(false);
  });

  it('W2.13: the webhook configurations are read and written by name only, never listed or watched', () => {
    for (const [resource, name] of [
      ['mutatingwebhookconfigurations', 'kruise-mutating-webhook-configuration'],
      ['validatingwebhookconfigurations', 'kruise-validating-webhook-configuration'],
    ]) {
      for (const verb of ['get', 'update', 'patch'])
        expect(allows(base, req(verb, 'admissionregistration.k8s.io', resource, undefined, name)), verb).toBe(
          true,
        );
      for (const verb of ['get', 'update', 'delete'])
        expect(allows(base, req(verb, 'admissionregistration.k8s.io', resource, undefined, 'other'))).toBe(
          false,
        );
      for (const verb of ['list', 'watch', 'create'])
        expect(allows(base, req(verb, 'admissionregistration.k8s.io', resource)), verb).toBe(false);
    }
    expect(
      allows(
        base,
        req(
          'update',
          'apiextensions.k8s.io',
          'customresourcedefinitions',
          undefined,
          'statefulsets.apps.kruise.io',
        ),
      ),
    ).toBe(true);
    expect(
      allows(
        base,
        req(
          'update',
          'apiextensions.k8s.io',
          'customresourcedefinitions',
          undefined,
          'clonesets.apps.kruise.io',
        ),
      ),
    ).toBe(false);
  });

  it("the names the rules allow are manager.yaml's: leader-election Lease, cert Secret, namespaces", () => {
    const o = managerOptions();
    const le = o.leaderElection;
    for (const verb of ['get', 'update'])
      expect(allows(base, req(verb, 'coordination.k8s.io', 'leases', le.namespace, le.id)), verb).toBe(true);
    expect(allows(base, req('create', 'coordination.k8s.io', 'leases', le.namespace))).toBe(true);
    expect(allows(base, req('update', 'coordination.k8s.io', 'leases', le.namespace, 'other'))).toBe(false);
    for (const verb of ['get', 'update'])
      expect(
        allows(base, req(verb, '', 'secrets', o.kruiseNamespace, o.webhook.secretName)),
        `${verb} cert Secret`,
      ).toBe(true);
    expect(allows(withSecrets, req('create', '', 'secrets', o.daemonConfigNamespace))).toBe(true);
  });
});

describe('deploy/ RBAC covers the controllers (§5.4)', () => {
  it('the ServiceAccount holds rules from the installed manifests', () => {
    expect(base.length).toBeGreaterThan(10);
  });
  for (const c of allControllers) {
    it(`${c.name}: list + watch on every informer, status update on its primary`, () => {
      // a controller that reads Secrets runs only with the secrets file installed
      const grants = readsSecrets(c) ? withSecrets : base;
      for (const ref of [c.primary, ...c.secondary]) {
        const res = resourceFor(ref.apiVersion, ref.kind);
        for (const verb of ['list', 'watch'])
          expect(
            allows(grants, req(verb, groupOf(ref.apiVersion), res.plural)),
            `${verb} ${res.plural}`,
          ).toBe(true);
      }
      if (c.primary.kind !== 'Node') {
        const res = resourceFor(c.primary.apiVersion, c.primary.kind);
        expect(
          allows(grants, req('update', groupOf(c.primary.apiVersion), res.plural, 'default', 'x', 'status')),
        ).toBe(true);
      }
    });
  }
  it('the webhooks’ informers (operator.ts): pods, PVCs, namespaces, revisions, SidecarSets, CRDs', () => {
    const refs: KindRef[] = [
      POD,
      PVC,
      NAMESPACE,
      REVISION,
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' },
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
    ];
    for (const ref of refs)
      for (const verb of ['list', 'watch']) {
        const plural = resourceFor(ref.apiVersion, ref.kind).plural;
        expect(allows(base, req(verb, groupOf(ref.apiVersion), plural)), `${verb} ${plural}`).toBe(true);
      }
  });
  it('node-side writes: NodeImages created/updated/deleted, ImagePullJobs created and patched, CRRs patched, Jobs created', () => {
    const k = (verb: string, resource: string) =>
      allows(base, req(verb, 'apps.kruise.io', resource, 'default', 'x'));
    expect(['create', 'update', 'delete'].every((v) => k(v, 'nodeimages'))).toBe(true);
    expect(['create', 'patch', 'delete'].every((v) => k(v, 'imagepulljobs'))).toBe(true);
    expect(k('patch', 'containerrecreaterequests')).toBe(true);
    expect(k('create', 'containerrecreaterequests')).toBe(false);
    expect(allows(base, req('create', 'batch', 'jobs', 'default'))).toBe(true);
  });
});

describe('test/helpers/rbac.ts evaluates requests as kube-apiserver does', () => {
  it('request attributes from paths', () => {
    expect(attributesOf('PATCH', '/api/v1/namespaces/default/pods/web-0/status')).toMatchObject({
      verb: 'patch',
      group: '',
      resource: 'pods',
      subresource: 'status',
      namespace: 'default',
      name: 'web-0',
    });
    expect(attributesOf('GET', '/apis/apps.kruise.io/v1alpha1/clonesets?resourceVersion=0')).toMatchObject({
      verb: 'list',
      group: 'apps.kruise.io',
      resource: 'clonesets',
      namespace: undefined,
    });
    expect(attributesOf('GET', '/api/v1/secrets?watch=true')).toMatchObject({
      verb: 'watch',
      resource: 'secrets',
    });
    expect(attributesOf('GET', '/api/v1/namespaces/kruise-system')).toMatchObject({
      verb: 'get',
      resource: 'namespaces',
      name: 'kruise-system',
      namespace: 'kruise-system',
    });
    expect(attributesOf('POST', '/api/v1/namespaces/default/events')).toMatchObject({
      verb: 'create',
      resource: 'events',
      namespace: 'default',
      name: undefined,
    });
    expect(attributesOf('DELETE', '/apis/batch/v1/namespaces/a/jobs')).toMatchObject({
      verb: 'deletecollection',
    });
    expect(attributesOf('GET', '/apis/apps.kruise.io/v1beta1')).toMatchObject({ discovery: true });
  });
  it('rules: resourceNames bind get/update but never an unnamed list or create; subresources are named in full', () => {
    const named = {
      apiGroups: [''],
      resources: ['secrets'],
      resourceNames: ['a'],
      verbs: ['get', 'list', 'create'],
    };
    expect(ruleAllows(named, req('get', '', 'secrets', 'ns', 'a'))).toBe(true);
    expect(ruleAllows(named, req('get', '', 'secrets', 'ns', 'b'))).toBe(false);
    expect(ruleAllows(named, req('list', '', 'secrets', 'ns'))).toBe(false);
    expect(ruleAllows(named, req('create', '', 'secrets', 'ns'))).toBe(false);
    const pods = { apiGroups: [''], resources: ['pods'], verbs: ['patch'] };
    expect(ruleAllows(pods, req('patch', '', 'pods', 'ns', 'p', 'status'))).toBe(false);
    expect(
      ruleAllows({ ...pods, resources: ['pods/status'] }, req('patch', '', 'pods', 'ns', 'p', 'status')),
    ).toBe(true);
    const g = grantsFor(secretsFile);
    // a RoleBinding's rules hold in its namespace only
    expect(allows(g, req('create', '', 'secrets', 'kruise-daemon-config'))).toBe(true);
    expect(allows(g, req('create', '', 'secrets', 'kruise-system'))).toBe(false);
  });
});
