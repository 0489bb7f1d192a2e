// Container image references, parsed with the Docker reference grammar
// (name [":" tag] ["@" digest]; default registry docker.io, namespace library).
// Used for the imagePullPolicy default (podTemplateDefaults.ts) and available to
// the node-side kinds (spec/daemon.md §2.1).

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

/** A parsed image reference. */
export interface ImageReference {
  /** The repository as written, e.g. `nginx`, `reg:5000/x/y`. */
  name: string;
  /** The registry part, `docker.io` when none is written. */
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
 * `parseImageReference('nginx')` gives `{ name: 'nginx', domain: 'docker.io', path: 'library/nginx' }`.
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
      dom = first;
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
