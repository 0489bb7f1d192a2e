// Who may talk to the API server, checked before a request's body is read: the Host header (a
// loopback-bound server answers only requests addressed to a loopback name, which defeats DNS
// rebinding), the Origin header (a browser page of another origin is refused, so no web page can
// write to the cluster even with authentication off) and the bearer token of the kubeconfig.
// Each failure is a Status: 403 Forbidden for the Host and Origin checks, 401 Unauthorized for
// a missing or wrong token.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type StatusObject, status } from './status';

/** What the guard checks a request against. */
export interface GuardOptions {
  /** The bearer token every request must carry; undefined = authentication off. */
  token?: string;
  /** The server listens on a loopback address only, so the Host header must name one. */
  loopbackOnly: boolean;
  /** The server's scheme: its own origin is `<scheme>://<Host header>`. */
  scheme: 'http' | 'https';
}

/**
 * The paths anyone may read without a token: what Kubernetes' default ClusterRole
 * `system:public-info-viewer` grants `system:unauthenticated` (health checks and the version).
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/version/',
]);

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for `127.0.0.1` through `127.255.255.255` in dotted-decimal form. */
function isLoopbackIPv4(host: string): boolean {
  const m = IPV4.exec(host);
  if (!m) return false;
  const octets = m.slice(1).map(Number);
  return octets[0] === 127 && octets.every((o) => o <= 255);
}

/**
 * True when a bind address (`--host`) reaches this machine only: `localhost`, `::1` or any
 * `127.x.y.z`. `0.0.0.0`, `::` and a LAN address are not loopback.
 */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  return a === 'localhost' || a === '::1' || a === '[::1]' || isLoopbackIPv4(a);
}

/**
 * True when a Host header names a loopback host, with or without a port: `localhost:6443`,
 * `127.0.0.1`, `127.1.2.3:80`, `[::1]:6443`. A name an attacker's DNS answers with 127.0.0.1
 * (`evil.example:6443`) is not one: that is how DNS rebinding is refused.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return false;
    const rest = h.slice(end + 1);
    return h.slice(1, end) === '::1' && (rest === '' || /^:\d{1,5}$/.test(rest));
  }
  const colon = h.indexOf(':');
  const name = colon < 0 ? h : h.slice(0, colon);
  if (colon >= 0 && !/^\d{1,5}$/.test(h.slice(colon + 1))) return false;
  return name === 'localhost' || isLoopbackIPv4(name);
}

/** The first value of a header. */
function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Compares two strings in time independent of where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 401 as kube-apiserver answers a request it cannot authenticate. */
export function unauthorized(): StatusObject {
  return status(401, 'Unauthorized', 'Unauthorized');
}

/**
 * Checks a request's headers; returns the Status to answer with, or undefined to serve it.
 * `path` is the URL path (`/version`, `/api/v1/pods`). Examples: Host `evil.example:6443` on a
 * loopback server → 403; `Origin: https://evil.example` → 403; no `Authorization` on
 * `/api/v1/pods` → 401, on `/healthz` → served; `Authorization: Bearer <wrong>` → 401 anywhere.
 */
export function guardRequest(
  opts: GuardOptions,
  headers: IncomingHttpHeaders,
  path: string,
): StatusObject | undefined {
  const host = one(headers.host);
  if (opts.loopbackOnly && !isLoopbackHostHeader(host))
    return status(
      403,
      'Forbidden',
      `host ${JSON.stringify(host ?? '')} is not allowed: the server listens on a loopback address, so the Host header must name localhost, 127.0.0.1 or [::1]`,
    );
  // Browsers send Origin on every cross-origin request that can write; kubectl and client
  // libraries send none. The server serves no page of its own, so any Origin but its own is a
  // web page of another site.
  const origin = one(headers.origin);
  if (origin !== undefined && origin.toLowerCase() !== `${opts.scheme}://${(host ?? '').toLowerCase()}`)
    return status(
      403,
      'Forbidden',
      `origin ${JSON.stringify(origin)} is not allowed: the server answers no cross-origin requests`,
    );
  if (opts.token === undefined) return undefined;
  const auth = one(headers.authorization);
  if (auth === undefined) return PUBLIC_PATHS.has(path) ? undefined : unauthorized();
  const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
  return m && sameSecret(m[1], opts.token) ? undefined : unauthorized();
}
