// Pull-secret credentials (docs/reference/daemon.md §7.7 item 3): a docker keyring built from the NodeImage's
// pull secrets the way kubelet builds one (dockerconfigjson / dockercfg, host globs, path prefixes,
// most specific first), then node-level entries. Credentials never leave this module except as the
// CRI `auth {username, password}`; see `redactCredential` for what may be logged.
import type { Secret } from 'kubernetes-types/core/v1.js';

/** One registry credential. */
export interface DockerCredential {
  username: string;
  password: string;
}

/** A docker config: registry key (`host[:port][/path]`, with or without scheme) → credential. */
export type DockerConfig = Record<
  string,
  { username?: string; password?: string; auth?: string; email?: string }
>;

interface KeyringEntry {
  key: string;
  creds: DockerCredential[];
}

/** A built keyring: ordered groups (pull-secret entries first, then node-level ones). */
export interface DockerKeyring {
  groups: KeyringEntry[][];
}

const DEFAULT_REGISTRY_HOST = 'index.docker.io';

function decodeBase64(s: string): string {
  return Buffer.from(s, 'base64').toString('utf8');
}

function credentialOf(entry: DockerConfig[string], key: string): DockerCredential {
  if (entry.auth) {
    const decoded = decodeBase64(entry.auth);
    const i = decoded.indexOf(':');
    if (i < 0)
      throw new Error(`invalid auth configuration file for registry "${key}": auth is not user:password`);
    return { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
  }
  return { username: entry.username ?? '', password: entry.password ?? '' };
}

/** Kubelet's key normalisation: scheme stripped, `/v1/` and `/v2/` count as the bare host. */
function keyOf(loc: string): string | undefined {
  let value = loc;
  if (!value.startsWith('https://') && !value.startsWith('http://')) value = `https://${value}`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return undefined;
  }
  let path = decodeURIComponent(u.pathname);
  if (path.startsWith('/v2/') || path.startsWith('/v1/')) path = path.slice(3);
  return path.length > 0 && path !== '/' ? `${u.host}${path}` : u.host;
}

function groupOf(cfg: DockerConfig): KeyringEntry[] {
  const byKey = new Map<string, DockerCredential[]>();
  for (const [loc, entry] of Object.entries(cfg)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const key = keyOf(loc);
    if (key === undefined) continue;
    const list = byKey.get(key) ?? [];
    list.push(credentialOf(entry, loc));
    byKey.set(key, list);
  }
  // Reverse lexicographic order puts the more specific key (longer, same prefix) first.
  return [...byKey.keys()]
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    .map((key) => ({ key, creds: byKey.get(key) ?? [] }));
}

/** Reads the docker config of one Secret (§7.7 item 3.1), or `undefined` when the secret does not count. */
export function dockerConfigOfSecret(secret: Secret): DockerConfig | undefined {
  const data = secret.data ?? {};
  if (secret.type === 'kubernetes.io/dockerconfigjson' && data['.dockerconfigjson'] !== undefined) {
    const parsed = JSON.parse(decodeBase64(data['.dockerconfigjson'])) as { auths?: DockerConfig };
    return parsed.auths ?? {};
  }
  if (secret.type === 'kubernetes.io/dockercfg' && data['.dockercfg'] !== undefined) {
    return JSON.parse(decodeBase64(data['.dockercfg'])) as DockerConfig;
  }
  return undefined;
}

/**
 * Builds the keyring (§7.7 item 3.1): the pull secrets' entries, then the node-level config.
 * Returns `{ error }` (never throws) when a secret's JSON or auth is malformed (§7.7 item 3.6).
 */
export function buildKeyring(
  secrets: readonly Secret[],
  nodeConfig?: DockerConfig,
): { keyring: DockerKeyring } | { error: string } {
  try {
    const merged: DockerConfig = {};
    for (const s of secrets) {
      const cfg = dockerConfigOfSecret(s);
      if (cfg) Object.assign(merged, cfg);
    }
    const groups = [groupOf(merged)];
    if (nodeConfig) groups.push(groupOf(nodeConfig));
    return { keyring: { groups } };
  } catch (e) {
    return { error: `failed to parse pull secrets: ${(e as Error).message}` };
  }
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) {
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function splitUrl(s: string): { parts: string[]; port: string; path: string } {
  const slash = s.indexOf('/');
  const hostPort = slash < 0 ? s : s.slice(0, slash);
  const path = slash < 0 ? '' : s.slice(slash);
  const colon = hostPort.lastIndexOf(':');
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  const port = colon < 0 ? '' : hostPort.slice(colon + 1);
  return { parts: host.split('.'), port, path };
}

/**
 * Kubelet's `URLsMatch`: same port, same number of host labels each matching the glob label,
 * and the key's path a prefix of the target's path.
 *
 * Example: `*.example.com/team` matches `reg.example.com/team/app` but not `example.com/team/app`.
 */
export function registryKeyMatches(key: string, target: string): boolean {
  const g = splitUrl(key);
  const t = splitUrl(target);
  if (g.port !== t.port || g.parts.length !== t.parts.length) return false;
  if (!t.path.startsWith(g.path)) return false;
  return g.parts.every((p, i) => globToRegExp(p).test(t.parts[i]));
}

function isDefaultRegistryMatch(repository: string): boolean {
  const i = repository.indexOf('/');
  if (i < 0) return true;
  const first = repository.slice(0, i);
  if (first === 'docker.io' || first === DEFAULT_REGISTRY_HOST) return true;
  return !first.includes('.') && !first.includes(':') && first !== 'localhost';
}

/**
 * The credentials for a fully normalised repository (§7.7 item 3.2), in order: each group's
 * matching keys (most specific first), with the default-registry fallback per group.
 *
 * Example: with secret keys `127.0.0.1:5001` and `127.0.0.1:5001/private`, looking up
 * `127.0.0.1:5001/private/busybox` yields the `/private` credential, then the host one.
 */
export function lookupCredentials(keyring: DockerKeyring, repository: string): DockerCredential[] {
  const out: DockerCredential[] = [];
  for (const group of keyring.groups) {
    const found: DockerCredential[] = [];
    for (const e of group) if (registryKeyMatches(e.key, repository)) found.push(...e.creds);
    if (found.length === 0 && isDefaultRegistryMatch(repository)) {
      const def = group.find((e) => e.key === DEFAULT_REGISTRY_HOST);
      if (def) found.push(...def.creds);
    }
    out.push(...found);
  }
  return out;
}

/** What may be logged about a credential: the username only. */
export function redactCredential(c: DockerCredential | undefined): { username: string } | undefined {
  return c ? { username: c.username } : undefined;
}
