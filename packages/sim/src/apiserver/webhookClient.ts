// The HTTPS client of the webhooks the API server calls: admission webhooks (webhooks.ts) and
// CRD conversion webhooks (conversion.ts) both POST a JSON review to a `clientConfig` and trust
// only its `caBundle`.
import { request } from 'node:https';

/** A webhook's `clientConfig` (admission webhooks and CRD conversion webhooks). */
export interface ClientConfig {
  url?: string;
  caBundle?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
}

/**
 * POSTs a JSON review to a webhook over HTTPS, trusting only its `caBundle` (base64 PEM), and
 * resolves with the parsed JSON answer; rejects on transport errors, HTTP ≥ 300 and timeouts.
 * A `service` reference is reached at `https://127.0.0.1:<port, default 443><path>` with the
 * TLS server name `<name>.<namespace>.svc`. `query` is appended to the URL (e.g. `?timeout=30s`).
 */
export function postJson(cc: ClientConfig, body: string, timeoutMs: number, query = ''): Promise<unknown> {
  let url: URL;
  try {
    if (cc.url) url = new URL(cc.url + query);
    else if (cc.service)
      url = new URL(`https://127.0.0.1:${cc.service.port ?? 443}${cc.service.path ?? '/'}${query}`);
    else return Promise.reject(new Error('no clientConfig url or service'));
  } catch (e) {
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
        ca: cc.caBundle ? Buffer.from(cc.caBundle, 'base64') : undefined,
        servername: cc.service ? `${cc.service.name}.${cc.service.namespace}.svc` : undefined,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300) return reject(new Error(`HTTP ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`context deadline exceeded (timeout ${timeoutMs / 1000}s)`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}
