// The timeline: after every step, for each workload, the number of its pods
// by revision and readiness, its available pods and desired replicas. A
// sample is kept only when something changed. It feeds the HTML chart and the
// summary's "lowest availability and when". The counts are kept up to date from
// the store's change notifications (each write adjusts its pod's owners), so a
// sample reads counters instead of walking every pod; a walk is still taken when
// availability depends on time (minReadySeconds) or a new revision appears.
import type { KubeObject } from '@kruise-ts/api';
import { LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { cloneSetPodAvailable, sameCountedInputs } from '../invariants';
import { displayName } from '../keys';
import type { Change, Store } from '../store';

/** Pods of one revision. */
export interface RevisionCount {
  ready: number;
  notReady: number;
}

/** One sample of one workload. */
export interface TimelineSample {
  /** Simulated seconds. */
  t: number;
  /** Active pods by revision (`controller-revision-hash`). */
  byRevision: Record<string, RevisionCount>;
  /** Terminating pods. */
  terminating: number;
  available: number;
  desired: number;
}

/** The timeline of one workload. */
export interface WorkloadTimeline {
  object: string;
  /** Revisions in order of first appearance. */
  revisions: string[];
  samples: TimelineSample[];
  /** When the workload first had all desired pods available. */
  fullyAvailableAt?: number;
  /** The lowest availability after that moment. */
  lowest?: { available: number; desired: number; t: number };
}

/** Workload kinds the timeline follows (their pods are found through ownerReferences). */
const WORKLOADS: { apiVersion: string; kind: string }[] = [
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
];

/** Live counts of the pods one owner uid lists (what a full walk would count, minReadySeconds 0). */
interface LiveCounts {
  byRevision: Map<string, RevisionCount>;
  terminating: number;
  /** Available with minReadySeconds 0. */
  available: number;
}

/** Records workload samples as the run goes. */
export class Timeline {
  readonly workloads = new Map<string, WorkloadTimeline>();
  private readonly live = new Map<string, LiveCounts>();

  /** Keeps the live counts in step with a store write (call it for every change). */
  onChange(c: Change): void {
    if (c.object.kind !== 'Pod') return;
    // Most writes (a container's status, an annotation) leave everything counted as it was.
    if (c.type === 'modified' && c.old !== undefined && sameCountedInputs(c.old as Pod, c.object as Pod))
      return;
    if (c.old !== undefined) this.count(c.old as Pod, -1);
    if (c.type !== 'deleted') this.count(c.object as Pod, 1);
  }

  private count(pod: Pod, sign: number): void {
    const refs = pod.metadata?.ownerReferences;
    if (!refs) return;
    for (let i = 0; i < refs.length; i++) {
      const uid = refs[i].uid;
      if (!uid) continue;
      let lc = this.live.get(uid);
      if (!lc) {
        lc = { byRevision: new Map(), terminating: 0, available: 0 };
        this.live.set(uid, lc);
      }
      if (pod.metadata?.deletionTimestamp) {
        lc.terminating += sign;
        continue;
      }
      const rev = pod.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
      let rc = lc.byRevision.get(rev);
      if (!rc) {
        rc = { ready: 0, notReady: 0 };
        lc.byRevision.set(rev, rc);
      }
      if (isReady(pod)) rc.ready += sign;
      else rc.notReady += sign;
      if (cloneSetPodAvailable(pod, 0, 0)) lc.available += sign;
    }
  }

  /** Takes a sample of every workload at `t` seconds (`nowMs` epoch ms for availability). */
  sample(store: Store, t: number, nowMs: number): void {
    for (const w of WORKLOADS) {
      for (const obj of store.list(w.apiVersion, w.kind)) this.sampleOne(store, obj, t, nowMs);
    }
  }

  private sampleOne(store: Store, obj: KubeObject, t: number, nowMs: number): void {
    const name = displayName(obj);
    let wt = this.workloads.get(name);
    if (!wt) {
      wt = { object: name, revisions: [], samples: [] };
      this.workloads.set(name, wt);
    }
    const spec = (obj.spec ?? {}) as { replicas?: number; minReadySeconds?: number };
    const desired = spec.replicas ?? 1;
    const counted = (spec.minReadySeconds ?? 0) > 0 ? undefined : this.liveSample(obj, wt);
    const s = counted ?? this.walk(store, obj, wt, spec.minReadySeconds ?? 0, nowMs);
    this.record(wt, { t, ...s, desired });
  }

  /**
   * The sample from the live counts, or undefined when a walk is needed: a revision not seen
   * before must enter `revisions` in the order a walk over the pods (by key) meets it.
   */
  private liveSample(
    obj: KubeObject,
    wt: WorkloadTimeline,
  ): Omit<TimelineSample, 't' | 'desired'> | undefined {
    const lc = obj.metadata.uid ? this.live.get(obj.metadata.uid) : undefined;
    const byRevision: Record<string, RevisionCount> = {};
    if (lc)
      for (const [rev, rc] of lc.byRevision) {
        if (rc.ready + rc.notReady === 0) continue;
        if (!wt.revisions.includes(rev)) return undefined;
        byRevision[rev] = { ready: rc.ready, notReady: rc.notReady };
      }
    return { byRevision, terminating: lc?.terminating ?? 0, available: lc?.available ?? 0 };
  }

  /** The sample by walking the workload's pods (in key order). */
  private walk(
    store: Store,
    obj: KubeObject,
    wt: WorkloadTimeline,
    minReadySeconds: number,
    nowMs: number,
  ): Omit<TimelineSample, 't' | 'desired'> {
    const byRevision: Record<string, RevisionCount> = {};
    let available = 0;
    let terminating = 0;
    const owned = obj.metadata.uid ? store.listOwnedBy(obj.metadata.uid) : [];
    for (let i = 0; i < owned.length; i++) {
      const o = owned[i];
      if (o.kind !== 'Pod') continue;
      const pod = o as Pod;
      if (o.metadata.deletionTimestamp) {
        terminating++;
        continue;
      }
      const rev = pod.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
      if (!wt.revisions.includes(rev)) wt.revisions.push(rev);
      if (!byRevision[rev]) byRevision[rev] = { ready: 0, notReady: 0 };
      const c = byRevision[rev];
      const ready = isReady(pod);
      if (ready) c.ready++;
      else c.notReady++;
      if (cloneSetPodAvailable(pod, minReadySeconds, nowMs)) available++;
    }
    return { byRevision, terminating, available };
  }

  /** Keeps a sample when it differs from the last one; tracks full availability and the lowest point. */
  private record(wt: WorkloadTimeline, s: TimelineSample): void {
    const { t, available, desired } = s;
    const last = wt.samples[wt.samples.length - 1];
    if (last && sameCounts(last, s)) return;
    wt.samples.push(s);
    if (wt.fullyAvailableAt === undefined) {
      if (desired > 0 && available >= desired) {
        wt.fullyAvailableAt = t;
        wt.lowest = { available, desired, t };
      }
    } else if (
      !wt.lowest ||
      available / Math.max(desired, 1) < wt.lowest.available / Math.max(wt.lowest.desired, 1)
    ) {
      wt.lowest = { available, desired, t };
    }
  }
}

/** The pod's Ready condition is True (a plain loop: this runs for every pod of every sample). */
function isReady(pod: Pod): boolean {
  const conds = pod.status?.conditions;
  if (!conds) return false;
  for (let i = 0; i < conds.length; i++)
    if (conds[i].type === 'Ready' && conds[i].status === 'True') return true;
  return false;
}

function sameCounts(a: TimelineSample, b: TimelineSample): boolean {
  if (a.available !== b.available || a.desired !== b.desired || a.terminating !== b.terminating) return false;
  const ka = Object.keys(a.byRevision);
  const kb = Object.keys(b.byRevision);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      b.byRevision[k] &&
      a.byRevision[k].ready === b.byRevision[k].ready &&
      a.byRevision[k].notReady === b.byRevision[k].notReady,
  );
}
