// An independent, deliberately naive reading of the spec's budgets for the property tests
// (docs/reference/cloneset.md §4, §5, §6): written from the spec text, sharing no code with src/.
import type { CloneSet } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';

/** §5.1 legacy int-or-percent: every `%` removed, the rest an integer percentage of `total`. */
export function legacy(
  v: number | string | undefined,
  total: number,
  roundUp: boolean,
  dflt: number | string,
): number {
  const value = v ?? dflt;
  if (typeof value === 'number') return value;
  const s = value.replaceAll('%', '');
  if (!/^[+-]?\d+$/.test(s)) return 0;
  const x = (Number(s) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** §5.2 partition. */
export function partitionOf(cs: CloneSet): number {
  const r = cs.spec.replicas ?? 1;
  const p = cs.spec.updateStrategy?.partition;
  if (p === undefined) return 0;
  let v: number;
  if (typeof p === 'number') v = p;
  else {
    if (!p.endsWith('%')) return 0;
    v = Math.ceil((Number(p.slice(0, -1)) * r) / 100);
    if (r > 1 && v === r && p !== '100%') v = r - 1;
  }
  return Math.max(0, Math.min(r, v));
}

export function budgets(cs: CloneSet): { R: number; maxSurge: number; maxUnavailable: number } {
  const R = cs.spec.replicas ?? 1;
  const us = cs.spec.updateStrategy ?? {};
  const maxSurge = us.paused ? 0 : legacy(us.maxSurge, R, true, 0);
  const maxUnavailable = legacy(us.maxUnavailable, R, maxSurge === 0, '20%');
  return { R, maxSurge, maxUnavailable };
}

const label = (p: Pod, k: string) => p.metadata?.labels?.[k];
export const stateOf = (p: Pod) => label(p, 'lifecycle.apps.kruise.io/state') ?? '';
export const isActive = (p: Pod) =>
  !p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

/** §4.1/§4.2 available(pod, minReadySeconds) at `nowMs`. */
export function available(p: Pod, minReadySeconds: number, nowMs: number): boolean {
  const s = stateOf(p);
  if (s !== '' && s !== 'Normal') return false;
  if (p.status?.phase !== 'Running') return false;
  const conds = p.status?.conditions ?? [];
  const ready = conds.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return false;
  if (minReadySeconds > 0) {
    const t = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : Number.NaN;
    if (!(t + minReadySeconds * 1000 < nowMs)) return false;
  }
  const ipu = conds.find((c) => c.type === 'InPlaceUpdateReady');
  return ipu === undefined || ipu.status === 'True';
}

/** §4.4 */
export function specified(cs: CloneSet, p: Pod): boolean {
  return (
    Object.hasOwn(p.metadata?.labels ?? {}, 'apps.kruise.io/specified-delete') ||
    (cs.spec.scaleStrategy?.podsToDelete ?? []).includes(p.metadata?.name ?? '')
  );
}

/** §4.3 hashEquals */
export function onRevision(p: Pod, rev: string): boolean {
  const l = label(p, 'controller-revision-hash') ?? '';
  const short = (s: string) => s.slice(s.lastIndexOf('-') + 1);
  return l === rev || short(l) === short(rev);
}
