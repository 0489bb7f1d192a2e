// The API server's answers for failed writes: 404 NotFound, 409 Conflict /
// AlreadyExists, 422 Invalid, with Kubernetes' message wording.
import type { KubeObject } from '@kruise-ts/api';
import type { FieldError } from '@kruise-ts/core';
import { resourceName } from './keys';

/** The result of one write. */
export type WriteResult =
  | { ok: true; object?: KubeObject; removed?: boolean }
  | {
      ok: false;
      code: 400 | 403 | 404 | 409 | 422 | 500;
      reason: string;
      message: string;
      errors?: FieldError[];
    };

/** `pods "x" not found` (404). */
export function notFound(kind: string, name: string): WriteResult {
  return { ok: false, code: 404, reason: 'NotFound', message: `${resourceName(kind)} "${name}" not found` };
}

/** A failed precondition or a stale resourceVersion (409). */
export function conflict(kind: string, name: string, what: 'uid' | 'rv' = 'rv'): WriteResult {
  const message =
    what === 'uid'
      ? `Precondition failed: UID in precondition does not match the UID of ${resourceName(kind)} "${name}"`
      : `Operation cannot be fulfilled on ${resourceName(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`;
  return { ok: false, code: 409, reason: 'Conflict', message };
}

/** A write the API server refuses (422). */
export function invalid(obj: KubeObject, errors: FieldError[]): WriteResult {
  const msg = `The ${obj.kind} "${obj.metadata.name ?? ''}" is invalid: ${errors.map((e) => `${e.field}: ${e.detail}`).join(', ')}`;
  return { ok: false, code: 422, reason: 'Invalid', message: msg, errors };
}
