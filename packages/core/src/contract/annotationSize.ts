// The total size of an object's annotations, as kube-apiserver limits it (apimachinery's
// ValidateAnnotationsSize): the UTF-8 bytes of every key plus every value, at most 256 KiB.
// Readers of user files (the CLI's `reconcile`, the simulator's scenario parser) check it on every
// object, whatever its kind, since the API server refuses any object over it. The measure itself
// is @kruise-ts/api's `annotationsSize`, re-exported here.
import { annotationsSize } from '@kruise-ts/api';
import type { FieldError } from './errors';
import { TOTAL_ANNOTATION_SIZE_LIMIT } from './validation';

export { annotationsSize } from '@kruise-ts/api';

/**
 * Kubernetes' annotation size check: one `FieldValueTooLong` at `field` when the annotations take
 * more than `TOTAL_ANNOTATION_SIZE_LIMIT` (262144) bytes, else none. The error carries no bad
 * value, so `formatFieldError` prints it as kube-apiserver does:
 * `metadata.annotations: Too long: must have at most 262144 bytes`.
 *
 * Example: `validateAnnotationsSize({big: 'x'.repeat(262144)})` → one error (262147 bytes).
 */
export function validateAnnotationsSize(annotations: unknown, field = 'metadata.annotations'): FieldError[] {
  if (annotationsSize(annotations) <= TOTAL_ANNOTATION_SIZE_LIMIT) return [];
  return [
    {
      type: 'FieldValueTooLong',
      field,
      detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`,
    },
  ];
}
