// Image reference normalisation for the image pre-pull kinds (spec/daemon.md §2): the fully
// normalised reference, the (name, tag) pair NodeImages are keyed by, and the error text the
// webhooks report for an unparsable image. Parsing itself is @kruise-ts/api's Docker grammar.
// TODO(api): move to api/src/imageRef.ts — the node daemon (depends on api and core only) keys
// NodeImages the same way (§2.2).
import { parseImageReference } from '@kruise-ts/api';

/** A NodeImage key: the familiar image name and the tag (or digest). */
export interface ImageNameTag {
  name: string;
  tag: string;
}

interface Parsed {
  domain: string;
  path: string;
  tag?: string;
  digest?: string;
}

function parse(ref: string): Parsed | undefined {
  const r = parseImageReference(ref);
  if (!r) return undefined;
  let domain = r.domain;
  let path = r.path;
  // Docker's legacy default registry name is the default registry.
  if (domain === 'index.docker.io') {
    domain = 'docker.io';
    if (!path.includes('/')) path = `library/${path}`;
  }
  return { domain, path, tag: r.tag, digest: r.digest };
}

/**
 * §2.1 `normalize(ref)`: Docker reference rules with default registry `docker.io` and default
 * namespace `library`; a digest wins over a tag; neither gives `latest`. `undefined` when the
 * reference does not parse.
 *
 * Example: `nginx` → `docker.io/library/nginx:latest`; `a/b:t@sha256:<64 hex>` →
 * `docker.io/a/b@sha256:<64 hex>`.
 */
export function normalizeImage(ref: string): string | undefined {
  const p = parse(ref);
  if (!p) return undefined;
  const repo = `${p.domain}/${p.path}`;
  if (p.digest !== undefined) return `${repo}@${p.digest}`;
  return `${repo}:${p.tag ?? 'latest'}`;
}

/**
 * §2.2 `nameTag(ref)`: the familiar name (`docker.io/library/` and `docker.io/` stripped) and
 * the digest if the ref is digested, else the tag (default `latest`). `undefined` when the
 * reference does not parse.
 *
 * Examples: `nginx` → (`nginx`, `latest`); `docker.io/library/nginx:1.25` → (`nginx`, `1.25`);
 * `reg:5000/x/y` → (`reg:5000/x/y`, `latest`); `a/b:t@sha256:abc…` → (`a/b`, `sha256:abc…`).
 */
export function imageNameTag(ref: string): ImageNameTag | undefined {
  const p = parse(ref);
  if (!p) return undefined;
  let name: string;
  if (p.domain === 'docker.io') {
    // Docker's FamiliarName: "library/" goes only for a single remaining path component.
    const parts = p.path.split('/');
    name = parts.length === 2 && parts[0] === 'library' ? parts[1] : p.path;
  } else name = `${p.domain}/${p.path}`;
  return { name, tag: p.digest ?? p.tag ?? 'latest' };
}

/** §2.4 `registryOf(name)`: the text before the first `/`, or the whole name. */
export function registryOf(name: string): string {
  const i = name.indexOf('/');
  return i < 0 ? name : name.slice(0, i);
}

/**
 * The parser error text upstream's webhooks report after `invalid image <ref>: ` (the Docker
 * reference library's messages). Example: `Nginx` → `repository name must be lowercase`.
 */
export function imageParseError(ref: string): string | undefined {
  if (parse(ref)) return undefined;
  if (ref === '') return 'repository name must have at least one component';
  const lower = ref.replace(
    /^([^/]*\/)?(.*)$/,
    (_m, a: string | undefined, b: string) => `${a ?? ''}${b.toLowerCase()}`,
  );
  if (lower !== ref && parse(lower)) return 'invalid reference format: repository name must be lowercase';
  return 'invalid reference format';
}
