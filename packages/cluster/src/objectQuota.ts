// The object quota of a store: at most this many objects exist at once, so a server that anyone
// on the machine can write to (kruise-ts serve) has a memory bound however it is driven: a user
// POSTing objects in a loop, or a controller asked for 2^31 - 1 pods, stops at the quota instead
// of at the end of the heap.
//
// A create past the quota is refused as kube-apiserver refuses a create past a ResourceQuota's
// object count (403 Forbidden, `exceeded quota: <name>, requested: ..., used: ..., limited: ...`):
// the nearest real behaviour, which every client already shows as a clear error and controllers
// report as a failed create. Kubernetes counts per namespace and per resource
// (`count/pods`); this quota counts every object of the store as `count/objects`.
import type { KubeObject } from '@kruise-ts/api';
import { resourceName } from './keys';

/** The default quota of `kruise-ts serve` (`--max-objects`). */
export const DEFAULT_MAX_OBJECTS = 200_000;

/** The quota's name in messages, as a ResourceQuota object's name appears in Kubernetes'. */
export const OBJECT_QUOTA_NAME = 'kruise-ts-serve';

/** A refused write, as the store reports one. */
export interface QuotaDenial {
  ok: false;
  code: 403;
  reason: 'Forbidden';
  message: string;
}

/**
 * The refusal of creating `obj` in a store holding `used` objects under a quota of `limit`, or
 * undefined when it fits (always, for an unlimited `Infinity`).
 *
 * Example: `quotaDenial({kind: 'Pod', metadata: {name: 'web-x'}}, 200000, 200000)` → 403
 * `pods "web-x" is forbidden: exceeded quota: kruise-ts-serve, requested: count/objects=1,
 * used: count/objects=200000, limited: count/objects=200000`.
 */
export function quotaDenial(obj: KubeObject, used: number, limit: number): QuotaDenial | undefined {
  if (used < limit) return undefined;
  const name = obj.metadata?.name ?? obj.metadata?.generateName ?? '';
  return {
    ok: false,
    code: 403,
    reason: 'Forbidden',
    message:
      `${resourceName(obj.kind)} "${name}" is forbidden: exceeded quota: ${OBJECT_QUOTA_NAME}, ` +
      `requested: count/objects=1, used: count/objects=${used}, limited: count/objects=${limit}`,
  };
}
