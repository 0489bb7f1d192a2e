// The timeline: after every step, for each workload, the number of its pods
// by revision and readiness, its available pods and desired replicas. A
// sample is kept only when something changed. It feeds the HTML chart and the
// summary's "lowest availability and when".
import type { KubeObject } from '@kruise-ts/api';
import { LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { cloneSetPodAvailable } from '../invariants';
import { displayName } from '../keys';
import type { Store } from '../store';

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

/** Records workload samples as the run goes. */
export class Timeline {
  readonly workloads = new Map<string, WorkloadTimeline>();

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
      if (cloneSetPodAvailable(pod, spec.minReadySeconds ?? 0, nowMs)) available++;
    }
    const s: TimelineSample = { t, byRevision, terminating, available, desired };
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
