// Creating objects from manifests on the real control plane as `kubectl apply --server-side`
// does (client-node's object API finds each kind's resource through discovery), and one JSON
// request with explicit credentials for the suite's setup, before any test remembers the server.
import https from 'node:https';
import {
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  loadAllYaml,
  PatchStrategy,
} from '@kubernetes/client-node';

/** The server's URL, admin token and CA. */
export interface ClusterAccess {
  url: string;
  token: string;
  caCert: string;
}

/** A client-node KubeConfig for `access` (admin). */
export function kubeConfigOf(access: ClusterAccess): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'real', server: access.url, caData: Buffer.from(access.caCert).toString('base64') }],
    users: [{ name: 'admin', token: access.token }],
    contexts: [{ name: 'real', cluster: 'real', user: 'admin' }],
    currentContext: 'real',
  });
  return kc;
}

/** Server-side applies every object of the YAML texts (field manager `kruise-ts-test`). */
export async function applyManifests(access: ClusterAccess, texts: readonly string[]): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(kubeConfigOf(access));
  for (const text of texts)
    for (const obj of loadAllYaml(text) as KubernetesObject[]) {
      if (!obj?.kind) continue;
      await client.patch(obj, undefined, undefined, 'kruise-ts-test', true, PatchStrategy.ServerSideApply);
    }
}

/** One JSON request with `access`'s token and CA. */
export function requestJson(
  access: ClusterAccess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(`${access.url}${path}`, {
      method,
      ca: access.caCert,
      headers: {
        Authorization: `Bearer ${access.token}`,
        ...(text === undefined
          ? {}
          : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = raw;
        try {
          parsed = raw ? JSON.parse(raw) : undefined;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.end(text);
  });
}
