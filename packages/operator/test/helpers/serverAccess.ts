// How the operator tests reach `kruise-ts serve` without a kubeconfig: the credentials of each
// URL (the server's bearer token and self-signed certificate, also valid for a proxy in front of
// it) and one HTTP(S) request that uses them. Node's fetch cannot be given a CA, so requests
// go through node:http / node:https.
import http from 'node:http';
import https from 'node:https';

/** What a client needs to talk to a server. */
export interface ServerCredentials {
  /** The bearer token; undefined for a server without authentication. */
  token?: string;
  /** The certificate to trust for an `https://` URL. */
  caCert?: string;
}

const known = new Map<string, ServerCredentials>();

/** Records the credentials requests to `url` (its origin) need. */
export function rememberServer(url: string, creds: ServerCredentials): void {
  known.set(new URL(url).origin, creds);
}

/** The credentials recorded for `url`'s origin (none recorded: `{}`). */
export function credentialsFor(url: string): ServerCredentials {
  return known.get(new URL(url).origin) ?? {};
}

/**
 * One request to `url` with the recorded token (and CA for https): resolves with the status and
 * the body text.
 */
export function requestText(
  url: string,
  method: string,
  body?: string,
  contentType = 'application/json',
): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  const { token, caCert } = credentialsFor(url);
  const headers: Record<string, string | number> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    headers['Content-Type'] = contentType;
    headers['Content-Length'] = Buffer.byteLength(body);
  }
  const opts: https.RequestOptions = {
    method,
    hostname: u.hostname,
    port: u.port,
    path: `${u.pathname}${u.search}`,
    headers,
  };
  return new Promise((resolve, reject) => {
    const req =
      u.protocol === 'https:'
        ? https.request({ ...opts, ...(caCert ? { ca: caCert } : {}) })
        : http.request(opts);
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.end(body);
  });
}
