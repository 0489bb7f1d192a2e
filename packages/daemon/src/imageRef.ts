// Image reference helpers of the daemon (spec/daemon.md §2): normalise, (name, tag) split into the
// NodeImage key and tag, registry of a name, "an image contains (name, tag)", and the pull reference.
import { parseImageReference } from '@kruise-ts/api';
import type { CriImage } from './cri/types';

/** A normalised reference (§2.1): registry and path filled in, tag dropped when a digest is present. */
export interface NormalizedImage {
  domain: string;
  path: string;
  tag?: string;
  digest?: string;
  /** The fully qualified reference, e.g. `docker.io/library/nginx:latest`. */
  full: string;
  /** The fully qualified repository, e.g. `docker.io/library/nginx` (used for credential lookup, §7.7). */
  repository: string;
}

/**
 * §2.1: parses with Docker's rules (default registry `docker.io`, namespace `library`), keeps the
 * digest and drops the tag when both are present, adds `latest` when neither is. `undefined` when the
 * reference does not parse.
 *
 * Example: `nginx` → `docker.io/library/nginx:latest`; `a/b:t@sha256:<64 hex>` → `docker.io/a/b@sha256:<64 hex>`.
 */
export function normalizeImage(ref: string): NormalizedImage | undefined {
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

/** The familiar form of a repository: `docker.io/library/x` → `x`, `docker.io/a/b` → `a/b`, others unchanged. */
export function familiarName(domain: string, path: string): string {
  if (domain !== 'docker.io') return `${domain}/${path}`;
  if (path.startsWith('library/') && !path.slice('library/'.length).includes('/'))
    return path.slice('library/'.length);
  return path;
}

/**
 * §2.2: `(name, tag)` of a reference: the familiar name and the digest (if digested) or the tag.
 * `undefined` when the reference does not parse.
 *
 * Examples: `nginx` → (`nginx`, `latest`); `docker.io/library/nginx:1.25` → (`nginx`, `1.25`);
 * `reg:5000/x/y` → (`reg:5000/x/y`, `latest`); `a/b:t@sha256:abc…` → (`a/b`, `sha256:abc…`).
 */
export function imageNameTag(ref: string): { name: string; tag: string } | undefined {
  const n = normalizeImage(ref);
  if (!n) return undefined;
  return { name: familiarName(n.domain, n.path), tag: n.digest ?? n.tag ?? 'latest' };
}

/** §2.4: the text before the first `/`, or the whole name. Example: `reg:5000/x/y` → `reg:5000`. */
export function registryOf(name: string): string {
  const i = name.indexOf('/');
  return i < 0 ? name : name.slice(0, i);
}

/** True when a NodeImage "tag" is a digest (`sha256:…`), i.e. the image is pinned by digest. */
export function isDigestTag(tag: string): boolean {
  return /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}$/.test(tag);
}

/**
 * The reference the daemon pulls for a NodeImage (name, tag) (§2.6).
 *
 * **Deviation (conscious fix of Quirk 2.6):** upstream builds `name:tag` even for a digest, which
 * never parses, so digest-pinned jobs always fail. We build `name@sha256:…` for a digest tag.
 *
 * Example: (`nginx`, `1.25`) → `nginx:1.25`; (`a/b`, `sha256:<64 hex>`) → `a/b@sha256:<64 hex>`.
 */
export function pullReference(name: string, tag: string): string {
  return isDigestTag(tag) ? `${name}@${tag}` : `${name}:${tag}`;
}

/**
 * §2.5: an image known to the runtime contains (name, tag) when any of its `repoTags`, passed
 * through {@link imageNameTag}, equals (name, tag). For a digest tag (our §2.6 fix) its
 * `repoDigests` are compared the same way.
 *
 * Example: an image with repoTags `['docker.io/library/nginx:1.25']` contains (`nginx`, `1.25`).
 */
export function imageContains(
  image: Pick<CriImage, 'repoTags' | 'repoDigests'>,
  name: string,
  tag: string,
): boolean {
  const refs = isDigestTag(tag) ? (image.repoDigests ?? []) : (image.repoTags ?? []);
  return refs.some((r) => {
    const nt = imageNameTag(r);
    return nt !== undefined && nt.name === name && nt.tag === tag;
  });
}

/** The first image of `images` that contains (name, tag) (§7.5 item 2.5), or `undefined`. */
export function findImage(images: readonly CriImage[], name: string, tag: string): CriImage | undefined {
  return images.find((i) => imageContains(i, name, tag));
}
