// The invariant checker: judges, at every settle of a run, that each workload's controller stays
// inside its own rollout budget. Pods crashing, failing readiness or lost with their node are the
// world's doing and never count. Per kind (the budgets: invariantBudgets.ts):
// - maxUnavailable (CloneSet, Advanced StatefulSet, Advanced DaemonSet): whenever the controller
//   takes a pod down, the pods it has taken down do not exceed its budget (docs/reference/cloneset.md
//   §6 D9: maxUnavailable + surge pods; statefulset.md §R8.3; daemonset.md §7.1, not judged while a
//   DaemonSet surges, as §7.4 ignores maxUnavailable then). A pod counts as taken down when a
//   controller action made it unavailable (it was available just before) or changed its images,
//   until it is available again; a pod the controller deleted while available counts until a
//   replacement is available (only while fewer than the desired pods remain, so scale-downs and
//   surplus pods never count). A pod that was already unavailable is replaced for free, as every
//   one of these controllers does (cloneset.md §6, statefulset.md §R10.1, daemonset.md §7.3 U4).
//   SidecarSet's is in invariantSidecarSet.ts.
// - maxSurge: a CloneSet never creates a pod beyond replicas + maxSurge (PreparingDelete pods
//   excluded under scaling-exclude-preparing-delete, §6 D10); a DaemonSet keeps at most two pods on
//   a node and surges on at most maxSurge nodes at once, a node whose old pod is not available not
//   counting (daemonset.md §7.4 S3 creates there at once).
// - partition: while the current and update revisions differ, a controller never moves pods to the
//   update revision beyond replicas − partition (+ maxSurge) (cloneset.md §5.2, statefulset.md §R9.1).
// - ordering: Advanced StatefulSet under OrderedReady (invariantOrdering.ts).
// - subsetSums: UnitedDeployment (invariantUnitedDeployment.ts).
// - parallelism: ImagePullJob (invariantImagePull.ts).
// Availability is CloneSet's own rule (§4.2), which the StatefulSet (§R6.6) and DaemonSet rules
// share, implemented here independently of the controllers so the check does not trust the code
// it checks.
import {
  type KubeObject,
  LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
} from '@kruise-ts/api';
import { type Change, displayName, groupOf, objectKey, type SimContext } from '@kruise-ts/cluster';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { AvailabilityMemo } from './availabilityMemo';
import { BUDGET_KINDS, type BudgetKind, workloadBudget } from './invariantBudgets';
import { ImagePullParallelism } from './invariantImagePull';
import { orderingViolation } from './invariantOrdering';
import { SidecarSetBudget } from './invariantSidecarSet';
import {
  INVARIANT_KINDS,
  type InvariantConfig,
  type InvariantName,
  type InvariantReport,
  type Verdict,
  type Violation,
} from './invariantTypes';
import { checkSubsetSums } from './invariantUnitedDeployment';

export {
  INVARIANT_KINDS,
  INVARIANT_NAMES,
  type InvariantConfig,
  type InvariantName,
  type InvariantReport,
  isInvariantName,
  type Verdict,
  type Violation,
} from './invariantTypes';

interface Tracker {
  /** Pods (keys) a controller took down, still unavailable. */
  down: Set<string>;
  /** Pods deleted by the controller while available, not yet replaced. */
  debt: number;
  /** A controller moved or created a pod at a revision since the last check. */
  revisionMoved: boolean;
  /** A controller created a pod since the last check. */
  created: boolean;
  /** A controller took a pod down (or deleted an available one) since the last check. */
  tookDown: boolean;
  /** An OrderedReady creation out of order since the last check (StatefulSet). */
  outOfOrder?: string;
  lastViolation: Partial<Record<InvariantName, string>>;
}

interface CloneSetLike extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    updateStrategy?: {
      partition?: number | string;
      maxUnavailable?: number | string;
      maxSurge?: number | string;
      paused?: boolean;
    };
  };
  status?: { updateRevision?: string; currentRevision?: string };
}

/**
 * CloneSet's `available(pod, minReadySeconds)` (docs/reference/cloneset.md §4.1–4.2). With a
 * `memo`, an answer for minReadySeconds 0 about a pod object asked about just before is reused
 * (the timeline and the checker share one per simulation); without one it is computed each time,
 * with the same result. A memo keyed by every pod object (a WeakMap) cost more than computing, in
 * ephemeron upkeep for the GC, since every write makes a new pod object.
 */
export function cloneSetPodAvailable(
  pod: Pod,
  minReadySeconds: number,
  nowMs: number,
  memo?: AvailabilityMemo,
): boolean {
  if (memo === undefined || minReadySeconds !== 0) return computeAvailable(pod, minReadySeconds, nowMs);
  const known = memo.get(pod);
  if (known !== undefined) return known;
  const v = computeAvailable(pod, 0, nowMs);
  memo.remember(pod, v);
  return v;
}

function computeAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  const state = pod.metadata?.labels?.[LABEL_LIFECYCLE_STATE] ?? '';
  if (state !== '' && state !== 'Normal') return false;
  const status = pod.status;
  if (status?.phase !== 'Running') return false;
  const conds = status.conditions ?? [];
  let ready: (typeof conds)[number] | undefined;
  let ipu: (typeof conds)[number] | undefined;
  for (let i = 0; i < conds.length; i++) {
    const c = conds[i];
    if (c.type === 'Ready') ready ??= c;
    else if (c.type === 'InPlaceUpdateReady') ipu ??= c;
  }
  if (ready?.status !== 'True') return false;
  if (minReadySeconds > 0) {
    const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : Number.NaN;
    if (!Number.isFinite(since) || !(since + minReadySeconds * 1000 < nowMs)) return false;
  }
  return !ipu || ipu.status === 'True';
}

/** `hashEquals` (§4.3): equal, or the same text after the last `-`. */
function hashEquals(pod: Pod, rev: string | undefined): boolean {
  if (!rev) return false;
  const h = pod.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
  if (h === rev) return true;
  return h.slice(h.lastIndexOf('-') + 1) === rev.slice(rev.lastIndexOf('-') + 1);
}

/** Resolved (maxSurge, maxUnavailable, partition) of a CloneSet (§5.1). */
export function cloneSetBudget(cs: CloneSetLike): {
  maxSurge: number;
  maxUnavailable: number;
  partition: number;
} {
  const { maxSurge, maxUnavailable, partition } = workloadBudget('CloneSet', cs);
  return { maxSurge, maxUnavailable, partition };
}

/** Checks the configured invariants as the run goes. */
export class InvariantChecker {
  private trackers = new Map<string, Tracker>();
  private live = new Map<string, { active: number; available: number }>();
  /** Workload uid → its kind and store key (a pod write names its owner by uid). */
  private ownerKeys = new Map<string, { kind: BudgetKind; key: string }>();
  private reports: InvariantReport[];
  private readonly sidecarSets = new SidecarSetBudget();
  private readonly imagePulls = new ImagePullParallelism();
  /** The verdict that failed last, per invariant and object (a violation is recorded once per episode). */
  private readonly lastFailed = new Map<string, string | undefined>();

  /**
   * `availability` remembers the last availability answers; a simulation passes the memo its
   * timeline uses too, so the two ask about each pod write once between them.
   */
  constructor(
    private readonly ctx: SimContext,
    configs: InvariantConfig[],
    private readonly onViolation: (v: Violation) => void = () => {},
    private readonly availability: AvailabilityMemo = new AvailabilityMemo(),
  ) {
    this.reports = configs.map((c) => ({
      name: c.name,
      objectName: c.objectName,
      namespace: c.namespace,
      kind: c.kind,
      checks: 0,
      checksByKind: {},
      violations: [],
    }));
  }

  /** The reports so far. */
  results(): InvariantReport[] {
    return this.reports;
  }

  /** Tracks controller take-downs from the store's change notifications. */
  onChange(c: Change): void {
    if (this.reports.length === 0 || c.object.kind !== 'Pod') return;
    if (!(c.type === 'modified' && c.old !== undefined && sameCountedInputs(c.old as Pod, c.object as Pod))) {
      if (c.old !== undefined) this.countLive(c.old as Pod, -1);
      if (c.type !== 'deleted') this.countLive(c.object as Pod, 1);
    }
    this.sidecarSets.onChange(c);
    const byController = c.source.startsWith('controller:');
    const gone = c.type === 'deleted' || Boolean(c.object.metadata.deletionTimestamp);
    if (!byController && !gone) return;
    const owner = (c.object.metadata.ownerReferences ?? []).find(
      (r) =>
        r.controller &&
        groupOf(r.apiVersion) === 'apps.kruise.io' &&
        BUDGET_KINDS.some((k) => k.kind === r.kind),
    );
    if (!owner) return;
    let ok = this.ownerKeys.get(owner.uid);
    if (ok === undefined) {
      ok = {
        kind: owner.kind as BudgetKind,
        key: objectKey({
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          metadata: { namespace: c.object.metadata.namespace, name: owner.name },
        }),
      };
      this.ownerKeys.set(owner.uid, ok);
    }
    const w = this.ctx.store.getByKey(ok.key) as CloneSetLike | undefined;
    if (!w) return;
    const t = this.tracker(ok.key);
    const nowMs = this.ctx.clock.startEpochMs + this.ctx.clock.elapsedMs;
    const minReady = w.spec.minReadySeconds ?? 0;
    const wasAvailable =
      c.old !== undefined &&
      !c.old.metadata.deletionTimestamp &&
      cloneSetPodAvailable(c.old as Pod, minReady, nowMs, this.availability);
    if (gone) {
      const wasDown = t.down.delete(c.key);
      if (byController && (wasAvailable || wasDown) && !c.old?.metadata.deletionTimestamp) {
        const active = this.activePods(w).length;
        if (active < workloadBudget(ok.kind, w).replicas) {
          t.debt++;
          t.tookDown = true;
        }
      }
      return;
    }
    if (!byController) return;
    if (c.type === 'added') {
      t.created = true;
      if (ok.kind === 'StatefulSet' && t.outOfOrder === undefined)
        t.outOfOrder = orderingViolation(w, c.object as Pod, this.activePods(w), (p) =>
          cloneSetPodAvailable(p, minReady, nowMs, this.availability),
        );
    }
    const oldRev = c.old?.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    const newRev = c.object.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    if (c.type === 'added' || oldRev !== newRev) t.revisionMoved = true;
    // Made unavailable, or made to restart (a container image changed): the kubelet will take it down.
    if (
      wasAvailable &&
      (!cloneSetPodAvailable(c.object as Pod, minReady, nowMs, this.availability) ||
        imagesChanged(c.old as Pod, c.object as Pod))
    ) {
      t.down.add(c.key);
      t.tookDown = true;
    }
  }

  /** Evaluates every invariant now (after a step has settled). */
  check(): void {
    if (this.reports.length === 0) return;
    const verdicts: Verdict[] = [];
    for (const { kind, apiVersion } of BUDGET_KINDS)
      for (const w of this.ctx.store.list(apiVersion, kind) as CloneSetLike[])
        verdicts.push(...this.judgeWorkload(kind, w));
    verdicts.push(
      ...this.sidecarSets.check(this.ctx.store),
      ...checkSubsetSums(this.ctx.store),
      ...this.imagePulls.check(this.ctx.store),
    );
    for (const v of verdicts) this.record(v);
  }

  /** Applies one verdict to the reports that ask for it. */
  private record(v: Verdict): void {
    const episode = `${v.invariant}|${v.object}`;
    const prev = this.lastFailed.get(episode);
    let recorded = false;
    for (const rep of this.reports) {
      if (rep.name !== v.invariant) continue;
      if (rep.kind && rep.kind !== v.kind) continue;
      if (rep.objectName && rep.objectName !== v.name) continue;
      if (rep.namespace && v.namespace !== undefined && rep.namespace !== v.namespace) continue;
      rep.checks++;
      rep.checksByKind[v.kind] = (rep.checksByKind[v.kind] ?? 0) + 1;
      if (v.message && v.message !== prev && rep.violations.length < 100) {
        const violation: Violation = {
          t: this.ctx.clock.elapsedMs / 1000,
          time: this.ctx.clock.now(),
          invariant: v.invariant,
          object: v.object,
          message: v.message,
          pods: v.pods ?? [],
        };
        rep.violations.push(violation);
        if (!recorded) this.onViolation(violation);
        recorded = true;
      }
    }
    this.lastFailed.set(episode, v.message);
  }

  /** The verdicts of one CloneSet, Advanced StatefulSet or Advanced DaemonSet at this settle. */
  private judgeWorkload(kind: BudgetKind, w: CloneSetLike): Verdict[] {
    const nowMs = this.ctx.clock.startEpochMs + this.ctx.clock.elapsedMs;
    const key = objectKey(w);
    const t = this.tracker(key);
    let listed: Pod[] | undefined;
    const pods = () => {
      listed ??= this.activePods(w);
      return listed;
    };
    const budget = workloadBudget(kind, w);
    const r = budget.replicas;
    const minReady = w.spec.minReadySeconds ?? 0;
    const { active, available } = this.counts(w, minReady, nowMs, pods);
    for (const k of [...t.down]) {
      const p = this.ctx.store.getByKey(k) as Pod | undefined;
      if (!p || cloneSetPodAvailable(p, minReady, nowMs, this.availability)) t.down.delete(k);
    }
    t.debt = Math.min(t.debt, Math.max(0, r - available));
    const base = {
      kind,
      namespace: w.metadata.namespace ?? 'default',
      name: w.metadata.name ?? '',
      object: displayName(w),
    };
    const out: Verdict[] = [];
    const names = (['maxUnavailable', 'maxSurge', 'partition', 'ordering'] as const).filter(
      (n) => INVARIANT_KINDS[n].includes(kind) && (n !== 'maxUnavailable' || budget.unavailableApplies),
    );
    for (const name of names) {
      const v: Verdict = { invariant: name, ...base };
      out.push(v);
      if (name === 'maxUnavailable' && t.tookDown) {
        // Judged when the controller takes a pod down: a budget that shrinks later (the user
        // lowers replicas) does not turn earlier, legitimate take-downs into violations.
        const allowed = budget.maxUnavailable + Math.max(0, active - r);
        const down = t.down.size + t.debt;
        if (down > allowed) {
          v.pods = [...t.down].sort().map((k) => `Pod/${k.split('/').slice(2).join('/')}`);
          v.message = `the controller has ${down} pod(s) down (${t.down.size} unavailable${t.debt ? `, ${t.debt} deleted and not yet replaced` : ''}) but may take down at most ${allowed} (maxUnavailable ${budget.maxUnavailable}${active > r ? ` + ${active - r} surge` : ''})`;
        }
      } else if (name === 'maxSurge' && t.created) {
        const m =
          kind === 'DaemonSet'
            ? daemonSurge(w, pods(), budget.maxSurge, minReady, nowMs, this.availability)
            : undefined;
        if (m) {
          v.message = m.message;
          v.pods = m.pods;
        } else if (kind === 'CloneSet') {
          const excl = w.metadata.labels?.[LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE] === 'true';
          const counted = excl
            ? pods().filter((p) => p.metadata?.labels?.[LABEL_LIFECYCLE_STATE] !== 'PreparingDelete')
            : pods();
          if (counted.length > r + budget.maxSurge) {
            v.pods = counted.map((p) => displayName(p as KubeObject));
            v.message = `${counted.length} pods exist after the controller created pods, more than replicas ${r} + maxSurge ${budget.maxSurge}`;
          }
        }
      } else if (
        name === 'partition' &&
        t.revisionMoved &&
        w.status?.currentRevision !== w.status?.updateRevision
      ) {
        const updated = pods().filter((p) =>
          kind === 'CloneSet'
            ? hashEquals(p, w.status?.updateRevision)
            : p.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] === w.status?.updateRevision,
        );
        const allowed = Math.max(0, r - budget.partition) + budget.maxSurge;
        if (updated.length > allowed) {
          v.pods = updated.map((p) => displayName(p as KubeObject));
          v.message = `${updated.length} pods are at the update revision ${w.status?.updateRevision}, more than replicas ${r} − partition ${budget.partition}${budget.maxSurge ? ` + maxSurge ${budget.maxSurge}` : ''}`;
        }
      } else if (name === 'ordering' && t.outOfOrder) {
        v.message = t.outOfOrder;
      }
    }
    t.created = false;
    t.revisionMoved = false;
    t.tookDown = false;
    t.outOfOrder = undefined;
    return out;
  }

  /**
   * Live counts per owner uid of the active pods and of those available with minReadySeconds 0
   * (what `activePods` + `cloneSetPodAvailable` would count), kept from every pod write so a check
   * walks the pods only for the invariants that need them.
   */
  private countLive(pod: Pod, sign: number): void {
    const refs = pod.metadata?.ownerReferences;
    if (!refs || !isActivePod(pod)) return;
    const available = cloneSetPodAvailable(pod, 0, 0, this.availability);
    for (let i = 0; i < refs.length; i++) {
      const uid = refs[i].uid;
      if (!uid) continue;
      let lc = this.live.get(uid);
      if (!lc) {
        lc = { active: 0, available: 0 };
        this.live.set(uid, lc);
      }
      lc.active += sign;
      if (available) lc.available += sign;
    }
  }

  /** Active pods and available ones now: from the live counts, or by a walk when time matters. */
  private counts(cs: CloneSetLike, minReady: number, nowMs: number, pods: () => Pod[]) {
    const lc = cs.metadata.uid ? this.live.get(cs.metadata.uid) : undefined;
    if (minReady === 0) return { active: lc?.active ?? 0, available: lc?.available ?? 0 };
    const all = pods();
    let available = 0;
    for (let i = 0; i < all.length; i++)
      if (cloneSetPodAvailable(all[i], minReady, nowMs, this.availability)) available++;
    return { active: all.length, available };
  }

  private activePods(cs: CloneSetLike): Pod[] {
    const uid = cs.metadata.uid;
    if (!uid) return [];
    const out: Pod[] = [];
    const owned = this.ctx.store.listOwnedBy(uid);
    for (let i = 0; i < owned.length; i++) {
      const o = owned[i];
      if (o.kind === 'Pod' && isActivePod(o as Pod)) out.push(o as Pod);
    }
    return out;
  }

  private tracker(key: string): Tracker {
    let t = this.trackers.get(key);
    if (!t) {
      t = {
        down: new Set(),
        debt: 0,
        revisionMoved: false,
        created: false,
        tookDown: false,
        lastViolation: {},
      };
      this.trackers.set(key, t);
    }
    return t;
  }
}

/**
 * True when two versions of a pod agree on everything the live counts read: owners, deletion,
 * labels (revision, lifecycle state), phase and conditions (compared by identity: the store
 * keeps the unchanged parts of an object when it writes a new version).
 */
export function sameCountedInputs(a: Pod, b: Pod): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  return (
    ma?.ownerReferences === mb?.ownerReferences &&
    ma?.deletionTimestamp === mb?.deletionTimestamp &&
    ma?.labels === mb?.labels &&
    a.status?.phase === b.status?.phase &&
    a.status?.conditions === b.status?.conditions
  );
}

/** §1 step 4: not Succeeded/Failed and no deletionTimestamp. */
function isActivePod(pod: Pod): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

function imagesChanged(a: Pod, b: Pod): boolean {
  const ca = a.spec?.containers ?? [];
  const cb = b.spec?.containers ?? [];
  if (ca === cb) return false;
  if (ca.length !== cb.length) return true;
  for (let i = 0; i < ca.length; i++) if (ca[i].image !== cb[i].image) return true;
  return false;
}

/**
 * DaemonSet surge per node (daemonset.md §7.4): no node holds more than two of its pods, and at
 * most maxSurge nodes hold two while their old pod is still available (S3 creates at once where
 * it is not, whatever the budget). `memo` as for `cloneSetPodAvailable`.
 */
export function daemonSurge(
  ds: CloneSetLike,
  pods: readonly Pod[],
  maxSurge: number,
  minReady: number,
  nowMs: number,
  memo?: AvailabilityMemo,
): { message: string; pods: string[] } | undefined {
  const byNode = new Map<string, Pod[]>();
  for (const p of pods) {
    const node = daemonPodNode(p);
    if (!node) continue;
    const list = byNode.get(node) ?? [];
    list.push(p);
    byNode.set(node, list);
  }
  const hash = (ds.status as { daemonSetHash?: string } | undefined)?.daemonSetHash;
  const crowded: string[] = [];
  const surging: string[] = [];
  for (const [node, list] of [...byNode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (list.length > 2) crowded.push(node);
    else if (list.length === 2) {
      const old = list.filter((p) => p.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] !== hash);
      if (old.length > 0 && old.every((p) => cloneSetPodAvailable(p, minReady, nowMs, memo)))
        surging.push(node);
    }
  }
  if (crowded.length)
    return {
      message: `node(s) ${crowded.join(', ')} hold more than two of the DaemonSet's pods`,
      pods: crowded.flatMap((n) => (byNode.get(n) ?? []).map((p) => displayName(p as KubeObject))),
    };
  if (surging.length > maxSurge)
    return {
      message: `${surging.length} nodes run a new pod next to an available old one, more than maxSurge ${maxSurge}`,
      pods: surging.flatMap((n) => (byNode.get(n) ?? []).map((p) => displayName(p as KubeObject))),
    };
  return undefined;
}

/** The node a daemon pod is bound to: its nodeName, or the node its affinity names (§6). */
function daemonPodNode(p: Pod): string | undefined {
  if (p.spec?.nodeName) return p.spec.nodeName;
  for (const term of p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? [])
    for (const f of term.matchFields ?? [])
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  return undefined;
}
