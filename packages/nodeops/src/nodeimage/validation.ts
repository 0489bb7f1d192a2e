// What the NodeImage validating webhook rejects (docs/reference/daemon.md §5.1 item 3). Like upstream,
// the first failure is reported.

import type { NodeImage } from '@kruise-ts/api';
import { checkStructure } from '@kruise-ts/api';
import { duplicate, type FieldError, invalid, required } from '@kruise-ts/core';

/** Upstream's limit on the number of images of one NodeImage. */
export const MAX_IMAGES_PER_NODE = 256;

/**
 * §5.1 item 3 (on the defaulted object): at most 256 images; no empty image name; per tag a
 * non-empty tag unique within its image, a `createdAt`, `version ≥ 0`, a `pullPolicy` with a
 * `ttlSecondsAfterFinished`. Images are checked in name order.
 *
 * Example: a tag without `pullPolicy.ttlSecondsAfterFinished` →
 * `spec.images[nginx].tags[0].pullPolicy.ttlSecondsAfterFinished: Required value`.
 */
export function validateNodeImage(obj: NodeImage, _old?: NodeImage, _ctx?: unknown): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('NodeImage', obj, { admission: true });
  if (shape.length > 0) return shape;
  const images = obj?.spec?.images ?? {};
  const names = Object.keys(images).sort();
  if (names.length > MAX_IMAGES_PER_NODE)
    return [invalid('spec.images', names.length, `must have at most ${MAX_IMAGES_PER_NODE} images`)];
  for (const name of names) {
    const p = `spec.images[${name}]`;
    if (name === '') return [invalid(p, name, 'image name can not be empty')];
    const seen = new Set<string>();
    const tags = images[name]?.tags ?? [];
    for (let i = 0; i < tags.length; i++) {
      const t = tags[i];
      const tp = `${p}.tags[${i}]`;
      if (!t?.tag) return [invalid(`${tp}.tag`, t?.tag ?? '', 'tag can not be empty')];
      if (seen.has(t.tag)) return [duplicate(`${tp}.tag`, t.tag)];
      seen.add(t.tag);
      if (!t.createdAt) return [required(`${tp}.createdAt`, 'createdAt can not be empty')];
      if ((t.version ?? 0) < 0)
        return [invalid(`${tp}.version`, t.version, 'version must be greater than or equal to 0')];
      if (!t.pullPolicy) return [required(`${tp}.pullPolicy`, 'pullPolicy can not be nil')];
      if (t.pullPolicy.ttlSecondsAfterFinished === undefined || t.pullPolicy.ttlSecondsAfterFinished === null)
        return [
          required(`${tp}.pullPolicy.ttlSecondsAfterFinished`, 'ttlSecondsAfterFinished can not be nil'),
        ];
    }
  }
  return [];
}
