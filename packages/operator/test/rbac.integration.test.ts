// deploy/'s RBAC against what a running operator sends, on `kruise-ts serve --controllers none`.
// The cluster is set up as `kubectl apply -k deploy/` would (namespaces, the shipped webhook
// configurations, the StatefulSet CRD with its conversion webhook), and the operator runs without
// `--install-webhooks`, as in manager.yaml. Its transport is an AuditingClient
// (test/helpers/rbac.ts): every request is checked against the grants the manifests give the
// kruise-manager ServiceAccount, so a rule the code needs but the manifests lack shows up as a
// refused request, and so does a Secret read with ImagePullJobGate off.
import type { KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import type { OperatorOptions, RunningOperator } from '../src/index';
import { useCluster, waitFor } from './helpers/cluster';
import {
  AuditingClient,
  allows,
  describeRequest,
  type Grant,
  grantsFor,
  kustomizationResources,
  readDeploy,
  SECRETS_FILE,
} from './helpers/rbac';
import { applyDeploy, clientFor, getObject, listObjects, mustCreate } from './helpers/serverClient';

const cluster = useCluster();

const installed = kustomizationResources();
const base = grantsFor(readDeploy(installed.filter((f) => f !== SECRETS_FILE)));
const withSecrets = [...base, ...grantsFor(readDeploy([SECRETS_FILE]))];

const K1 = 'apps.kruise.io/v1alpha1';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const PROTECTION = 'policy.kruise.io/delete-protection';

type Client = ReturnType<typeof clientFor>;

/**
 * Starts a server set up like a `kubectl apply -k deploy/` install and an operator on it whose
 * requests go through an AuditingClient over `grants`.
 */
async function deployedOperator(
  grants: readonly Grant[],
  mode: 'audit' | 'enforce',
  extra: Partial<OperatorOptions> = {},
): Promise<{ client: Client; audit: AuditingClient; op: RunningOperator }> {
  const server = await cluster.start();
  const client = clientFor(server.kubeconfigPath);
  const inner = clientFor(server.kubeconfigPath);
  cluster.closeAfter({
    close: async () => {
      client.close();
      inner.close();
    },
  });
  await applyDeploy(client, ['namespace.yaml', 'webhooks.yaml']);
  // deploy/crds' StatefulSet CRD carries the conversion webhook the operator patches (W2.14)
  const [crd] = readDeploy(['crds/statefulsets.apps.kruise.io.yaml'])[0].objects;
  const cur = await client.request('GET', `${CRDS}/statefulsets.apps.kruise.io`);
  const put = await client.request('PUT', `${CRDS}/statefulsets.apps.kruise.io`, {
    body: { ...crd, metadata: { ...crd.metadata, resourceVersion: cur.body.metadata.resourceVersion } },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const audit = new AuditingClient(inner, grants, mode);
  const op = await cluster.operator('replica-a', {
    client: audit,
    nodeImageCreationDelaySeconds: 0,
    ...extra,
    webhook: { install: false } as OperatorOptions['webhook'],
  });
  return { client, audit, op };
}

const mergePatch = (client: Client, path: string, patch: unknown) =>
  client.request('PATCH', path, { body: patch, contentType: 'application/merge-patch+json' });

const cloneSet = (name: string, replicas: number): KubeObject =>
  ({
    apiVersion: K1,
    kind: 'CloneSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible' },
    },
  }) as KubeObject;

const ready = (p: any) => p.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True');
const podsOf = async (client: Client, app: string) =>
  (await listObjects(client, 'v1', 'Pod', 'default')).filter(
    (p) => p.metadata.labels?.app === app && !p.metadata.deletionTimestamp,
  );

describe("deploy/ RBAC against a running operator's requests (kruise-ts serve --controllers none)", () => {
  it('default gates, without rbac-secrets.yaml: start-up, workloads, sidecars, node-side kinds and shutdown need nothing the manifests refuse, and no Secret but the cert Secret is touched', async () => {
    const { client, audit, op } = await deployedOperator(base, 'audit');
    expect(op.cache.all().map((i) => i.resource.plural)).not.toContain('secrets');

    // CloneSet: scale up, in-place update (pods, pods/status, revisions, status), scale down
    await mustCreate(client, cloneSet('web', 2));
    await waitFor(
      async () => (await podsOf(client, 'web')).filter(ready).length === 2,
      20_000,
      '2 ready pods',
    );
    const cs = `/apis/${K1}/namespaces/default/clonesets/web`;
    expect(
      (
        await mergePatch(client, cs, {
          spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } } },
        })
      ).status,
    ).toBe(200);
    await waitFor(
      async () => {
        const s = (await getObject(client, K1, 'CloneSet', 'default', 'web'))?.status;
        return s?.updatedReadyReplicas === 2 && s.observedGeneration === 2;
      },
      20_000,
      'the in-place update',
    );
    expect((await mergePatch(client, cs, { spec: { replicas: 1 } })).status).toBe(200);
    await waitFor(async () => (await podsOf(client, 'web')).length === 1, 20_000, 'scaled down to 1');

    // SidecarSet: injection through the webhook, its controller's status and revisions
    await mustCreate(client, {
      apiVersion: K1,
      kind: 'SidecarSet',
      metadata: { name: 'logger' },
      spec: {
        selector: { matchLabels: { app: 'logged' } },
        containers: [{ name: 'log', image: 'busybox:1.36' }],
      },
    } as KubeObject);
    await waitFor(
      async () => op.cache.list({ apiVersion: K1, kind: 'SidecarSet' }).length === 1,
      5000,
      'SidecarSet cached',
    );
    const logged = await mustCreate(client, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'logged', namespace: 'default', labels: { app: 'logged' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
    } as KubeObject);
    expect(((logged as any).spec.containers as { name: string }[]).map((c) => c.name)).toContain('log');
    await waitFor(
      async () => (await getObject(client, K1, 'SidecarSet', undefined, 'logger'))?.status?.matchedPods === 1,
      20_000,
      'SidecarSet status',
    );

    // UnitedDeployment: an apps/v1 Deployment subset
    await mustCreate(client, {
      apiVersion: K1,
      kind: 'UnitedDeployment',
      metadata: { name: 'ud', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'ud' } },
        template: {
          deploymentTemplate: {
            metadata: { labels: { app: 'ud' } },
            spec: {
              selector: { matchLabels: { app: 'ud' } },
              template: {
                metadata: { labels: { app: 'ud' } },
                spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
              },
            },
          },
        },
        topology: { subsets: [{ name: 'a' }] },
      },
    } as KubeObject);
    await waitFor(
      async () =>
        (await listObjects(client, 'apps/v1', 'Deployment', 'default')).some(
          (d) => d.metadata.labels?.['apps.kruise.io/subset-name'] === 'a',
        ),
      20_000,
      'the subset Deployment',
    );

    // node side: a NodeImage per node; a ContainerRecreateRequest run to completion
    const nodes = await listObjects(client, 'v1', 'Node');
    await waitFor(
      async () => (await listObjects(client, K1, 'NodeImage')).length === nodes.length,
      20_000,
      'a NodeImage per node',
    );
    const [pod] = await podsOf(client, 'web');
    await mustCreate(client, {
      apiVersion: K1,
      kind: 'ContainerRecreateRequest',
      metadata: { name: 'restart', namespace: 'default' },
      spec: { podName: pod.metadata.name, containers: [{ name: 'main' }] },
    } as KubeObject);
    await waitFor(
      async () =>
        (await getObject(client, K1, 'ContainerRecreateRequest', 'default', 'restart'))?.status?.phase ===
        'Completed',
      20_000,
      'the CRR completes',
    );

    expect(audit.requests.length).toBeGreaterThan(50);
    await cluster.stopOperator(op);
    expect(audit.denied.map(describeRequest)).toEqual([]);
    // the cert Secret only (created at the first start, then read and kept by name)
    expect(audit.touching('secrets')).toEqual([
      'create secrets (kruise-system)',
      'get secrets kruise-webhook-certs (kruise-system)',
    ]);
  }, 120_000);

  it('ImagePullJobGate on, with rbac-secrets.yaml: the pull-secret sync is allowed, and exactly its Secret requests need that file', async () => {
    const { client, audit, op } = await deployedOperator(withSecrets, 'audit', {
      featureGates: { ImagePullJobGate: true },
    });
    expect(op.cache.all().map((i) => i.resource.plural)).toContain('secrets');
    await mustCreate(client, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'regcred', namespace: 'default' },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') },
    } as KubeObject);
    await mustCreate(client, {
      apiVersion: K1,
      kind: 'ImagePullJob',
      metadata: { name: 'warm', namespace: 'default' },
      spec: { image: 'nginx:1.27', pullSecrets: ['regcred'] },
    } as KubeObject);
    await mustCreate(client, {
      apiVersion: K1,
      kind: 'ImageListPullJob',
      metadata: { name: 'warm-list', namespace: 'default' },
      spec: { images: ['busybox:1.36'] },
    } as KubeObject);
    await waitFor(
      async () => (await getObject(client, K1, 'ImagePullJob', 'default', 'warm'))?.status?.completionTime,
      30_000,
      'the ImagePullJob completes',
    );
    await waitFor(
      async () =>
        (await getObject(client, K1, 'ImageListPullJob', 'default', 'warm-list'))?.status?.completionTime,
      30_000,
      'the ImageListPullJob completes',
    );
    // daemon.md §4.5: a copy was made in kruise-daemon-config, and released (deleted) on completion
    await waitFor(
      async () => audit.touching('secrets').some((r) => r.startsWith('delete secrets')),
      20_000,
      'the copy is released',
    );
    expect(audit.touching('secrets')).toEqual(
      expect.arrayContaining([
        'create secrets (kruise-daemon-config)',
        'list secrets (cluster)',
        'watch secrets (cluster)',
      ]),
    );

    await cluster.stopOperator(op);
    expect(audit.denied.map(describeRequest)).toEqual([]);
    // without rbac-secrets.yaml, these requests, and only Secret requests, would be refused
    const refused = audit.requests.filter((r) => !allows(base, r));
    expect([...new Set(refused.map((r) => r.resource))]).toEqual(['secrets']);
    expect(refused.some((r) => r.verb === 'list' && r.namespace === undefined)).toBe(true);
    expect(refused.some((r) => r.verb === 'create' && r.namespace === 'kruise-daemon-config')).toBe(true);
  }, 120_000);

  it('D1.9 without `*/*` list: a Cascading Kruise CRD with live CRs is protected (M5); a Cascading CRD of another group cannot be listed, so its deletion is refused (M9)', async () => {
    const { client, audit } = await deployedOperator(base, 'enforce', {
      featureGates: { ResourcesDeletionProtection: true, DeletionProtectionForCRDCascadingGate: true },
    });
    await mustCreate(client, cloneSet('kept', 0));
    expect(
      (
        await mergePatch(client, `${CRDS}/clonesets.apps.kruise.io`, {
          metadata: { labels: { [PROTECTION]: 'Cascading' } },
        })
      ).status,
    ).toBe(200);
    const del = await client.request('DELETE', `${CRDS}/clonesets.apps.kruise.io`);
    expect(del.status, JSON.stringify(del.body)).toBe(403);
    expect(del.body.message).toBe(
      'admission webhook "vcustomresourcedefinition.kb.io" denied the request: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and active CRs 1>0',
    );

    // a third-party CRD: its CRs are not in the operator's rules
    await mustCreate(client, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com', labels: { [PROTECTION]: 'Cascading' } },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    } as KubeObject);
    const delW = await client.request('DELETE', `${CRDS}/widgets.example.com`);
    expect(delW.status, JSON.stringify(delW.body)).toBe(403);
    expect(delW.body.message).toContain(
      'denied the request: failed to list CRs of example.com/v1, Kind=WidgetList: ',
    );
    expect(delW.body.message).toContain('widgets.example.com is forbidden');
    expect(
      await getObject(
        client,
        'apiextensions.k8s.io/v1',
        'CustomResourceDefinition',
        undefined,
        'widgets.example.com',
      ),
    ).toBeDefined();
    expect(audit.denied.map(describeRequest)).toEqual(['list widgets.example.com (cluster)']);
  }, 60_000);
});
