// Errors as Kubernetes `Status` objects (guide §H): 404 NotFound, 409
// AlreadyExists / Conflict, 422 Invalid with causes from the admission
// chain's FieldErrors, 415 UnsupportedMediaType, 400 BadRequest, 405, 410
// Expired, 413, 500. kubectl prints `message`; for 422 it rebuilds the text
// from `details.kind`, `details.name` and `details.causes`.
import { type FieldError, formatFieldError } from '@kruise-ts/core';
import type { ResourceInfo } from './registry';

/** A `Status` object. */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: Record<string, unknown>;
  code: number;
}

/** A failure Status. */
export function status(
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): StatusObject {
  const s: StatusObject = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
  if (details) s.details = details;
  return s;
}

/** `clonesets.apps.kruise.io`, or `pods` for the core group. */
export function qualifiedResource(r: ResourceInfo): string {
  return r.group ? `${r.plural}.${r.group}` : r.plural;
}

/** 404 for an object. */
export function notFoundStatus(r: ResourceInfo, name: string): StatusObject {
  return status(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, {
    name,
    group: r.group,
    kind: r.plural,
  });
}

/** 404 for an unknown path. */
export function unknownPath(): StatusObject {
  return status(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** 409 AlreadyExists. */
export function alreadyExists(r: ResourceInfo, name: string): StatusObject {
  return status(409, 'AlreadyExists', `${qualifiedResource(r)} "${name}" already exists`, {
    name,
    group: r.group,
    kind: r.plural,
  });
}

/** 409 Conflict (stale resourceVersion). */
export function conflictStatus(r: ResourceInfo, name: string, message?: string): StatusObject {
  return status(
    409,
    'Conflict',
    message ??
      `Operation cannot be fulfilled on ${qualifiedResource(r)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: r.group, kind: r.plural },
  );
}

/**
 * 422 Invalid: `CloneSet.apps.kruise.io "sample" is invalid: spec.replicas: Invalid value: -1: …`
 * with one cause per field error.
 */
export function invalidStatus(
  r: ResourceInfo,
  name: string,
  errors: FieldError[],
  fallback?: string,
): StatusObject {
  const gk = r.group ? `${r.kind}.${r.group}` : r.kind;
  const parts = errors.map(formatFieldError);
  const body = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const message = errors.length
    ? `${gk} "${name}" is invalid: ${body}`
    : (fallback ?? `${gk} "${name}" is invalid`);
  return status(422, 'Invalid', message, {
    name,
    group: r.group,
    kind: r.kind,
    causes: errors.map((e) => {
      const full = formatFieldError(e);
      const prefix = `${e.field}: `;
      return {
        reason: e.type,
        message: full.startsWith(prefix) ? full.slice(prefix.length) : full,
        field: e.field,
      };
    }),
  });
}

/** 400 BadRequest. */
export function badRequest(message: string): StatusObject {
  return status(400, 'BadRequest', message);
}

/** 415 for a patch type the resource does not accept. */
export function unsupportedMediaType(types: string): StatusObject {
  return status(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${types}`,
  );
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(): StatusObject {
  return status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

/** 410 Expired (watch from a resourceVersion older than the history window). */
export function expired(rv: string, oldest: number): StatusObject {
  return status(410, 'Expired', `too old resource version: ${rv} (${oldest})`);
}

/** 500 InternalError. */
export function internalError(message: string): StatusObject {
  return status(500, 'InternalError', `Internal error occurred: ${message}`);
}
