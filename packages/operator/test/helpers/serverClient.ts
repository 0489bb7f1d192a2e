// Test-side access to the in-process `kruise-ts serve`: a KubeClient built from the server's
// kubeconfig (so whatever credentials the kubeconfig carries are sent, as kubectl would), the
// deploy/ manifests installed the way `kubectl apply -k` would, and a TCP port nothing listens on
// (a webhook server that is down).
import { createServer } from 'node:net';
import type { KubeObject } from '@kruise-ts/api';
import { expect } from 'vitest';
import { HttpKubeClient, loadKubeConfig } from '../../src/kube/client';
import { collectionPath, objectPath, resourceFor } from '../../src/kube/resources';
import { readDeploy } from './rbac';

/** A client of the server at `kubeconfigPath`; close it after the test. */
export function clientFor(kubeconfigPath: string): HttpKubeClient {
  return new HttpKubeClient(loadKubeConfig(kubeconfigPath), undefined, 'kruise-ts-operator-test');
}

/** Creates `obj` (POST to its collection) and returns the response. */
export function create(client: HttpKubeClient, obj: KubeObject) {
  const res = resourceFor(obj.apiVersion, obj.kind);
  return client.request('POST', collectionPath(res, obj.metadata.namespace), { body: obj });
}

/** Creates `obj` and expects 201. */
export async function mustCreate(client: HttpKubeClient, obj: KubeObject): Promise<KubeObject> {
  const r = await create(client, obj);
  expect(r.status, `create ${obj.kind} ${obj.metadata.name}: ${JSON.stringify(r.body)}`).toBe(201);
  return r.body as KubeObject;
}

/** GETs one object (undefined on 404). */
export async function getObject(
  client: HttpKubeClient,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
): Promise<any> {
  const r = await client.request('GET', objectPath(resourceFor(apiVersion, kind), namespace, name));
  return r.status === 200 ? r.body : undefined;
}

/** Lists objects of a kind (all namespaces when `namespace` is undefined). */
export async function listObjects(
  client: HttpKubeClient,
  apiVersion: string,
  kind: string,
  namespace?: string,
): Promise<any[]> {
  const r = await client.request('GET', collectionPath(resourceFor(apiVersion, kind), namespace));
  return r.body?.items ?? [];
}

/**
 * The objects of deploy files (e.g. `namespace.yaml`, `webhooks.yaml`) created as `kubectl apply`
 * would create them on an empty cluster; an object that already exists (409) is left as it is.
 */
export async function applyDeploy(
  client: HttpKubeClient,
  files: readonly string[],
  edit: (obj: KubeObject) => KubeObject = (o) => o,
): Promise<void> {
  for (const { objects } of readDeploy(files))
    for (const obj of objects) {
      const r = await create(client, edit(obj));
      expect([201, 409], `apply ${obj.kind} ${obj.metadata.name}: ${JSON.stringify(r.body)}`).toContain(
        r.status,
      );
    }
}

/** A loopback port nothing listens on: bound once by the OS, then closed. */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
