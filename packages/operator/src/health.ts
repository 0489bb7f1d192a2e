// Plain-HTTP servers for Prometheus metrics (`/metrics`) and health probes (`/healthz`,
// `/readyz`, `/readyz/webhook-ready`, W2.19), each on its own configurable port (§3.2).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** A running plain-HTTP server. */
export interface SmallServer {
  port: number;
  close(): Promise<void>;
}

function listen(server: http.Server, host: string, port: number): Promise<SmallServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      }),
    );
  });
}

/** `/metrics` from a prom-client registry. */
export function startMetricsServer(registry: Registry, host: string, port: number): Promise<SmallServer> {
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  return listen(server, host, port);
}

/** `/healthz` (alive) and `/readyz` (the readiness checks all pass). */
export function startHealthServer(
  checks: Record<string, () => Promise<string | undefined>>,
  host: string,
  port: number,
): Promise<SmallServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200).end('ok');
      return;
    }
    if (!path.startsWith('/readyz')) {
      res.writeHead(404).end();
      return;
    }
    const only = path.slice('/readyz/'.length);
    const names = Object.keys(checks).filter((n) => !only || n === only);
    Promise.all(names.map(async (n) => [n, await checks[n]().catch((e: Error) => e.message)] as const)).then(
      (rs) => {
        const failed = rs.filter(([, err]) => err !== undefined);
        if (failed.length === 0) res.writeHead(200).end('ok');
        else res.writeHead(500).end(failed.map(([n, e]) => `[-]${n} failed: ${e}`).join('\n'));
      },
    );
  });
  return listen(server, host, port);
}
