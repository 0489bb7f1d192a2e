// SidecarSet's maxUnavailable over its matched pods (docs/reference/sidecarset.md SS-5.6.4): a
// round takes a pod that is not sidecar-ready for free and any other only while fewer than M
// updated pods are unavailable, M being maxUnavailable (nil 1, an int, "<n>%" of the matched pods
// rounded up, any other string 0). The check counts the pods the SidecarSet controller took down:
// a pod that was Ready when the controller changed its sidecar images (the hash annotation names
// which SidecarSet, SS-5.7.3) counts until it is Ready again or gone. That is never more than the
// controller's own count U (which also holds pods that failed on their own), so a pod that was
// not ready before its update, or that crashes later, never makes a false violation.
//
// Its partition (SS-5.6.3): P is nil 0, an int clamped to [0, total], `"x%"` ceil(x·total/100) (and
// total − 1 when that reaches total for a string other than "100%"); each round keeps only the first
// len(candidates) − P candidates, so at least P candidates stay behind. Judged when the controller
// has just upgraded a pod: the matched pods it upgraded to the SidecarSet's current hash are at
// most total − P. Pods that got the new sidecar at injection (created during the update) are not
// the controller's doing and do not count.
import { ANNOTATION_SIDECARSET_HASH, type KubeObject } from '@kruise-ts/api';
import { type Change, displayName, type Store } from '@kruise-ts/cluster';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { Verdict } from './invariantTypes';

type J = Record<string, any>;

/** M of SS-5.6.4 over `total` matched pods. */
export function sidecarSetMaxUnavailable(ss: KubeObject, total: number): number {
  const v = ((ss.spec ?? {}) as J).updateStrategy?.maxUnavailable;
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number') return Math.max(0, Math.trunc(v));
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
  return m ? Math.ceil((Number(m[1]) * total) / 100) : 0;
}

function hashes(pod: KubeObject | undefined): Record<string, string> {
  const raw = pod?.metadata.annotations?.[ANNOTATION_SIDECARSET_HASH];
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as Record<string, { hash?: string }>;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed ?? {})) if (v && typeof v.hash === 'string') out[k] = v.hash;
    return out;
  } catch {
    return {};
  }
}

function ready(pod: KubeObject | undefined): boolean {
  const conds = (pod?.status as Pod['status'])?.conditions ?? [];
  return conds.some((c) => c.type === 'Ready' && c.status === 'True');
}

function containerImages(pod: KubeObject): string {
  return (((pod.spec ?? {}) as J).containers ?? []).map((c: J) => `${c.name}=${c.image}`).join(',');
}

/** P of SS-5.6.3 over `total` matched pods. */
export function sidecarSetPartition(ss: KubeObject, total: number): number {
  const v = ((ss.spec ?? {}) as J).updateStrategy?.partition;
  let p = 0;
  if (typeof v === 'number') p = Math.trunc(v);
  else if (typeof v === 'string') {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(v);
    if (m) {
      p = Math.ceil((Number(m[1]) * total) / 100);
      if (total > 1 && p === total && v !== '100%') p = total - 1;
    }
  }
  return Math.min(Math.max(p, 0), total);
}

/** Follows the pods each SidecarSet takes down and judges its budget at every settle. */
export class SidecarSetBudget {
  /** SidecarSet name → keys of the pods it took down, not Ready again yet. */
  private readonly down = new Map<string, Set<string>>();
  private readonly tookDown = new Set<string>();
  /** SidecarSet name → hash → keys of the pods the controller upgraded to it. */
  private readonly upgraded = new Map<string, Map<string, Set<string>>>();
  private readonly moved = new Set<string>();

  /** Notes a pod write of the SidecarSet controller that restarts a Ready pod's sidecars. */
  onChange(c: Change): void {
    if (c.object.kind !== 'Pod' || c.type !== 'modified' || c.source !== 'controller:SidecarSet') return;
    const before = hashes(c.old);
    const after = hashes(c.object);
    for (const [name, h] of Object.entries(after)) {
      if (before[name] === h || before[name] === undefined) continue;
      let byHash = this.upgraded.get(name);
      if (!byHash) {
        byHash = new Map();
        this.upgraded.set(name, byHash);
      }
      const keys = byHash.get(h) ?? new Set<string>();
      keys.add(c.key);
      byHash.set(h, keys);
      this.moved.add(name);
    }
    if (!ready(c.old) || containerImages(c.old as KubeObject) === containerImages(c.object)) return;
    for (const [name, h] of Object.entries(after)) {
      if (before[name] === h) continue;
      let set = this.down.get(name);
      if (!set) {
        set = new Set();
        this.down.set(name, set);
      }
      set.add(c.key);
      this.tookDown.add(name);
    }
  }

  /** One verdict per SidecarSet at this settle (judged when it took a pod down since the last one). */
  check(store: Store): Verdict[] {
    const out: Verdict[] = [];
    for (const ss of store.list('apps.kruise.io/v1alpha1', 'SidecarSet')) {
      const name = ss.metadata.name ?? '';
      const set = this.down.get(name);
      if (set)
        for (const k of [...set]) {
          const p = store.getByKey(k);
          if (!p || p.metadata.deletionTimestamp || ready(p)) set.delete(k);
        }
      const v: Verdict = { invariant: 'maxUnavailable', kind: 'SidecarSet', name, object: displayName(ss) };
      if (this.tookDown.has(name) && set) {
        const matched = ((ss.status ?? {}) as J).matchedPods ?? 0;
        const m = sidecarSetMaxUnavailable(ss, matched);
        if (set.size > m) {
          v.message = `the SidecarSet controller has ${set.size} of its ${matched} matched pods not ready after updating their sidecars, more than maxUnavailable ${m}`;
          v.pods = [...set].sort().map((k) => `Pod/${k.split('/').slice(2).join('/')}`);
        }
      }
      out.push(v);
      out.push(this.partitionVerdict(store, ss));
    }
    this.tookDown.clear();
    this.moved.clear();
    return out;
  }

  /** The partition verdict of one SidecarSet (failing only right after the controller upgraded a pod). */
  private partitionVerdict(store: Store, ss: KubeObject): Verdict {
    const name = ss.metadata.name ?? '';
    const v: Verdict = { invariant: 'partition', kind: 'SidecarSet', name, object: displayName(ss) };
    const current = ss.metadata.annotations?.[ANNOTATION_SIDECARSET_HASH];
    const keys = current ? this.upgraded.get(name)?.get(current) : undefined;
    if (!this.moved.has(name) || !keys) return v;
    for (const k of [...keys]) {
      const p = store.getByKey(k);
      if (!p || p.metadata.deletionTimestamp || hashes(p)[name] !== current) keys.delete(k);
    }
    const total = ((ss.status ?? {}) as J).matchedPods ?? 0;
    const P = sidecarSetPartition(ss, total);
    if (keys.size > Math.max(0, total - P)) {
      v.message = `the SidecarSet controller upgraded ${keys.size} of its ${total} matched pods, more than ${total} − partition ${P}`;
      v.pods = [...keys].sort().map((k) => `Pod/${k.split('/').slice(2).join('/')}`);
    }
    return v;
  }
}
