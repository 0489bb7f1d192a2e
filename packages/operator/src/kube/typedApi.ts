// client-node's typed APIs (CoordinationV1Api, CoreV1Api, ...) over the operator's KubeClient:
// a client-node Configuration whose HTTP library hands each request to the KubeClient. The typed
// API builds the path, serializes the body and maps a non-2xx answer to an ApiException; the
// KubeClient sends it (client-node's fetch with the kubeconfig's credentials for a real server),
// so requests made through a typed API are observed, audited and faked like every other request.
import {
  createConfiguration,
  type HttpMethod,
  ResponseContext,
  ServerConfiguration,
  wrapHttpLibrary,
} from '@kubernetes/client-node';
import type { KubeClient } from './client';

/** A placeholder origin: the KubeClient knows the real server; only path and query travel. */
const ORIGIN = 'http://kube-client.invalid';

/**
 * A Configuration for `new SomeApi(configuration)` that sends through `client`.
 * Example: `new CoordinationV1Api(typedApiConfiguration(client)).readNamespacedLease({ name, namespace })`.
 */
export function typedApiConfiguration(client: KubeClient) {
  return createConfiguration({
    baseServer: new ServerConfiguration<Record<string, string>>(ORIGIN, {}),
    authMethods: {},
    httpApi: wrapHttpLibrary({
      async send(ctx) {
        const url = new URL(ctx.getUrl());
        const raw = ctx.getBody();
        const method: HttpMethod = ctx.getHttpMethod();
        const res = await client.request(method, url.pathname, {
          query: Object.fromEntries(url.searchParams),
          body: typeof raw === 'string' && raw !== '' ? JSON.parse(raw) : undefined,
          contentType: ctx.getHeaders()['Content-Type'],
        });
        const text = res.body === undefined ? '' : JSON.stringify(res.body);
        return new ResponseContext(
          res.status,
          { 'content-type': 'application/json' },
          {
            text: async () => text,
            binary: async () => Buffer.from(text),
            stream: () => null,
          },
        );
      },
    }),
  });
}
