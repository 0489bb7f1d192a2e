// The "CRD" half of docs/reference/operator.md §3.5: a controller registers only when discovery finds its
// kind; and an informer the controller merely reads (e.g. batch Jobs for AdvancedCronJob) is
// left out when the cluster does not serve that kind, so one missing resource cannot keep every
// cache from syncing (O3.5). Discovery as §2.2 describes it: the group/version's resource list;
// a definite "not present" (404, or the kind missing from the list) is false; any other error is
// retried (4 attempts, 0.5 s × 5 back-off) and then taken as present (an API-server problem).
import type { KubeClient } from '../kube/client';
import type { Logger } from '../log';
import type { KindRef, OperatorController } from './common';

/** apiVersion → the kinds it serves, or `'unknown'` when discovery kept failing (taken as all). */
export type ServedKinds = Map<string, Set<string> | 'unknown'>;

/** Discovery timing (tests shorten it). */
export interface DiscoveryOptions {
  /** Attempts per group/version (default 4). */
  attempts?: number;
  /** First back-off in ms, multiplied by 5 per attempt (default 500). */
  backoffMs?: number;
}

function discoveryPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

async function discover(client: KubeClient, apiVersion: string, o: DiscoveryOptions) {
  const attempts = o.attempts ?? 4;
  let delay = o.backoffMs ?? 500;
  for (let i = 0; ; i++) {
    try {
      const res = await client.request('GET', discoveryPath(apiVersion));
      if (res.status === 404) return new Set<string>();
      if (res.status === 200) {
        const list = (res.body?.resources ?? []) as Array<{ name?: string; kind?: string }>;
        return new Set(list.filter((r) => r.name && !r.name.includes('/')).map((r) => r.kind ?? ''));
      }
    } catch {
      // retried below
    }
    if (i + 1 >= attempts) return 'unknown' as const;
    await new Promise((r) => setTimeout(r, delay));
    delay *= 5;
  }
}

/**
 * Asks the API server which of `refs`' kinds it serves, once per group/version.
 *
 * Example: `[{apiVersion: 'batch/v1', kind: 'Job'}, {apiVersion: 'apps.kruise.io/v1beta1', kind:
 * 'AdvancedCronJob'}]` against a server without the batch group → `batch/v1` → empty set (404),
 * `apps.kruise.io/v1beta1` → a set containing `AdvancedCronJob`.
 */
export async function servedKinds(
  client: KubeClient,
  refs: readonly KindRef[],
  opts: DiscoveryOptions = {},
): Promise<ServedKinds> {
  const versions = [...new Set(refs.map((r) => r.apiVersion))];
  const found = await Promise.all(versions.map((v) => discover(client, v, opts)));
  return new Map(versions.map((v, i) => [v, found[i]]));
}

/** Whether `served` says `ref` is served (unknown group/versions count as served). */
export function isServed(served: ServedKinds, ref: KindRef): boolean {
  const s = served.get(ref.apiVersion);
  return s === undefined || s === 'unknown' || s.has(ref.kind);
}

/**
 * §3.5 "CRD": drops the controllers whose primary kind the cluster does not serve (they
 * register nothing), and from the others the secondary informers of kinds it does not serve
 * (their objects then read as none). Returns new controller objects; logs each drop.
 */
export async function resolveControllers(
  client: KubeClient,
  controllers: readonly OperatorController[],
  log?: Logger,
  opts: DiscoveryOptions = {},
): Promise<OperatorController[]> {
  const served = await servedKinds(
    client,
    controllers.flatMap((c) => [c.primary, ...c.secondary]),
    opts,
  );
  const out: OperatorController[] = [];
  for (const c of controllers) {
    if (!isServed(served, c.primary)) {
      log?.warn({ controller: c.name, kind: c.primary }, 'kind not served; controller not registered');
      continue;
    }
    const missing = c.secondary.filter((r) => !isServed(served, r));
    if (missing.length === 0) out.push(c);
    else {
      log?.warn({ controller: c.name, kinds: missing }, 'kinds not served; their informers are left out');
      out.push({ ...c, secondary: c.secondary.filter((r) => isServed(served, r)) });
    }
  }
  return out;
}
