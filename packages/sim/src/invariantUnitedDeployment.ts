// UnitedDeployment's subset sums (docs/reference/uniteddeployment.md §3, §4): once the controller
// has seen the current spec (status.observedGeneration ≥ metadata.generation), the subset
// workloads' replicas add up to at most spec.replicas, each subset holds at most its maxReplicas,
// and under the elastic allocator (§4.3, some subset sets minReplicas or maxReplicas) the sum falls
// short of spec.replicas only when every subset that could take more is at its maximum, and a
// subset holds less than its minReplicas only when the minimums add up to more than the total
// (E4) or, under Adaptive scheduling, the subset is marked unschedulable (E2 a: it may only shrink).
// Quantities are parsed as §3 says (a percentage rounded half up; a bad maximum is 0, E1).
import { type KubeObject, LABEL_SUBSET_NAME } from '@kruise-ts/api';
import { displayName, type Store } from '@kruise-ts/cluster';
import type { Verdict } from './invariantTypes';

type J = Record<string, any>;

/** `parse(total, q)` of §3; undefined for an error. */
export function parseSubsetQuantity(total: number, q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isInteger(q) && q >= 0 ? q : undefined;
  if (typeof q !== 'string' || total < 0) return undefined;
  const m = /^(\d+)%$/.exec(q);
  if (!m) return undefined;
  const p = Number(m[1]);
  return p > 100 ? undefined : Math.floor((total * p + 50) / 100);
}

const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['CloneSet', 'StatefulSet', 'Deployment']);

/** One verdict per UnitedDeployment whose controller is current. */
export function checkSubsetSums(store: Store): Verdict[] {
  const out: Verdict[] = [];
  for (const ud of store.list('apps.kruise.io/v1alpha1', 'UnitedDeployment')) {
    const spec = (ud.spec ?? {}) as J;
    const status = (ud.status ?? {}) as J;
    if ((status.observedGeneration ?? 0) < (ud.metadata.generation ?? 0) || !ud.metadata.uid) continue;
    const T: number = typeof spec.replicas === 'number' ? spec.replicas : -1;
    const subsets: J[] = spec.topology?.subsets ?? [];
    const replicas = new Map<string, number>();
    for (const w of store.listOwnedBy(ud.metadata.uid) as KubeObject[]) {
      if (!WORKLOAD_KINDS.has(w.kind) || w.metadata.deletionTimestamp) continue;
      const s = w.metadata.labels?.[LABEL_SUBSET_NAME];
      if (s) replicas.set(s, (replicas.get(s) ?? 0) + ((w.spec as J | undefined)?.replicas ?? 1));
    }
    const v: Verdict = {
      invariant: 'subsetSums',
      kind: 'UnitedDeployment',
      namespace: ud.metadata.namespace ?? 'default',
      name: ud.metadata.name ?? '',
      object: displayName(ud),
    };
    out.push(v);
    if (T < 0 || subsets.some((s) => !replicas.has(s.name))) continue;
    const elastic = subsets.some((s) => s.minReplicas !== undefined || s.maxReplicas !== undefined);
    const adaptive = spec.topology?.scheduleStrategy?.type === 'Adaptive';
    const unschedulable = new Set<string>(
      ((status.subsetStatuses ?? []) as J[])
        .filter((s) =>
          (s.conditions ?? []).some((c: J) => /Schedulable/.test(c.type) && c.status === 'False'),
        )
        .map((s) => s.name),
    );
    const problems: string[] = [];
    let sum = 0;
    let sumMin = 0;
    let roomLeft = false;
    for (const s of subsets) {
      const r = replicas.get(s.name) ?? 0;
      sum += r;
      const min = s.minReplicas === undefined ? 0 : (parseSubsetQuantity(T, s.minReplicas) ?? 0);
      const max =
        s.maxReplicas === undefined ? Number.POSITIVE_INFINITY : (parseSubsetQuantity(T, s.maxReplicas) ?? 0);
      sumMin += min;
      const shrinking = adaptive && unschedulable.has(s.name);
      if (r > max) problems.push(`subset ${s.name} has ${r} replicas, more than its maxReplicas ${max}`);
      if (elastic && r < max && !shrinking) roomLeft = true;
      if (elastic && r < min && !shrinking)
        problems.push(`subset ${s.name} has ${r} replicas, fewer than its minReplicas ${min}`);
    }
    if (sumMin > T) problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('fewer than')));
    if (sum > T) problems.push(`the subsets hold ${sum} replicas, more than spec.replicas ${T}`);
    else if (elastic && sum < T && roomLeft)
      problems.push(
        `the subsets hold ${sum} replicas, fewer than spec.replicas ${T}, while a subset is below its maximum`,
      );
    if (problems.length) v.message = problems.join('; ');
  }
  return out;
}
