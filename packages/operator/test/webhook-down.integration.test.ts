// The operator's admission webhooks while no webhook server answers, against `kruise-ts serve
// --controllers none` (whose API server calls the webhooks of the stored configurations, as
// kube-apiserver does). kube-apiserver's dispatcher answers a webhook it cannot reach according to
// the entry's failurePolicy: `Fail` refuses the write with 500 InternalError, message
// `Internal error occurred: failed calling webhook "<name>": <why>` (for a refused connection
// kube-apiserver's <why> reads `failed to call webhook: Post "https://<host>:<port><path>?timeout=30s":
// dial tcp <host>:<port>: connect: connection refused`); `Ignore` lets the write through
// unadmitted. The README's "The pod webhook's failure policy" describes what this means for pods.
import type { KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import type { OperatorOptions } from '../src/index';
import { useCluster, waitFor } from './helpers/cluster';
import { applyDeploy, clientFor, closedPort, create, getObject, mustCreate } from './helpers/serverClient';

const cluster = useCluster();

const pod = (
  name: string,
  namespace = 'default',
  labels: Record<string, string> = { app: name },
): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
  }) as KubeObject;

const cloneSet = (name: string): KubeObject =>
  ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
    },
  }) as KubeObject;

/** Operator options changing only some webhook settings (startOperator fills in the rest). */
const webhookOptions = (w: Partial<OperatorOptions['webhook']>): Partial<OperatorOptions> => ({
  webhook: w as OperatorOptions['webhook'],
});

/**
 * Expects the Status kube-apiserver answers when a `Fail` webhook cannot be called. With `port`,
 * also the address the server tried: kube-apiserver names it in its dial error, Node in
 * `connect ECONNREFUSED 127.0.0.1:<port>`. Without it, only the prefix: after a webhook server that
 * was called goes away, the simulator's first call reuses the idle keep-alive socket and reports
 * `socket hang up`, where kube-apiserver's Go transport retries on a new connection and reports
 * the dial error.
 */
function expectWebhookCallFailure(res: { status: number; body: any }, webhook: string, port?: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(500);
  expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
  expect(res.body.message.startsWith(`Internal error occurred: failed calling webhook "${webhook}": `)).toBe(
    true,
  );
  if (port !== undefined) expect(res.body.message).toContain(`127.0.0.1:${port}`);
}

describe("the operator's webhooks with the webhook server down (kruise-ts serve --controllers none)", () => {
  it('deploy/webhooks.yaml at a closed port: Fail entries refuse the writes they cover (500 InternalError "failed calling webhook"), Ignore entries let them through', async () => {
    const server = await cluster.start();
    const client = clientFor(server.kubeconfigPath);
    cluster.closeAfter({ close: async () => client.close() });
    const port = await closedPort();
    // the shipped configurations, every entry pointed at the port nothing listens on
    await applyDeploy(client, ['namespace.yaml']);
    await applyDeploy(client, ['webhooks.yaml'], (cfg) => ({
      ...cfg,
      webhooks: (cfg as any).webhooks.map((w: any) => ({
        ...w,
        clientConfig: { url: `https://127.0.0.1:${port}${w.clientConfig.service.path}` },
      })),
    }));

    // mpod.kb.io (Fail): no pod in an ordinary namespace
    expectWebhookCallFailure(await create(client, pod('refused')), 'mpod.kb.io', port);
    expect(await getObject(client, 'v1', 'Pod', 'default', 'refused')).toBeUndefined();
    // mcloneset.kb.io (Fail): no CloneSet either, so nothing unvalidated is stored
    expectWebhookCallFailure(await create(client, cloneSet('refused')), 'mcloneset.kb.io', port);
    expect(
      await getObject(client, 'apps.kruise.io/v1alpha1', 'CloneSet', 'default', 'refused'),
    ).toBeUndefined();

    // §2.5: the kruise namespace (control-plane: openkruise) is outside the pod webhook, so the
    // operator's own pods can start while no replica serves it
    await mustCreate(client, pod('manager', 'kruise-system'));

    // deletion protection (Ignore, D1.14) fails open: a namespace labelled Always is deleted
    await mustCreate(client, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'guarded', labels: { 'policy.kruise.io/delete-protection': 'Always' } },
    } as KubeObject);
    const del = await client.request('DELETE', '/api/v1/namespaces/guarded');
    expect(del.status, JSON.stringify(del.body)).toBeLessThan(300);
    // and a labelled Deployment (vbuiltindeployment.kb.io covers only its DELETE)
    await mustCreate(client, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'guarded',
        namespace: 'default',
        labels: { 'policy.kruise.io/delete-protection': 'Always' },
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'guarded' } },
        template: {
          metadata: { labels: { app: 'guarded' } },
          spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
        },
      },
    } as KubeObject);
    const delDeploy = await client.request('DELETE', '/apis/apps/v1/namespaces/default/deployments/guarded');
    expect(delDeploy.status, JSON.stringify(delDeploy.body)).toBeLessThan(300);
  });

  it('the configurations the operator installed, after the operator stopped: pod creation is refused (mpod.kb.io Fail) until a replica serves again', async () => {
    const server = await cluster.start();
    const client = clientFor(server.kubeconfigPath);
    cluster.closeAfter({ close: async () => client.close() });
    const op = await cluster.operator('replica-a');
    const port = op.ports.webhook as number;
    // served: the pod is admitted
    await mustCreate(client, pod('while-up'));
    await cluster.stopOperator(op);

    expectWebhookCallFailure(await create(client, pod('while-down')), 'mpod.kb.io');
    expect(await getObject(client, 'v1', 'Pod', 'default', 'while-down')).toBeUndefined();
    expectWebhookCallFailure(await create(client, cloneSet('while-down')), 'mcloneset.kb.io');

    // a replica that serves again (same port) lifts the refusal: the configuration is unchanged
    await cluster.operator('replica-b', webhookOptions({ port }));
    await mustCreate(client, pod('back-up'));
  });

  it('--pod-webhook-failure-policy=Ignore: while the operator is down pods are created, without SidecarSet injection; CloneSet admission still fails closed', async () => {
    const server = await cluster.start();
    const client = clientFor(server.kubeconfigPath);
    cluster.closeAfter({ close: async () => client.close() });
    const op = await cluster.operator('replica-a', webhookOptions({ podFailurePolicy: 'Ignore' }));
    await mustCreate(client, {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'logger' },
      spec: {
        selector: { matchLabels: { app: 'logged' } },
        containers: [{ name: 'log-agent', image: 'busybox:1.36' }],
      },
    } as KubeObject);
    await waitFor(
      async () => op.cache.list({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' }).length === 1,
      5000,
      'the SidecarSet in the cache',
    );
    const names = (p: KubeObject) => ((p as any).spec.containers as { name: string }[]).map((x) => x.name);
    // served: injected
    expect(names(await mustCreate(client, pod('logged-up', 'default', { app: 'logged' })))).toContain(
      'log-agent',
    );
    await cluster.stopOperator(op);

    // Ignore: created as sent, the sidecar is lost for this pod
    expect(names(await mustCreate(client, pod('logged-down', 'default', { app: 'logged' })))).toEqual([
      'main',
    ]);
    // the Kruise kinds' entries keep Fail
    expectWebhookCallFailure(await create(client, cloneSet('while-down')), 'mcloneset.kb.io');
  });
});
