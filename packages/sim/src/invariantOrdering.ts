// Advanced StatefulSet's ordering under podManagementPolicy OrderedReady
// (docs/reference/statefulset.md §R6.2, §R6.6, §R10.2): a monotonic round creates at most one pod,
// and only once every lower slot holds a pod that is Running, Ready for minReadySeconds and in
// lifecycle state Normal (or none). So when the controller creates the pod of ordinal `o`, each
// desired ordinal below `o` (§R3.5: from the start ordinal, reserved ordinals skipped, §R3.3) must
// have such a pod. Exceptions the rules make: Parallel sets are not ordered; reserved ordinals are
// empty slots by design; a pod that turned unavailable through the world's doing in the same
// instant cannot be told apart, so the check reads the pods as the controller saw them when it
// wrote (the simulator applies one reconcile's writes in a row).
import type { KubeObject } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';

type J = Record<string, any>;

/** The reserved ordinal set of §R3.3 (one malformed string drops every reservation). */
export function reservedOrdinals(values: unknown): Set<number> {
  const out = new Set<number>();
  if (!Array.isArray(values)) return out;
  for (const v of values) {
    if (typeof v === 'number') out.add(Math.trunc(v));
    else if (typeof v === 'string') {
      const parts = v.split('-');
      const a = Number.parseInt(parts[0] ?? '', 10);
      const b = Number.parseInt(parts[1] ?? '', 10);
      if (parts.length !== 2 || !/^[+-]?\d+$/.test(parts[0]) || !/^[+-]?\d+$/.test(parts[1]) || a > b)
        return new Set();
      for (let i = a; i <= b && i - a < 100_000; i++) out.add(i);
    }
  }
  return out;
}

/** The ordinal at the end of a pod's name when its parent is `setName` (§R3.1), else undefined. */
export function ordinalOf(podName: string, setName: string): number | undefined {
  if (!podName.startsWith(`${setName}-`)) return undefined;
  const tail = podName.slice(setName.length + 1);
  return /^\d+$/.test(tail) ? Number(tail) : undefined;
}

/**
 * The violation message when creating `created` broke OrderedReady ordering, else undefined.
 * `pods` are the set's active pods at that moment; `available` is the §R6.6 test.
 */
export function orderingViolation(
  set: KubeObject,
  created: Pod,
  pods: readonly Pod[],
  available: (p: Pod) => boolean,
): string | undefined {
  const spec = (set.spec ?? {}) as J;
  if ((spec.podManagementPolicy ?? 'OrderedReady') !== 'OrderedReady') return undefined;
  const name = set.metadata.name ?? '';
  const o = ordinalOf(created.metadata?.name ?? '', name);
  if (o === undefined) return undefined;
  const start = typeof spec.ordinals?.start === 'number' ? spec.ordinals.start : 0;
  const reserved = reservedOrdinals(spec.reserveOrdinals);
  const byOrdinal = new Map<number, Pod>();
  for (const p of pods) {
    const k = ordinalOf(p.metadata?.name ?? '', name);
    if (k !== undefined && p !== created) byOrdinal.set(k, p);
  }
  const missing: number[] = [];
  const notAvailable: number[] = [];
  for (let k = start; k < o; k++) {
    if (reserved.has(k)) continue;
    const p = byOrdinal.get(k);
    if (!p) missing.push(k);
    else if (!available(p)) notAvailable.push(k);
  }
  if (missing.length === 0 && notAvailable.length === 0) return undefined;
  const parts = [
    missing.length ? `ordinal(s) ${missing.join(', ')} missing` : '',
    notAvailable.length ? `ordinal(s) ${notAvailable.join(', ')} not available` : '',
  ].filter(Boolean);
  return `the controller created ordinal ${o} under OrderedReady while ${parts.join(' and ')}`;
}
