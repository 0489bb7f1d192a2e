// End to end against `kruise-ts serve --controllers none`: the deploy copy of the StatefulSet CRD
// (conversion strategy Webhook) is installed; the operator patches it to its own `/convert` with
// its caBundle (W2.14); a v1alpha1 Advanced StatefulSet created with @kubernetes/client-node is
// converted by the operator's webhook, stored at v1beta1, read back at both versions, and
// reconciled by the operator (pods created and ready); the operator's metrics count the
// conversion reviews the API server sent (docs/reference/operator.md W2.2, docs/reference/statefulset.md §2.3).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CustomObjectsApi, KubeConfig, loadYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RunningOperator } from '../src/index';
import { api, isReady, podsOf, useCluster, waitFor } from './helpers/cluster';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/statefulsets.apps.kruise.io';
const A1 = '/apis/apps.kruise.io/v1alpha1/namespaces/default/statefulsets';
const B1 = '/apis/apps.kruise.io/v1beta1/namespaces/default/statefulsets';
const DEPLOY_CRD = fileURLToPath(new URL('../deploy/crds/statefulsets.apps.kruise.io.yaml', import.meta.url));

const cluster = useCluster();

/** Installs deploy/crds/statefulsets.apps.kruise.io.yaml over the server's CRD (as `kubectl apply -k deploy`). */
async function installDeployCrd(base: string): Promise<void> {
  const crd = loadYaml<any>(readFileSync(DEPLOY_CRD, 'utf8'));
  const cur = await api(base, 'GET', CRD_PATH);
  const r = await api(base, 'PUT', CRD_PATH, {
    ...crd,
    metadata: { ...crd.metadata, resourceVersion: cur.body.metadata.resourceVersion },
  });
  expect(r.status).toBe(200);
}

/** `kruise_webhook_requests_total{path="/convert", allowed}`. */
async function convertCount(op: RunningOperator, ok: boolean): Promise<number> {
  const m = await op.metrics.webhookRequests.get();
  return m.values.find((v) => v.labels.path === '/convert' && v.labels.allowed === String(ok))?.value ?? 0;
}

function alphaSet(name: string): Record<string, unknown> {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas: 2,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    },
  };
}

describe('conversion webhook end to end (serve --controllers none + operator)', () => {
  it('a v1alpha1 StatefulSet is converted by the operator, stored at v1beta1, readable at both versions and reconciled', async () => {
    const server = await cluster.start();
    const base = server.url;
    await installDeployCrd(base);

    // Before any operator runs, the CRD's webhook (kruise-webhook-service, no caBundle) is unreachable:
    // a v1alpha1 write fails with 500 as kube-apiserver answers; v1beta1 needs no conversion.
    const early = await api(base, 'POST', A1, alphaSet('early'));
    expect(early.status).toBe(500);
    expect(early.body.message).toMatch(
      /^Internal error occurred: conversion webhook for apps\.kruise\.io\/v1alpha1, Kind=StatefulSet failed: /,
    );

    const op = await cluster.operator();

    // W2.14: the CRD now points at this operator's /convert (WEBHOOK_HOST = 127.0.0.1) with its CA.
    const crd = (await api(base, 'GET', CRD_PATH)).body;
    expect(crd.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          url: `https://127.0.0.1:${op.ports.webhook}/convert`,
          caBundle: Buffer.from(op.caBundle ?? '').toString('base64'),
        },
        conversionReviewVersions: ['v1', 'v1beta1'],
      },
    });

    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const gv = { group: 'apps.kruise.io', namespace: 'default', plural: 'statefulsets' };
    const created = await custom.createNamespacedCustomObject({
      ...gv,
      version: 'v1alpha1',
      body: alphaSet('web'),
    });
    expect(created.apiVersion).toBe('apps.kruise.io/v1alpha1');

    // stored at the storage version v1beta1
    const storedObj = server.simulation.store.get('apps.kruise.io/v1beta1', 'StatefulSet', 'default', 'web');
    expect(storedObj?.apiVersion).toBe('apps.kruise.io/v1beta1');

    // the operator (reading v1beta1) creates and readies the pods
    await waitFor(
      async () => {
        const pods = await podsOf(base, 'web');
        return pods.length === 2 && pods.every(isReady);
      },
      30_000,
      '2 ready pods',
    );
    await waitFor(
      async () => (await api(base, 'GET', `${B1}/web`)).body?.status?.updatedReadyReplicas === 2,
      30_000,
      'status written by the operator',
    );

    const beta = await custom.getNamespacedCustomObject({ ...gv, version: 'v1beta1', name: 'web' });
    const alpha = await custom.getNamespacedCustomObject({ ...gv, version: 'v1alpha1', name: 'web' });
    expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(alpha.spec.replicas).toBe(2);
    expect(alpha.status.readyReplicas).toBe(2);
    expect(beta.status.updatedReadyReplicas).toBe(2);
    expect('updatedReadyReplicas' in alpha.status).toBe(false); // v1beta1-only (§2.3)
    const list = await custom.listNamespacedCustomObject({ ...gv, version: 'v1alpha1' });
    expect(list.items.map((o: any) => `${o.apiVersion} ${o.metadata.name}`)).toEqual([
      'apps.kruise.io/v1alpha1 web',
    ]);

    // the API server called the operator's /convert: the create, the create's answer, the v1alpha1 get and list
    expect(await convertCount(op, true)).toBeGreaterThanOrEqual(4);
    expect(await convertCount(op, false)).toBe(0);
  });

  it('W2.15: installing the Webhook CRD after the operator started triggers the sync at once (no 60 s resync wait)', async () => {
    const server = await cluster.start();
    const base = server.url;
    const op = await cluster.operator();
    expect((await api(base, 'GET', CRD_PATH)).body.spec.conversion).toBeUndefined(); // api's CRD: None, untouched
    await installDeployCrd(base);
    await waitFor(
      async () =>
        (await api(base, 'GET', CRD_PATH)).body.spec.conversion?.webhook?.clientConfig?.url ===
        `https://127.0.0.1:${op.ports.webhook}/convert`,
      5_000,
      'the CRD patched by the operator',
    );
    expect((await api(base, 'POST', A1, alphaSet('late'))).status).toBe(201);
    expect(await convertCount(op, true)).toBeGreaterThanOrEqual(2);
  });
});
