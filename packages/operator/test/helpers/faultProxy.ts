// A fault-injecting HTTP proxy between the operator and `kruise-ts serve` (test-only): 409
// Conflicts on a deterministic share of writes, dropped watch streams, and an "API server
// restart" window during which every connection is refused/reset. The server's own forced 410
// (`expireWatchHistory`) is used alongside it. It listens on plain HTTP and forwards requests as
// they are, Authorization included, to the server (over HTTPS, trusting its certificate), so its
// clients need the server's token: it is recorded for the proxy's URL too.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { credentialsFor, rememberServer } from './serverAccess';

export interface FaultProxy {
  url: string;
  /** Every `n`-th PUT/PATCH (0 = none) is answered 409 Conflict without reaching the server. */
  conflictEvery: number;
  /** Pod creates the server accepted (201). */
  podCreates: number;
  /** Number of injected conflicts so far. */
  injected: number;
  /** Ends every open watch stream now. */
  dropWatches(): number;
  /** Refuses every request and kills every connection for `ms` (an API server restart). */
  restart(ms: number): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const t = new URL(target);
  const watches = new Set<http.ServerResponse>();
  const sockets = new Set<Socket>();
  let writes = 0;
  let downUntil = 0;
  const state = { conflictEvery: 0, injected: 0, podCreates: 0 };
  const server = http.createServer((req, res) => {
    if (Date.now() < downUntil) {
      req.socket.destroy();
      return;
    }
    const isWrite = req.method === 'PUT' || req.method === 'PATCH';
    const isLease = (req.url ?? '').includes('/leases');
    if (isWrite && !isLease && state.conflictEvery > 0 && ++writes % state.conflictEvery === 0) {
      state.injected += 1;
      req.resume();
      res.writeHead(409, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Conflict',
          code: 409,
          message:
            'injected conflict: the object has been modified; please apply your changes to the latest version and try again',
        }),
      );
      return;
    }
    const isWatch = /[?&]watch=(true|1)/.test(req.url ?? '');
    const upOpts = {
      hostname: t.hostname,
      port: t.port,
      path: req.url,
      method: req.method,
      headers: req.headers,
    };
    const { caCert } = credentialsFor(target);
    const up = (t.protocol === 'https:' ? https : http).request(
      t.protocol === 'https:' && caCert ? { ...upOpts, ca: caCert } : upOpts,
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        if (req.method === 'POST' && /\/pods(\?|$)/.test(req.url ?? '') && upRes.statusCode === 201)
          state.podCreates += 1;
        if (isWatch) {
          watches.add(res);
          res.on('close', () => {
            watches.delete(res);
            upRes.destroy();
          });
        }
        upRes.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  rememberServer(url, { token: credentialsFor(target).token });
  return {
    url,
    get conflictEvery() {
      return state.conflictEvery;
    },
    set conflictEvery(n: number) {
      state.conflictEvery = n;
    },
    get podCreates() {
      return state.podCreates;
    },
    get injected() {
      return state.injected;
    },
    set injected(n: number) {
      state.injected = n;
    },
    dropWatches: () => {
      const n = watches.size;
      for (const w of watches) w.destroy();
      return n;
    },
    restart: (ms: number) => {
      downUntil = Date.now() + ms;
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
