// How the API server tests reach a server: HTTP(S) requests that trust the server's self-signed
// certificate and carry its bearer token, as a client reading the kubeconfig would. Node's
// fetch cannot be given a CA, so requests go through node:http / node:https. Each started
// server registers its URL's credentials here (`remember`); a request to that URL uses them
// unless the caller sets its own `Authorization` header ('' sends none).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { checkServerIdentity } from 'node:tls';

/** What a client needs to talk to a server. */
export interface Credentials {
  token?: string;
  caCert?: string;
}

const known = new Map<string, Credentials>();

/** Records the credentials of the server at `url` (`https://127.0.0.1:PORT`). */
export function remember(url: string, creds: Credentials): void {
  known.set(new URL(url).origin, creds);
}

/** The credentials recorded for the server `url` points at. */
export function credentialsFor(url: string): Credentials {
  return known.get(new URL(url).origin) ?? {};
}

/** A request's options: method, headers and body (as fetch takes them). */
export interface RawInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Headers with the server's token added, unless `headers` has an Authorization ('' = none). */
function withToken(url: URL, headers: Record<string, string>): Record<string, string> {
  const own = Object.keys(headers).find((k) => k.toLowerCase() === 'authorization');
  if (own !== undefined) {
    if (headers[own] !== '') return headers;
    const { [own]: _, ...rest } = headers;
    return rest;
  }
  const { token } = credentialsFor(url.href);
  return token === undefined ? headers : { Authorization: `Bearer ${token}`, ...headers };
}

/**
 * Starts a request and resolves with the response once its headers arrived (the body is still
 * to be read); `abort` ends it. The URL is normalised as fetch would (`..` segments resolved).
 */
export function open(
  target: string,
  init: RawInit = {},
): { response: Promise<IncomingMessage>; abort: () => void } {
  const url = new URL(target);
  const headers = withToken(url, init.headers ?? {});
  const body = init.body;
  const opts: https.RequestOptions = {
    method: init.method ?? 'GET',
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port,
    path: `${url.pathname}${url.search}`,
    headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) },
    agent: false,
  };
  const ca = credentialsFor(url.href).caCert;
  // The certificate is checked against the URL's host even when a test sends another Host header.
  const hostname = opts.hostname as string;
  const req =
    url.protocol === 'https:'
      ? https.request({
          ...opts,
          ...(ca ? { ca } : {}),
          servername: '',
          checkServerIdentity: (_host, cert) => checkServerIdentity(hostname, cert),
        })
      : http.request(opts);
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  req.end(body);
  return { response, abort: () => req.destroy() };
}

/** A whole request: status, headers (as fetch's `Headers`) and the body text. */
export async function request(
  target: string,
  init: RawInit = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await open(target, init).response;
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  return { status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') };
}
