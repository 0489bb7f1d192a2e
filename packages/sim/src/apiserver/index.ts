// The simulator's Kubernetes API server (`kruise-ts serve`): the real
// kubectl and @kubernetes/client-node work against an embedded simulated
// cluster over HTTPS on 127.0.0.1 (plain HTTP with `insecureNoAuth`). This file owns startup: the
// simulation, registry, watch hub, webhooks (controllers: none), CRD version
// conversion (conversion.ts), the HTTP server (the request guard of guard.ts
// before any body is read, body limits, errors as Status, never crashing on
// client input), authentication (a bearer token over HTTPS with a self-signed
// certificate, certificate.ts: kubectl sends a token only over TLS), the
// kubeconfig that carries both, and the real-time clock.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { crdManifests, type KubeObject } from '@kruise-ts/api';
import { type NodeConfig, rfc3339 } from '@kruise-ts/cluster';
import type { FeatureGates } from '@kruise-ts/core';
import { stringify } from 'yaml';
import { ControllerRegistry } from '../controllers';
import { Simulation } from '../simulation';
import { selfSignedCertificate } from './certificate';
import { bootstrap, EventBridge, followCrds, RealTimeDriver } from './cluster';
import { ConversionRunner } from './conversion';
import { type GuardOptions, guardRequest, isLoopbackAddress } from './guard';
import { KubeEventRecorder } from './kubeEventRecorder';
import type { ApiContext, Reply } from './objects';
import { OpenApiHashes } from './openApiHashes';
import { ListSnapshots } from './pagination';
import { BASE_HEADERS } from './reads';
import { Registry } from './registry';
import { route } from './router';
import { SelectorIndex } from './selectorIndex';
import { badRequest, internalError, status } from './status';
import { WatchHub } from './watch';
import { HttpWebhookRunner } from './webhooks';

export {
  type ConversionOptions,
  ConversionRunner,
  IN_PROCESS_CONVERTERS,
  type InProcessConverter,
  rewriteApiVersion,
} from './conversion';
export { SERVER_VERSION } from './discovery';
export { isLoopbackAddress, isLoopbackHostHeader, PUBLIC_PATHS } from './guard';
export { evalJsonPath } from './jsonpath';
export { podRow } from './printers';
export { compareVersions, Registry, type ResourceInfo } from './registry';
export { toTable } from './tables';

/** Options of `startApiServer`. */
export interface ApiServerOptions {
  /** The simulation to serve (default: a new one starting now, wall-clock anchored). */
  simulation?: Simulation;
  /** TCP port; 0 = a random free port. Default 0. */
  port?: number;
  /**
   * Bind address. Default `127.0.0.1` (loopback only). While it is a loopback address
   * (`127.x.y.z`, `::1`, `localhost`), requests whose Host header names another host get 403.
   */
  host?: string;
  /**
   * Turns authentication off and serves plain HTTP. By default the server draws a random
   * bearer token (32 bytes, hex) and a self-signed certificate at start, serves HTTPS, writes
   * both into the kubeconfig (`users[].user.token`, `certificate-authority-data`) and exposes
   * them as `ApiServer.token` and `ApiServer.caCert`; every request but `/healthz`, `/livez`,
   * `/readyz` and `/version` must carry `Authorization: Bearer <token>` or gets 401.
   * `kruise-ts serve --insecure-no-auth`.
   */
  insecureNoAuth?: boolean;
  /**
   * `all` (default): every registered controller and its built-in admission.
   * `none`: no controllers and no built-in admission; the server calls the
   * webhooks of MutatingWebhookConfiguration / ValidatingWebhookConfiguration
   * objects instead (an external operator reconciles), and converts objects of CRDs whose
   * conversion strategy is `Webhook` by calling the CRD's conversion webhook (with `all`, the
   * registered in-process converters are used). Ignored when `simulation` is given.
   */
  controllers?: 'all' | 'none';
  /**
   * Feature gates of the default simulation (its controllers and built-in admission, e.g.
   * `{ResourcesDeletionProtection: true}` for kruise's deletion protection, docs/reference/operator.md §1).
   * Ignored with `controllers: 'none'` (the operator has its own) and when `simulation` is given
   * (its gates apply: scenario `cluster.featureGates`).
   */
  featureGates?: Partial<FeatureGates>;
  /** Simulated seconds per wall-clock second (default 1; 0 = the clock only moves through `advance`). */
  speed?: number;
  /** Where to write the kubeconfig (default: `<tmpdir>/kruise-ts-<port>.kubeconfig`). */
  kubeconfigPath?: string;
  /** Seed of the default simulation. */
  seed?: number;
  /** Largest accepted request body in bytes (default 16 MiB). */
  maxBodyBytes?: number;
  /** Watch history size in events (default 50,000). */
  watchHistory?: number;
  /**
   * Nodes of the default simulation (default: the simulation's 3 nodes of 110 pods each, so at
   * most 330 pods can be scheduled; more stay Pending `Unschedulable: Too many pods`). Ignored
   * when `simulation` is given. Example: 10 nodes of 110 pods hold a 1,000-pod CloneSet.
   */
  nodes?: NodeConfig[];
}

/** A running API server. */
export interface ApiServer {
  /**
   * `https://127.0.0.1:PORT` (`http://` with `insecureNoAuth`); the bind address, or loopback when
   * bound to every address (`0.0.0.0`, `::`).
   */
  url: string;
  port: number;
  kubeconfigPath: string;
  /**
   * The bearer token requests must carry (`Authorization: Bearer <token>`), also written into
   * the kubeconfig; undefined with `insecureNoAuth`.
   */
  token?: string;
  /**
   * The server's self-signed certificate (PEM), which clients trust as their CA (the
   * kubeconfig's `certificate-authority-data`); undefined with `insecureNoAuth` (plain HTTP).
   */
  caCert?: string;
  simulation: Simulation;
  /** Lets `ms` of simulated time pass now (tests; the clock also runs at `speed`). */
  advance(ms: number): void;
  /** Forgets the watch history and ends every watch stream (clients get 410 on resume and relist). */
  expireWatchHistory(): void;
  /** Stops the server, the clock and every watch. */
  close(): Promise<void>;
}

/** What a kubeconfig tells clients besides the URL. */
export interface KubeconfigAuth {
  /** The bearer token (`users[].user.token`); none = `user: {}`. */
  token?: string;
  /**
   * The PEM certificate to trust (`certificate-authority-data`); none =
   * `insecure-skip-tls-verify: true`, which client-node needs to accept an `http://` server.
   */
  caCert?: string;
}

/**
 * The kubeconfig text for a server URL, e.g. `kubeconfigFor('https://127.0.0.1:6443', { token,
 * caCert })`, or `kubeconfigFor('http://127.0.0.1:6443')` for a server with `insecureNoAuth`.
 */
export function kubeconfigFor(url: string, auth: KubeconfigAuth = {}): string {
  const cluster =
    auth.caCert === undefined
      ? { server: url, 'insecure-skip-tls-verify': true }
      : { server: url, 'certificate-authority-data': Buffer.from(auth.caCert).toString('base64') };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kruise-ts', cluster }],
    users: [{ name: 'kruise-ts', user: auth.token === undefined ? {} : { token: auth.token } }],
    contexts: [
      { name: 'kruise-ts', context: { cluster: 'kruise-ts', user: 'kruise-ts', namespace: 'default' } },
    ],
    'current-context': 'kruise-ts',
    preferences: {},
  });
}

/** A `Warning` header value as kube-apiserver writes one: `299 - "<quoted text>"`, ASCII only. */
function warningHeader(text: string): string {
  const quoted = JSON.stringify(text).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `299 - ${quoted}`;
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const ct = reply.contentType ?? 'application/json';
  const text =
    typeof reply.body === 'string' && ct.startsWith('text/') ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.code, {
    ...BASE_HEADERS,
    'Content-Type': ct,
    'Content-Length': Buffer.byteLength(text),
    ...(reply.warnings?.length ? { Warning: reply.warnings.map(warningHeader) } : {}),
  });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts the API server. Example:
 * `const s = await startApiServer({ port: 0 }); // s.url = http://127.0.0.1:41234`,
 * then `KUBECONFIG=${s.kubeconfigPath} kubectl get clone`.
 */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const controllers = options.controllers ?? 'all';
  const sim =
    options.simulation ??
    new Simulation({
      seed: options.seed ?? 1,
      startTime: rfc3339(Date.now()),
      registry: controllers === 'none' ? new ControllerRegistry() : undefined,
      nodes: options.nodes,
      // with `none` kruise is the external operator: its gates are its own (`--feature-gates`)
      featureGates: controllers === 'none' ? undefined : options.featureGates,
    });
  const crds: KubeObject[] = crdManifests();
  const registry = new Registry(crds);
  bootstrap(sim, crds);
  const unfollow = followCrds(sim, registry);
  for (const crd of sim.store.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition'))
    registry.addCrd(crd);
  const hub = new WatchHub(sim.store, options.watchHistory ?? 50_000);
  const bridge = new EventBridge(sim, registry);
  // the scheduler's, kubelets' and node controller's events as core/v1 Events (kubeEventRecorder.ts)
  const recorder = new KubeEventRecorder(sim);
  const events = {
    flush: () => {
      bridge.flush();
      recorder.flush();
    },
    close: () => {
      bridge.close();
      recorder.close();
    },
  };
  const ctx: ApiContext = {
    sim,
    registry,
    hub,
    nowMs: () => sim.clock.startEpochMs + sim.clock.elapsedMs,
    selectors: new SelectorIndex(sim.store),
    snapshots: new ListSnapshots(sim.store, hub),
  };
  const external = controllers === 'none' && !options.simulation;
  // Multi-version CRDs: stored in their storage version, served in the requested one. With its
  // own controllers the server also plays kruise's conversion webhook (in-process converters).
  ctx.conversion = new ConversionRunner(sim, { inProcess: !external });
  if (external) ctx.webhooks = new HttpWebhookRunner(sim, registry, ctx);
  const driver = new RealTimeDriver(sim, options.speed ?? 1, () => events.flush());
  driver.tick();
  const closing = new Set<() => void>();
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const host = options.host ?? '127.0.0.1';
  const token = options.insecureNoAuth ? undefined : randomBytes(32).toString('hex');
  const tls = token === undefined ? undefined : selfSignedCertificate(new Date(), [host]);
  const guard: GuardOptions = {
    token,
    loopbackOnly: isLoopbackAddress(host),
    scheme: tls ? 'https' : 'http',
  };
  let address = '';
  const env = { ctx, serverAddress: () => address, closing, openApiHashes: new OpenApiHashes() };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        let url: URL;
        try {
          url = new URL(req.url ?? '/', 'http://localhost');
        } catch {
          send(res, { code: 400, body: badRequest('malformed request URL') });
          return;
        }
        // Before the body is read: a request that may not be served costs no buffering.
        const denied = guardRequest(guard, req.headers, url.pathname);
        if (denied) {
          send(res, { code: denied.code, body: denied });
          return;
        }
        const body = await readBody(req, maxBody);
        if (body === 'too-large') {
          send(res, {
            code: 413,
            body: status(413, 'RequestEntityTooLarge', 'the request body is too large'),
          });
          return;
        }
        driver.tick();
        const r = await route(env, req, res, url, body);
        events.flush();
        if (r !== 'stream') send(res, r);
      } catch (e) {
        try {
          send(res, { code: 500, body: internalError(e instanceof Error ? e.message : String(e)) });
        } catch {
          res.destroy();
        }
      }
    })();
  };
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handle) : createServer(handle);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // Bound to every address, clients reach it on loopback, a name its certificate holds.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  address = `${urlHost}:${port}`;
  const url = `${tls ? 'https' : 'http'}://${address}`;
  const kubeconfigPath = options.kubeconfigPath ?? join(tmpdir(), `kruise-ts-${port}.kubeconfig`);
  mkdirSync(dirname(kubeconfigPath), { recursive: true });
  // The file holds the token: readable by its owner only (chmod too, for a file that existed).
  writeFileSync(kubeconfigPath, kubeconfigFor(url, { token: guard.token, caCert: tls?.cert }), {
    mode: 0o600,
  });
  chmodSync(kubeconfigPath, 0o600);

  return {
    url,
    port,
    kubeconfigPath,
    ...(guard.token === undefined ? {} : { token: guard.token }),
    ...(tls === undefined ? {} : { caCert: tls.cert }),
    simulation: sim,
    advance: (ms) => {
      driver.advance(ms);
      events.flush();
    },
    expireWatchHistory: () => hub.expire(),
    close: async () => {
      driver.stop();
      for (const end of [...closing]) end();
      hub.close();
      ctx.selectors?.close();
      events.close();
      unfollow();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
