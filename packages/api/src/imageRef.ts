// Container image references (docs/reference/daemon.md §2), the one parser of the repo: the Docker
// reference grammar (name [":" tag] ["@" digest]; default registry docker.io, namespace library),
// §2.1 normalisation, §2.2 familiar name and NodeImage (name, tag) key, §2.4 registry, digest tags
// and the webhooks' parse-error text. Used for the imagePullPolicy default (podTemplateDefaults.ts),
// by @kruise-ts/nodeops (controllers, webhooks) and @kruise-ts/daemon (puller); both key
// NodeImages by imageNameTag, so they must share it.

const alnum = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alnum}(?:${separator}${alnum})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])`;
const domain = `${host}(?::[0-9]+)?`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
const referenceRe = new RegExp(
  `^((?:${domain}/)?${pathComponent}(?:/${pathComponent})*)(?::(${tag}))?(?:@(${digest}))?$`,
);
const identifierRe = /^[a-f0-9]{64}$/;
const digestRe = new RegExp(`^${digest}$`);
/** Docker's legacy name of the default registry; it parses as `docker.io`. */
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';

/** A parsed image reference. */
export interface ImageReference {
  /** The repository as written, e.g. `nginx`, `reg:5000/x/y`. */
  name: string;
  /** The registry part, `docker.io` when none is written (the legacy `index.docker.io` also gives `docker.io`). */
  domain: string;
  /** The path inside the registry, `library/nginx` for `nginx`. */
  path: string;
  /** The tag as written (`undefined` when absent). */
  tag?: string;
  /** The digest as written (`undefined` when absent). */
  digest?: string;
}

/**
 * Parses an image reference with Docker's normalised-name rules, or returns `undefined`
 * when it is not valid (empty, uppercase repository, a bare 64-hex id, bad tag...).
 *
 * Example: `parseImageReference('reg:5000/x/y:1.2')` gives
 * `{ name: 'reg:5000/x/y', domain: 'reg:5000', path: 'x/y', tag: '1.2' }`;
 * `parseImageReference('nginx')` gives `{ name: 'nginx', domain: 'docker.io', path: 'library/nginx' }`;
 * `parseImageReference('index.docker.io/nginx')` gives `{ name: 'index.docker.io/nginx', domain: 'docker.io', path: 'library/nginx' }`.
 */
export function parseImageReference(image: string): ImageReference | undefined {
  if (typeof image !== 'string' || image === '' || identifierRe.test(image)) return undefined;
  const m = referenceRe.exec(image);
  if (!m) return undefined;
  const name = m[1];
  if (name.length > 255) return undefined;
  // A first component is a registry when it has a '.', a ':' or is "localhost" (or is uppercase).
  const slash = name.indexOf('/');
  let dom = 'docker.io';
  let rest = name;
  if (slash >= 0) {
    const first = name.slice(0, slash);
    if (
      first.includes('.') ||
      first.includes(':') ||
      first === 'localhost' ||
      first !== first.toLowerCase()
    ) {
      dom = first === LEGACY_DEFAULT_DOMAIN ? 'docker.io' : first;
      rest = name.slice(slash + 1);
    }
  }
  if (rest !== rest.toLowerCase()) return undefined;
  if (dom === 'docker.io' && !rest.includes('/')) rest = `library/${rest}`;
  const out: ImageReference = { name, domain: dom, path: rest };
  if (m[2] !== undefined) out.tag = m[2];
  if (m[3] !== undefined) out.digest = m[3];
  return out;
}

/**
 * The tag Kubernetes' image parser reports: the written tag, `latest` when neither tag nor
 * digest is written, `''` for a digest-only or unparsable reference.
 *
 * Example: `nginx` → `latest`; `nginx:1.25` → `1.25`; `nginx@sha256:<64 hex>` → `''`.
 */
export function imageTag(image: string): string {
  const ref = parseImageReference(image);
  if (!ref) return '';
  if (ref.tag !== undefined) return ref.tag;
  return ref.digest === undefined ? 'latest' : '';
}

/** A normalised reference (docs/reference/daemon.md §2.1): registry and path filled in, tag dropped when a digest is present. */
export interface NormalizedImageReference {
  /** The registry, `docker.io` by default (Docker's legacy `index.docker.io` is mapped to it). */
  domain: string;
  /** The path inside the registry, `library/nginx` for `nginx`. */
  path: string;
  /** The tag (`latest` when neither tag nor digest was written); absent when the ref is digested. */
  tag?: string;
  /** The digest, when the ref is digested. */
  digest?: string;
  /** The fully qualified reference, e.g. `docker.io/library/nginx:latest`. */
  full: string;
  /** The fully qualified repository, e.g. `docker.io/library/nginx` (used for credential lookup, §7.7). */
  repository: string;
}

/**
 * §2.1 `normalize(ref)`: parses with Docker's rules (default registry `docker.io`, namespace
 * `library`), keeps the digest and drops the tag when both are present, adds `latest` when neither
 * is. `undefined` when the reference does not parse (§2.1: an unparsable ref is an error).
 *
 * Example: `nginx` → `{ full: 'docker.io/library/nginx:latest', repository: 'docker.io/library/nginx', tag: 'latest', … }`;
 * `a/b:t@sha256:<64 hex>` → `{ full: 'docker.io/a/b@sha256:<64 hex>', digest: 'sha256:<64 hex>', … }` (no tag).
 */
export function normalizeImageReference(ref: string): NormalizedImageReference | undefined {
  const p = parseImageReference(ref);
  if (!p) return undefined;
  const repository = `${p.domain}/${p.path}`;
  if (p.digest !== undefined) {
    return {
      domain: p.domain,
      path: p.path,
      digest: p.digest,
      full: `${repository}@${p.digest}`,
      repository,
    };
  }
  const tag = p.tag ?? 'latest';
  return { domain: p.domain, path: p.path, tag, full: `${repository}:${tag}`, repository };
}

/**
 * §2.2 the familiar form of a repository (Docker's FamiliarName): `docker.io/library/` is stripped
 * when one path component remains, `docker.io/` is stripped otherwise, other registries are kept.
 *
 * Example: (`docker.io`, `library/nginx`) → `nginx`; (`docker.io`, `a/b`) → `a/b`;
 * (`docker.io`, `library/a/b`) → `library/a/b`; (`reg:5000`, `x/y`) → `reg:5000/x/y`.
 */
export function familiarName(domain: string, path: string): string {
  if (domain !== 'docker.io') return `${domain}/${path}`;
  const rest = path.startsWith('library/') ? path.slice('library/'.length) : undefined;
  return rest !== undefined && !rest.includes('/') ? rest : path;
}

/** A NodeImage key (§2.2, §2.3): the familiar image name and the tag (or digest). */
export interface ImageNameTag {
  name: string;
  tag: string;
}

/**
 * §2.2 `nameTag(ref)`: the familiar name and the digest if the ref is digested, else the tag
 * (default `latest`). NodeImages are keyed by it (§2.3), on the controller and the daemon side.
 * `undefined` when the reference does not parse.
 *
 * Examples: `nginx` → (`nginx`, `latest`); `docker.io/library/nginx:1.25` → (`nginx`, `1.25`);
 * `reg:5000/x/y` → (`reg:5000/x/y`, `latest`); `a/b:t@sha256:abc…` → (`a/b`, `sha256:abc…`);
 * `index.docker.io/nginx` → (`nginx`, `latest`).
 */
export function imageNameTag(ref: string): ImageNameTag | undefined {
  const n = normalizeImageReference(ref);
  if (!n) return undefined;
  return { name: familiarName(n.domain, n.path), tag: n.digest ?? n.tag ?? 'latest' };
}

/** §2.4 `registryOf(name)`: the text before the first `/`, or the whole name. Example: `reg:5000/x/y` → `reg:5000`. */
export function registryOf(name: string): string {
  const i = name.indexOf('/');
  return i < 0 ? name : name.slice(0, i);
}

/**
 * True when a NodeImage "tag" is a digest (`algorithm:hex`, at least 32 hex digits), i.e. the
 * image is pinned by digest (§2.2 puts the digest in the tag slot).
 *
 * Example: `sha256:<64 hex>` → `true`; `v1` → `false`; `sha256:abc` → `false`.
 */
export function isDigestTag(tag: string): boolean {
  return digestRe.test(tag);
}

/**
 * The parser error text upstream's webhooks report after `invalid image <ref>: ` (the Docker
 * reference library's messages), or `undefined` when the ref parses.
 *
 * Example: `Nginx` → `invalid reference format: repository name must be lowercase`;
 * `a b` → `invalid reference format`; `''` → `repository name must have at least one component`.
 */
export function imageParseError(ref: string): string | undefined {
  if (parseImageReference(ref)) return undefined;
  if (ref === '') return 'repository name must have at least one component';
  const lower = ref.replace(
    /^([^/]*\/)?(.*)$/,
    (_m, a: string | undefined, b: string) => `${a ?? ''}${b.toLowerCase()}`,
  );
  if (lower !== ref && parseImageReference(lower))
    return 'invalid reference format: repository name must be lowercase';
  return 'invalid reference format';
}
