// Pod QoS class (docs/reference/core.md Appendix C.2, Kubernetes v1.30), used by the vertical-scaling
// guard R1.7/R1.12: an in-place resize must not change the pod's QoS class.
import type { Container, PodSpec } from 'kubernetes-types/core/v1.js';
import { tryParseQuantity } from '../kube/quantity';

/** The three Kubernetes QoS classes. */
export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** Only cpu and memory count for QoS (C.2: "other resources ignored"). */
const QOS_RESOURCES = ['cpu', 'memory'] as const;

/**
 * The QoS class of a pod spec (Appendix C.2).
 *
 * Over all containers and init containers, positive cpu/memory requests and limits are
 * summed per resource; a container without *both* a positive cpu limit and a positive
 * memory limit disqualifies Guaranteed. No requests and no limits at all → BestEffort.
 * Guaranteed when not disqualified, every summed request equals the summed limit of the
 * same resource and there are as many request entries as limit entries. Else Burstable.
 *
 * Worked example: two containers each with requests `{cpu: 1, memory: 2Gi}` and limits
 * `{cpu: 2, memory: 4Gi}` → sums requests `{cpu: 2, memory: 4Gi}`, limits
 * `{cpu: 4, memory: 8Gi}` → not equal → `Burstable`. Raising every request to its limit
 * gives `Guaranteed` (R1.12: such a resize forces a recreate).
 */
export function getPodQOS(podSpec: PodSpec | undefined): PodQOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let isGuaranteed = true;
  const containers: Container[] = [...(podSpec?.initContainers ?? []), ...(podSpec?.containers ?? [])];
  for (const c of containers) {
    for (const name of QOS_RESOURCES) {
      const req = positive(c.resources?.requests?.[name]);
      if (req !== undefined) requests.set(name, (requests.get(name) ?? 0n) + req);
    }
    const limitsFound = new Set<string>();
    for (const name of QOS_RESOURCES) {
      const lim = positive(c.resources?.limits?.[name]);
      if (lim !== undefined) {
        limitsFound.add(name);
        limits.set(name, (limits.get(name) ?? 0n) + lim);
      }
    }
    if (!(limitsFound.has('cpu') && limitsFound.has('memory'))) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        isGuaranteed = false;
        break;
      }
    }
  }
  if (isGuaranteed && requests.size === limits.size) return 'Guaranteed';
  return 'Burstable';
}

/** The value of a quantity when it parses and is > 0; otherwise undefined. */
function positive(q: unknown): bigint | undefined {
  if (q === undefined || q === null) return undefined;
  const v = tryParseQuantity(q);
  return v !== undefined && v > 0n ? v : undefined;
}
