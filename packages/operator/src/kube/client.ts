// The operator's transport to the Kubernetes API: a small interface (`KubeClient`: one request,
// one watch stream) so every other module is testable with an in-memory fake and auditable
// (test/helpers/rbac.ts), and its real implementation on @kubernetes/client-node: KubeConfig for
// the credentials and TLS settings (kubeconfig file, or in-cluster service-account config in a
// pod) and client-node's Watch for watch streams. Requests go out on node:http(s) with
// keep-alive and the KubeConfig's HTTPS options rather than on client-node's own HTTP library
// (undici fetch): the executor's writes are the operator's hot path, and client-node's library
// sent them 2-3 times slower (400 creates, 16 at a time, against `kruise-ts serve`).
import http from 'node:http';
import https from 'node:https';
import { KubeConfig, Watch } from '@kubernetes/client-node';

/** One API response: the HTTP status and the decoded JSON body (or undefined). */
export interface KubeResponse {
  status: number;
  body: any;
}

/** One watch event as the API server streams it. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: any;
}

/** Request options. */
export interface RequestOptions {
  body?: unknown;
  /** Content type of the body; default `application/json`. */
  contentType?: string;
  query?: Record<string, string | number | boolean | undefined>;
}

/** A running watch. */
export interface WatchHandle {
  stop(): void;
}

/** The transport every operator module uses. */
export interface KubeClient {
  request(method: string, path: string, opts?: RequestOptions): Promise<KubeResponse>;
  /**
   * Opens a watch on a collection path. `onEvent` gets each event; `onDone` is called once when
   * the stream ends (err undefined: closed by the server; else the failure, with `statusCode`
   * when the server answered with a non-200 status).
   */
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (ev: WatchEvent) => void,
    onDone: (err?: Error & { statusCode?: number }) => void,
  ): WatchHandle;
}

/** A failed API call: status code, Kubernetes `reason` and message. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Throws an ApiError unless the status is 2xx; returns the body. */
export function ensureOk(res: KubeResponse, what: string): unknown {
  if (res.status >= 200 && res.status < 300) return res.body;
  const reason = typeof res.body?.reason === 'string' ? res.body.reason : String(res.status);
  const msg = typeof res.body?.message === 'string' ? res.body.message : JSON.stringify(res.body);
  throw new ApiError(res.status, reason, `${what}: ${res.status} ${msg}`);
}

function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

/** Loads a KubeConfig: the file when given, else in-cluster config in a pod, else the default chain. */
export function loadKubeConfig(kubeconfig?: string): KubeConfig {
  const kc = new KubeConfig();
  if (kubeconfig) kc.loadFromFile(kubeconfig);
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else kc.loadFromDefault();
  return kc;
}

/** Observes every request (for metrics: API writes per pod in the benchmark). */
export type RequestObserver = (method: string, path: string, status: number) => void;

/** The real transport: KubeConfig's credentials and TLS settings, client-node's Watch. */
export class HttpKubeClient implements KubeClient {
  private agent: http.Agent | undefined;
  private headers: Record<string, string> = {};
  private ready: Promise<void>;
  private readonly server: URL;
  private readonly watcher: Watch;

  constructor(
    readonly kc: KubeConfig,
    private readonly observer?: RequestObserver,
    private readonly userAgent = 'kruise-ts-operator',
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.server = new URL(cluster.server);
    this.watcher = new Watch(kc);
    this.ready = this.init();
  }

  private async init(): Promise<void> {
    const opts: https.RequestOptions = { headers: {} };
    await this.kc.applyToHTTPSOptions(opts);
    const h = (opts.headers ?? {}) as Record<string, string>;
    this.headers = { ...h, 'User-Agent': this.userAgent };
    if (opts.auth) this.headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    this.agent =
      this.server.protocol === 'http:'
        ? new http.Agent({ keepAlive: true, maxSockets: 64 })
        : new https.Agent({
            keepAlive: true,
            maxSockets: 64,
            ca: opts.ca,
            cert: opts.cert,
            key: opts.key,
            servername: opts.servername,
            ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
          });
  }

  private send(method: string, path: string, body: string | undefined, contentType: string) {
    const mod = this.server.protocol === 'http:' ? http : https;
    const base = this.server.pathname.replace(/\/$/, '');
    return mod.request({
      protocol: this.server.protocol,
      hostname: this.server.hostname,
      port: this.server.port,
      path: `${base}${path}`,
      method,
      agent: this.agent,
      headers: {
        ...this.headers,
        Accept: 'application/json',
        ...(body !== undefined
          ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) }
          : {}),
      },
    });
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<KubeResponse> {
    await this.ready;
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const full = withQuery(path, opts.query);
    return new Promise<KubeResponse>((resolve, reject) => {
      const req = this.send(method, full, body, opts.contentType ?? 'application/json');
      req.setTimeout(60_000, () => req.destroy(new Error(`timeout: ${method} ${full}`)));
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = { message: text };
          }
          const status = res.statusCode ?? 0;
          this.observer?.(method, path, status);
          resolve({ status, body: parsed });
        });
      });
      req.end(body);
    });
  }

  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (ev: WatchEvent) => void,
    onDone: (err?: Error & { statusCode?: number }) => void,
  ): WatchHandle {
    let stopped = false;
    let abort: AbortController | undefined;
    this.watcher
      .watch(
        path,
        query,
        (type, object) => {
          if (!stopped) onEvent({ type: type as WatchEvent['type'], object });
        },
        (err: (Error & { statusCode?: number }) | null) => {
          if (!stopped) onDone(err ?? undefined);
          stopped = true;
        },
      )
      .then(
        (a) => {
          abort = a;
          if (stopped) a.abort();
        },
        (err: Error) => {
          if (!stopped) onDone(err);
          stopped = true;
        },
      );
    return {
      stop: () => {
        stopped = true;
        abort?.abort();
      },
    };
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent?.destroy();
  }
}
