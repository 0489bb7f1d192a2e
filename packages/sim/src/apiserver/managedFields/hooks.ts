// The two calls the API server's write paths make (writes.ts): record an ordinary write's
// ownership, and run a server-side apply. They read what they need from the request: the
// resource (its structure and whether it has a status subresource), `fieldManager`, `force`,
// and the User-Agent that names the manager when `fieldManager` is not given (as kube-apiserver
// does: the part before the first `/`, so `kubectl/v1.32.0 (linux/amd64)` is `kubectl`).
import type { KubeObject } from '@kruise-ts/api';
import type { ResourceInfo } from '../registry';
import { type ApplyResult, serverSideApply } from './apply';
import { resourceType } from './listKeys';
import { recordUpdate } from './update';

/** The parts of a write request these hooks read. */
export interface OwnershipRequest {
  res: ResourceInfo;
  query: URLSearchParams;
  sub?: string;
  userAgent?: string;
}

/** The manager of a write: `fieldManager`, else the User-Agent's product, at most 128 characters. */
export function managerOf(req: OwnershipRequest): string {
  const fm = req.query.get('fieldManager');
  if (fm) return fm;
  return (req.userAgent ?? '').split('/')[0].slice(0, 128);
}

/**
 * `next` with the managedFields of this create (`live` undefined) or update, owned by the
 * request's manager (update.ts).
 */
export function ownWrite(
  req: OwnershipRequest,
  live: KubeObject | undefined,
  next: KubeObject,
  now: string,
): KubeObject {
  return recordUpdate({
    type: resourceType(req.res),
    live,
    next,
    manager: managerOf(req),
    apiVersion: req.res.apiVersion,
    subresource: req.sub,
    now,
    statusSubresource: req.res.status,
  });
}

/** Server-side apply of `config` over `live` (undefined: the apply creates the object), apply.ts. */
export function ownApply(
  req: OwnershipRequest,
  live: KubeObject | undefined,
  config: KubeObject,
  now: string,
): ApplyResult {
  return serverSideApply({
    type: resourceType(req.res),
    live,
    config,
    manager: managerOf(req),
    apiVersion: req.res.apiVersion,
    force: req.query.get('force') === 'true',
    now,
    statusSubresource: req.res.status,
  });
}
