// Image references for the image pre-pull kinds (docs/reference/daemon.md §2). The parser, the (name, tag)
// NodeImage key, the registry and the webhooks' parse-error text live in @kruise-ts/api (shared
// with the node daemon, which must key NodeImages identically, §2.3) and are re-exported here;
// this file owns only the string form of §2.1 `normalize`.
import { normalizeImageReference } from '@kruise-ts/api';

export { type ImageNameTag, imageNameTag, imageParseError, registryOf } from '@kruise-ts/api';

/**
 * §2.1 `normalize(ref)` as a string: Docker reference rules with default registry `docker.io` and
 * default namespace `library`; a digest wins over a tag; neither gives `latest`. `undefined` when
 * the reference does not parse. The `full` field of @kruise-ts/api's `normalizeImageReference`.
 *
 * Example: `nginx` → `docker.io/library/nginx:latest`; `a/b:t@sha256:<64 hex>` →
 * `docker.io/a/b@sha256:<64 hex>`.
 */
export function normalizeImage(ref: string): string | undefined {
  return normalizeImageReference(ref)?.full;
}
