// Shared helpers of the API server tests: an in-process server on a random
// loopback port (speed 0: the clock moves only through `advance`), JSON
// requests with fetch, and a line reader for watch streams.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiServer, type ApiServerOptions, startApiServer } from '../../src/apiserver/index';

/** Starts a server with a fresh kubeconfig in a fresh temp dir. */
export async function startTestServer(opts: ApiServerOptions = {}): Promise<ApiServer & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-api-'));
  const s = await startApiServer({ port: 0, speed: 0, kubeconfigPath: join(dir, 'kubeconfig'), ...opts });
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
  const init: RequestInit = { method, headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
  }
  const r = await fetch(base + path, init);
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
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
  private readonly ctrl = new AbortController();
  private waiters: (() => void)[] = [];
  readonly ready: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ready = (async () => {
      const r = await fetch(url, { signal: this.ctrl.signal, headers });
      this.status = r.status;
      this.contentType = r.headers.get('content-type') ?? '';
      void this.pump(r);
    })();
  }

  private async pump(r: Response): Promise<void> {
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
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
    this.ctrl.abort();
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
