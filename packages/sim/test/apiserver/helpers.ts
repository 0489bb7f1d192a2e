// Shared helpers of the API server tests: an in-process server on a random
// loopback port (speed 0: the clock moves only through `advance`), JSON
// requests, and a line reader for watch streams. Servers run as `kruise-ts
// serve` does by default (HTTPS, bearer token): `call` and `WatchReader` go
// through transport.ts, which trusts the server's certificate and sends its
// token unless the caller passes its own `Authorization` header ('' = none).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiServer, type ApiServerOptions, startApiServer } from '../../src/apiserver/index';
import { open, remember, request } from './transport';

/** Starts a server with a fresh kubeconfig in a fresh temp dir. */
export async function startTestServer(opts: ApiServerOptions = {}): Promise<ApiServer & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-api-'));
  const s = await startApiServer({ port: 0, speed: 0, kubeconfigPath: join(dir, 'kubeconfig'), ...opts });
  remember(s.url, { token: s.token, caCert: s.caCert });
  return Object.assign(s, { dir });
}

/** A JSON request; returns the status, headers and parsed body. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const h: Record<string, string> = { Accept: 'application/json', ...headers };
  let text: string | undefined;
  if (body !== undefined) {
    text = typeof body === 'string' ? body : JSON.stringify(body);
    if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type'))
      h['Content-Type'] = 'application/json';
  }
  const r = await request(base + path, { method, headers: h, body: text });
  let parsed: unknown = r.text;
  try {
    parsed = JSON.parse(r.text);
  } catch {
    // not JSON
  }
  return { status: r.status, headers: r.headers, body: parsed };
}

/** Reads watch events (one JSON object per line) until `n` arrived or the stream ends. */
export class WatchReader {
  readonly events: any[] = [];
  ended = false;
  status = 0;
  contentType = '';
  private readonly abort: () => void;
  private waiters: (() => void)[] = [];
  readonly ready: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    const req = open(url, { headers });
    this.abort = req.abort;
    this.ready = (async () => {
      const r = await req.response;
      this.status = r.statusCode ?? 0;
      this.contentType = String(r.headers['content-type'] ?? '');
      void this.pump(r);
    })();
  }

  private async pump(r: AsyncIterable<unknown>): Promise<void> {
    const dec = new TextDecoder();
    let buf = '';
    try {
      for await (const value of r) {
        buf += dec.decode(value as Buffer, { stream: true });
        let i = buf.indexOf('\n');
        while (i >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) this.events.push(JSON.parse(line));
          i = buf.indexOf('\n');
        }
        this.wake();
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Waits until `pred` holds on the events (or the stream ended, or `ms` passed). */
  async until(pred: (events: any[]) => boolean, ms = 5000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!pred(this.events)) {
      if (this.ended || Date.now() > deadline) return pred(this.events);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return true;
  }

  close(): void {
    this.abort();
  }
}

/** The example CloneSet of OpenKruise's docs. */
export function sampleCloneSet(name = 'sample', replicas = 5): any {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { labels: { app: name }, name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
    },
  };
}
