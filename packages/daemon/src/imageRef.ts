// Image reference helpers of the daemon (docs/reference/daemon.md §2). Parsing, §2.1 normalisation, the §2.2
// (name, tag) NodeImage key, §2.4 registry and digest tags come from @kruise-ts/api (shared with the
// controllers in @kruise-ts/nodeops, which must key NodeImages identically) and are re-exported under
// the daemon's names; this file owns the pull reference (§2.6) and the CRI image matching (§2.5).
import { imageNameTag, isDigestTag } from '@kruise-ts/api';
import type { CriImage } from './cri/types';

export {
  familiarName,
  imageNameTag,
  isDigestTag,
  type NormalizedImageReference as NormalizedImage,
  normalizeImageReference as normalizeImage,
  registryOf,
} from '@kruise-ts/api';

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
