// Per-subset partitions for manual updates (docs/reference/uniteddeployment.md §6, calcNextPartitions).
import type { UnitedDeploymentObject } from './types';

/**
 * The partition written to each subset workload (§6): `p = manualUpdate.partitions[s]` when the
 * update strategy is `Manual` with a `manualUpdate` that has key `s`, else 0; then clamped to the
 * subset's allocated replicas when larger (negative values are kept). The UD spec is never changed.
 *
 * Example: partitions `{a: 2}`; `a` allocated 1 replica → partition 1; later allocated 4 → 2 again.
 */
export function calcNextPartitions(
  ud: Pick<UnitedDeploymentObject, 'spec'>,
  nextReplicas: Record<string, number>,
): Record<string, number> {
  const strategy = ud.spec.updateStrategy;
  const partitions = strategy?.type === 'Manual' ? strategy.manualUpdate?.partitions : undefined;
  const out: Record<string, number> = {};
  for (const s of ud.spec.topology?.subsets ?? []) {
    let p = partitions && Object.hasOwn(partitions, s.name) ? partitions[s.name] : 0;
    const r = nextReplicas[s.name] ?? 0;
    if (p > r) p = r;
    out[s.name] = p;
  }
  return out;
}
