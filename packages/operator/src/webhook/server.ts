// The HTTPS webhook server (W2.5): serves the admission paths, the CRD conversion webhook
// `/convert` (W2.2, always), `/healthz` (200, empty body) and swaps its certificate in place when
// the sync loop renews it. Runs on every replica.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { CONVERT_PATH, convertReview } from './conversion';
import { type HandlerContext, review } from './handlers';

/** A running webhook server. */
export interface WebhookServer {
  port: number;
  /** Replaces the serving certificate (renewal). */
  setCertificate(cert: string, key: string): void;
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

/**
 * Starts the HTTPS server on `host:port` (port 0 picks a free one). `onRequest` is told about every
 * answered review: the path and whether it was allowed (for `/convert`: whether the conversion
 * succeeded).
 */
export function startWebhookServer(
  o: { host: string; port: number; cert: string; key: string; active: ReadonlySet<string> },
  ctx: HandlerContext,
  onRequest?: (path: string, allowed: boolean) => void,
): Promise<WebhookServer> {
  const server = https.createServer({ cert: o.cert, key: o.key }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200).end();
      return;
    }
    const convert = path === CONVERT_PATH;
    if (req.method !== 'POST' || !(convert || o.active.has(path))) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('invalid JSON');
        return;
      }
      if (convert) {
        const out = convertReview(body);
        if (out.code === 200) {
          const result = (out.body as { response?: { result?: { status?: string } } }).response?.result;
          onRequest?.(path, result?.status === 'Success');
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out.body));
        } else res.writeHead(out.code, { 'Content-Type': 'text/plain' }).end(String(out.body));
        return;
      }
      review(path, body, ctx).then(
        (out) => {
          onRequest?.(path, (out as { response?: { allowed?: boolean } }).response?.allowed === true);
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out));
        },
        (err: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(err.message),
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        setCertificate: (cert, key) => server.setSecureContext({ cert, key }),
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      });
    });
  });
}
