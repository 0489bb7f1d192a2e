// Invariants checked at every step of a run, for CloneSets:
// - maxUnavailable: whenever the controller takes a pod down, the pods it has
//   taken down do not exceed its budget (docs/reference/cloneset.md §6 D9: maxUnavailable +
//   surge pods). A pod counts as taken down when a controller action made it
//   unavailable (it was available just before), until it is available again; a
//   pod the controller deleted while available (or taken down) counts until a
//   replacement is available. Pods crashing, failing readiness or lost with their
//   node are the world's doing.
// - maxSurge: a controller never creates a pod beyond replicas + maxSurge
//   (PreparingDelete pods excluded under scaling-exclude-preparing-delete, §6 D10).
// - partition: while the current and update revisions differ, a controller never
//   moves pods to the update revision beyond replicas − partition (+ maxSurge) (§5.2).
// Availability is CloneSet's own rule (§4.2), implemented here independently
// of the controller so the check does not trust the code it checks.
import {
  type KubeObject,
  LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
} from '@kruise-ts/api';
import { legacyValueFromIntOrPercent, tryCalculatePartitionReplicas } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { SimContext } from './context';
import { displayName, objectKey } from './keys';
import type { Change } from './store';

/** The invariants the simulator knows. */
export type InvariantName = 'maxUnavailable' | 'maxSurge' | 'partition';
/** Every invariant name. */
export const INVARIANT_NAMES: readonly InvariantName[] = ['maxUnavailable', 'maxSurge', 'partition'];

/** One invariant to check, optionally restricted to one object. */
export interface InvariantConfig {
  name: InvariantName;
  /** Restrict to the CloneSet with this name (default: every CloneSet). */
  objectName?: string;
  namespace?: string;
}

/** One violation: when, what, and the objects involved. */
export interface Violation {
  t: number;
  time: string;
  invariant: InvariantName;
  object: string;
  message: string;
  pods: string[];
}

/** The outcome of one invariant over a run. */
export interface InvariantReport {
  name: InvariantName;
  objectName?: string;
  namespace?: string;
  checks: number;
  violations: Violation[];
}

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
 * CloneSet's `available(pod, minReadySeconds)` (docs/reference/cloneset.md §4.1–4.2). Computed each time:
 * a memo keyed by pod object (a WeakMap) cost more than this, in ephemeron upkeep for the GC,
 * since every write makes a new pod object.
 */
export function cloneSetPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  // The last two answers for minReadySeconds 0: on every write the timeline and the invariant
  // checker each ask about the old and the new version of the pod (stored pods are immutable).
  if (minReadySeconds === 0) {
    if (pod === recent.podA) return recent.a;
    if (pod === recent.podB) return recent.b;
  }
  const v = computeAvailable(pod, minReadySeconds, nowMs);
  if (minReadySeconds === 0) {
    recent.podB = recent.podA;
    recent.b = recent.a;
    recent.podA = pod;
    recent.a = v;
  }
  return v;
}

const recent: { podA?: Pod; a: boolean; podB?: Pod; b: boolean } = { a: false, b: false };

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

function safeLegacy(
  v: number | string | undefined,
  total: number,
  roundUp: boolean,
  dflt: number | string,
): number {
  try {
    return legacyValueFromIntOrPercent(v ?? dflt, total, roundUp);
  } catch {
    return 0;
  }
}

/** Resolved (maxSurge, maxUnavailable) of a CloneSet (§5.1). */
export function cloneSetBudget(cs: CloneSetLike): {
  maxSurge: number;
  maxUnavailable: number;
  partition: number;
} {
  const r = cs.spec.replicas ?? 1;
  const us = cs.spec.updateStrategy ?? {};
  const maxSurge = us.paused ? 0 : safeLegacy(us.maxSurge, r, true, 0);
  const maxUnavailable = safeLegacy(us.maxUnavailable, r, maxSurge === 0, '20%');
  const partition = tryCalculatePartitionReplicas(us.partition ?? null, r).value;
  return { maxSurge, maxUnavailable, partition };
}

/** Checks the configured invariants as the run goes. */
export class InvariantChecker {
  private trackers = new Map<string, Tracker>();
  private live = new Map<string, { active: number; available: number }>();
  /** CloneSet uid → store key (a pod write names its owner by uid). */
  private ownerKeys = new Map<string, string>();
  private reports: InvariantReport[];

  constructor(
    private readonly ctx: SimContext,
    configs: InvariantConfig[],
    private readonly onViolation: (v: Violation) => void = () => {},
  ) {
    this.reports = configs.map((c) => ({
      name: c.name,
      objectName: c.objectName,
      namespace: c.namespace,
      checks: 0,
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
    const byController = c.source.startsWith('controller:');
    const gone = c.type === 'deleted' || Boolean(c.object.metadata.deletionTimestamp);
    if (!byController && !gone) return;
    const owner = (c.object.metadata.ownerReferences ?? []).find(
      (r) => r.controller && r.kind === 'CloneSet',
    );
    if (!owner) return;
    let csKey = this.ownerKeys.get(owner.uid);
    if (csKey === undefined) {
      csKey = objectKey({
        apiVersion: owner.apiVersion,
        kind: 'CloneSet',
        metadata: { namespace: c.object.metadata.namespace, name: owner.name },
      });
      this.ownerKeys.set(owner.uid, csKey);
    }
    const cs = this.ctx.store.getByKey(csKey) as CloneSetLike | undefined;
    if (!cs) return;
    const t = this.tracker(csKey);
    const nowMs = this.ctx.clock.startEpochMs + this.ctx.clock.elapsedMs;
    const minReady = cs.spec.minReadySeconds ?? 0;
    const wasAvailable =
      c.old !== undefined &&
      !c.old.metadata.deletionTimestamp &&
      cloneSetPodAvailable(c.old as Pod, minReady, nowMs);
    if (gone) {
      const wasDown = t.down.delete(c.key);
      if (byController && (wasAvailable || wasDown) && !c.old?.metadata.deletionTimestamp) {
        const active = this.activePods(cs).length;
        if (active < (cs.spec.replicas ?? 1)) {
          t.debt++;
          t.tookDown = true;
        }
      }
      return;
    }
    if (!byController) return;
    if (c.type === 'added') t.created = true;
    const oldRev = c.old?.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    const newRev = c.object.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    if (c.type === 'added' || oldRev !== newRev) t.revisionMoved = true;
    // Made unavailable, or made to restart (a container image changed): the kubelet will take it down.
    if (
      wasAvailable &&
      (!cloneSetPodAvailable(c.object as Pod, minReady, nowMs) ||
        imagesChanged(c.old as Pod, c.object as Pod))
    ) {
      t.down.add(c.key);
      t.tookDown = true;
    }
  }

  /** Evaluates every invariant now (after a step has settled). */
  check(): void {
    if (this.reports.length === 0) return;
    const nowMs = this.ctx.clock.startEpochMs + this.ctx.clock.elapsedMs;
    for (const cs of this.ctx.store.list('apps.kruise.io/v1alpha1', 'CloneSet') as CloneSetLike[]) {
      const key = objectKey(cs);
      const t = this.tracker(key);
      let listed: Pod[] | undefined;
      const pods = () => {
        listed ??= this.activePods(cs);
        return listed;
      };
      const r = cs.spec.replicas ?? 1;
      const minReady = cs.spec.minReadySeconds ?? 0;
      const budget = cloneSetBudget(cs);
      const { active, available } = this.counts(cs, minReady, nowMs, pods);
      for (const k of [...t.down]) {
        const p = this.ctx.store.getByKey(k) as Pod | undefined;
        if (!p || cloneSetPodAvailable(p, minReady, nowMs)) t.down.delete(k);
      }
      t.debt = Math.min(t.debt, Math.max(0, r - available));
      for (const rep of this.reports) {
        if (rep.objectName && rep.objectName !== cs.metadata.name) continue;
        if (rep.namespace && rep.namespace !== (cs.metadata.namespace ?? 'default')) continue;
        rep.checks++;
        let msg: string | undefined;
        let involved: string[] = [];
        if (rep.name === 'maxUnavailable' && t.tookDown) {
          // Judged when the controller takes a pod down: a budget that shrinks later (the user
          // lowers replicas) does not turn earlier, legitimate take-downs into violations.
          const allowed = budget.maxUnavailable + Math.max(0, active - r);
          const down = t.down.size + t.debt;
          if (down > allowed) {
            involved = [...t.down].sort().map((k) => `Pod/${k.split('/').slice(2).join('/')}`);
            msg = `the controller has ${down} pod(s) down (${t.down.size} unavailable${t.debt ? `, ${t.debt} deleted and not yet replaced` : ''}) but may take down at most ${allowed} (maxUnavailable ${budget.maxUnavailable}${active > r ? ` + ${active - r} surge` : ''})`;
          }
        } else if (rep.name === 'maxSurge' && t.created) {
          const excl = cs.metadata.labels?.[LABEL_CLONESET_SCALING_EXCLUDE_PREPARING_DELETE] === 'true';
          const counted = excl
            ? pods().filter((p) => p.metadata?.labels?.[LABEL_LIFECYCLE_STATE] !== 'PreparingDelete')
            : pods();
          if (counted.length > r + budget.maxSurge) {
            involved = counted.map((p) => displayName(p as KubeObject));
            msg = `${counted.length} pods exist after the controller created pods, more than replicas ${r} + maxSurge ${budget.maxSurge}`;
          }
        } else if (
          rep.name === 'partition' &&
          t.revisionMoved &&
          cs.status?.currentRevision !== cs.status?.updateRevision
        ) {
          const updated = pods().filter((p) => hashEquals(p, cs.status?.updateRevision));
          const allowed = Math.max(0, r - budget.partition) + budget.maxSurge;
          if (updated.length > allowed) {
            involved = updated.map((p) => displayName(p as KubeObject));
            msg = `${updated.length} pods are at the update revision ${cs.status?.updateRevision}, more than replicas ${r} − partition ${budget.partition}${budget.maxSurge ? ` + maxSurge ${budget.maxSurge}` : ''}`;
          }
        }
        const prev = t.lastViolation[rep.name];
        if (msg && msg !== prev && rep.violations.length < 100) {
          const v: Violation = {
            t: this.ctx.clock.elapsedMs / 1000,
            time: this.ctx.clock.now(),
            invariant: rep.name,
            object: displayName(cs),
            message: msg,
            pods: involved,
          };
          rep.violations.push(v);
          this.onViolation(v);
        }
        t.lastViolation[rep.name] = msg;
      }
      t.created = false;
      t.revisionMoved = false;
      t.tookDown = false;
    }
  }

  /**
   * Live counts per owner uid of the active pods and of those available with minReadySeconds 0
   * (what `activePods` + `cloneSetPodAvailable` would count), kept from every pod write so a check
   * walks the pods only for the invariants that need them.
   */
  private countLive(pod: Pod, sign: number): void {
    const refs = pod.metadata?.ownerReferences;
    if (!refs || !isActivePod(pod)) return;
    const available = cloneSetPodAvailable(pod, 0, 0);
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
    for (let i = 0; i < all.length; i++) if (cloneSetPodAvailable(all[i], minReady, nowMs)) available++;
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

/** `true` when `name` is an invariant the simulator knows. */
export function isInvariantName(name: unknown): name is InvariantName {
  return typeof name === 'string' && (INVARIANT_NAMES as readonly string[]).includes(name);
}
