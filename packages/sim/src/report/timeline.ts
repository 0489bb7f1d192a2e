// The timeline: after every settle, for each workload, its pods counted by group (revision, subset,
// sidecar revision or pull state) and readiness, its available pods and desired count, and, while
// it has at most MAX_LANES pods, one lane per pod (or ordinal, or node) with the state it was in
// over time. A sample is kept only when something changed. It feeds the HTML charts and the
// summary's "lowest availability and when". What each kind's story is:
// - CloneSet: pods by revision, lanes by pod;
// - Advanced StatefulSet: pods by revision, lanes by ordinal;
// - Advanced DaemonSet: pods by revision against desiredNumberScheduled, lanes by node;
// - UnitedDeployment: pods by subset against spec.replicas (the total), lanes by pod;
// - SidecarSet: the matched pods by the sidecar revision (hash) they carry, ready or not, lanes by pod;
// - ImagePullJob / ImageListPullJob: nodes pulled (succeeded), pulling (active) and failed against
//   desired, over time (no availability);
// - ContainerRecreateRequest: the requests by phase, lanes by request.
// For owner-based kinds the counts are kept up to date from the store's change notifications (each
// write adjusts its pod's owners), so a sample reads counters instead of walking every pod; a walk
// is still taken when availability depends on time (minReadySeconds), a new revision appears, or
// lanes are drawn.
import type { KubeObject } from '@kruise-ts/api';
import {
  ANNOTATION_SIDECARSET_HASH,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_SUBSET_NAME,
} from '@kruise-ts/api';
import { type Change, displayName, type Store } from '@kruise-ts/cluster';
import { matchesLabelSelector } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { AvailabilityMemo } from '../availabilityMemo';
import { cloneSetPodAvailable, sameCountedInputs } from '../invariants';

/** Pods (or nodes, or requests) of one group. */
export interface RevisionCount {
  ready: number;
  notReady: number;
}

/** One sample of one workload. */
export interface TimelineSample {
  /** Simulated seconds. */
  t: number;
  /** Counts by group: revision (`controller-revision-hash`), subset, sidecar hash, pull state or phase. */
  byRevision: Record<string, RevisionCount>;
  /** Terminating pods. */
  terminating: number;
  available: number;
  desired: number;
}

/** What the groups of a timeline are. */
export type TimelineGroupBy = 'revision' | 'subset' | 'sidecar revision' | 'pull state' | 'phase';
/** What one lane stands for. */
export type TimelineLaneBy = 'pod' | 'ordinal' | 'node' | 'request';

/** A stretch of time a lane spent in one state (`to` undefined: still in it at the end). */
export interface LaneSegment {
  from: number;
  to?: number;
  group: string;
  state: 'ready' | 'notReady' | 'terminating';
}

/** One lane: a pod, an ordinal, a node or a request. */
export interface TimelineLane {
  key: string;
  segments: LaneSegment[];
}

/** The timeline of one workload. */
export interface WorkloadTimeline {
  object: string;
  kind: string;
  groupBy: TimelineGroupBy;
  /** Groups in order of first appearance. */
  revisions: string[];
  /** A readable name per group (a revision's images, a subset's name), when known. */
  groupLabels: Record<string, string>;
  samples: TimelineSample[];
  /** False when `available` is not a service availability (image pulls, recreate requests). */
  availability: boolean;
  laneBy: TimelineLaneBy;
  /** Per-pod lanes; undefined once the workload had more than MAX_LANES pods. */
  lanes?: TimelineLane[];
  /** When the workload first had all desired pods available. */
  fullyAvailableAt?: number;
  /** The lowest availability after that moment. */
  lowest?: { available: number; desired: number; t: number };
}

/** The most lanes a timeline draws; a workload with more pods gets the stacked chart only. */
export const MAX_LANES = 200;

type J = Record<string, any>;

/** Kinds whose pods are found through ownerReferences, and how to tell their story. */
const OWNER_KINDS: readonly {
  apiVersion: string;
  kind: string;
  laneBy: TimelineLaneBy;
  desired: (o: KubeObject) => number;
}[] = [
  {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    laneBy: 'pod',
    desired: (o) => (o.spec as J)?.replicas ?? 1,
  },
  {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    laneBy: 'ordinal',
    desired: (o) => (o.spec as J)?.replicas ?? 1,
  },
  {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    laneBy: 'node',
    desired: (o) => (o.status as J)?.desiredNumberScheduled ?? 0,
  },
];

/** Live counts of the pods one owner uid lists (what a full walk would count, minReadySeconds 0). */
interface LiveCounts {
  byRevision: Map<string, RevisionCount>;
  terminating: number;
  /** Available with minReadySeconds 0. */
  available: number;
}

type Counted = Omit<TimelineSample, 't' | 'desired'>;

/** Records workload samples as the run goes. */
export class Timeline {
  readonly workloads = new Map<string, WorkloadTimeline>();
  private readonly live = new Map<string, LiveCounts>();

  /**
   * `availability` remembers the last availability answers; a simulation passes the memo its
   * invariant checker uses too, so the two ask about each pod write once between them.
   */
  constructor(private readonly availability: AvailabilityMemo = new AvailabilityMemo()) {}

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
      if (cloneSetPodAvailable(pod, 0, 0, this.availability)) lc.available += sign;
    }
  }

  /** Takes a sample of every workload at `t` seconds (`nowMs` epoch ms for availability). */
  sample(store: Store, t: number, nowMs: number): void {
    for (const w of OWNER_KINDS) {
      for (const obj of store.list(w.apiVersion, w.kind)) {
        const wt = this.timelineOf(obj, 'revision', w.laneBy, true);
        const spec = (obj.spec ?? {}) as { minReadySeconds?: number };
        const minReady = spec.minReadySeconds ?? 0;
        const lc = obj.metadata.uid ? this.live.get(obj.metadata.uid) : undefined;
        const size = lc
          ? lc.terminating + [...lc.byRevision.values()].reduce((a, c) => a + c.ready + c.notReady, 0)
          : 0;
        const wantLanes = wt.lanes !== undefined && size <= MAX_LANES;
        if (wt.lanes !== undefined && !wantLanes) wt.lanes = undefined;
        const counted = minReady > 0 || wantLanes ? undefined : this.liveSample(obj, wt);
        const s = counted ?? this.walk(store, obj, wt, minReady, nowMs, t, wantLanes);
        this.record(wt, { t, ...s, desired: w.desired(obj) });
      }
    }
    for (const ud of store.list('apps.kruise.io/v1alpha1', 'UnitedDeployment'))
      this.sampleUnited(store, ud, t, nowMs);
    for (const ss of store.list('apps.kruise.io/v1alpha1', 'SidecarSet')) this.sampleSidecarSet(store, ss, t);
    for (const kind of ['ImagePullJob', 'ImageListPullJob'])
      for (const job of store.list('apps.kruise.io/v1alpha1', kind)) this.samplePullJob(job, t);
    const crrs = store.list('apps.kruise.io/v1alpha1', 'ContainerRecreateRequest');
    if (crrs.length > 0 || this.workloads.has(CRR_TIMELINE)) this.sampleRecreateRequests(crrs, t);
  }

  private timelineOf(
    obj: KubeObject | string,
    groupBy: TimelineGroupBy,
    laneBy: TimelineLaneBy,
    availability: boolean,
  ) {
    const name = typeof obj === 'string' ? obj : displayName(obj);
    let wt = this.workloads.get(name);
    if (!wt) {
      wt = {
        object: name,
        kind: typeof obj === 'string' ? 'ContainerRecreateRequest' : obj.kind,
        groupBy,
        revisions: [],
        groupLabels: {},
        samples: [],
        availability,
        laneBy,
        lanes: [],
      };
      this.workloads.set(name, wt);
    }
    return wt;
  }

  /**
   * The sample from the live counts, or undefined when a walk is needed: a revision not seen
   * before must enter `revisions` in the order a walk over the pods (by key) meets it.
   */
  private liveSample(obj: KubeObject, wt: WorkloadTimeline): Counted | undefined {
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

  /** The sample by walking the workload's pods (in key order); lanes too when asked. */
  private walk(
    store: Store,
    obj: KubeObject,
    wt: WorkloadTimeline,
    minReadySeconds: number,
    nowMs: number,
    t: number,
    lanes: boolean,
  ): Counted {
    const pods: Pod[] = [];
    const owned = obj.metadata.uid ? store.listOwnedBy(obj.metadata.uid) : [];
    for (let i = 0; i < owned.length; i++) if (owned[i].kind === 'Pod') pods.push(owned[i] as Pod);
    const names = templateContainerNames(obj);
    return this.countPods(wt, pods, (p) => p.metadata?.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '', {
      minReadySeconds,
      nowMs,
      t,
      lanes,
      label: (p) => imagesOf(p, names),
    });
  }

  /** Counts pods into groups (and lanes); `group` names a pod's group. */
  private countPods(
    wt: WorkloadTimeline,
    pods: readonly Pod[],
    group: (p: Pod) => string,
    o: {
      minReadySeconds: number;
      nowMs: number;
      t: number;
      lanes: boolean;
      label?: (p: Pod) => string;
      ready?: (p: Pod) => boolean;
    },
  ): Counted {
    const byRevision: Record<string, RevisionCount> = {};
    let available = 0;
    let terminating = 0;
    const states = new Map<string, Omit<LaneSegment, 'from' | 'to'>>();
    for (const pod of pods) {
      const g = group(pod);
      const laneKey = o.lanes ? laneKeyOf(wt.laneBy, pod) : '';
      if (pod.metadata?.deletionTimestamp) {
        terminating++;
        if (o.lanes && !states.has(laneKey)) states.set(laneKey, { group: g, state: 'terminating' });
        continue;
      }
      if (!wt.revisions.includes(g)) wt.revisions.push(g);
      if (o.label && wt.groupLabels && wt.groupLabels[g] === undefined) {
        const l = o.label(pod);
        if (l) wt.groupLabels[g] = l;
      }
      if (!byRevision[g]) byRevision[g] = { ready: 0, notReady: 0 };
      const ready = (o.ready ?? isReady)(pod);
      if (ready) byRevision[g].ready++;
      else byRevision[g].notReady++;
      if (cloneSetPodAvailable(pod, o.minReadySeconds, o.nowMs, this.availability)) available++;
      if (o.lanes) states.set(laneKey, { group: g, state: ready ? 'ready' : 'notReady' });
    }
    if (o.lanes) this.updateLanes(wt, states, o.t);
    return { byRevision, terminating, available };
  }

  /** Closes and opens lane segments where a lane's state changed. */
  private updateLanes(
    wt: WorkloadTimeline,
    states: Map<string, Omit<LaneSegment, 'from' | 'to'>>,
    t: number,
  ): void {
    if (!wt.lanes) return;
    const byKey = new Map(wt.lanes.map((l) => [l.key, l]));
    for (const lane of wt.lanes) {
      const open = lane.segments[lane.segments.length - 1];
      if (open && open.to === undefined && !states.has(lane.key)) open.to = t;
    }
    for (const [key, st] of states) {
      let lane = byKey.get(key);
      if (!lane) {
        if (wt.lanes.length >= MAX_LANES) {
          wt.lanes = undefined;
          return;
        }
        lane = { key, segments: [] };
        wt.lanes.push(lane);
        byKey.set(key, lane);
      }
      const open = lane.segments[lane.segments.length - 1];
      if (open && open.to === undefined && open.group === st.group && open.state === st.state) continue;
      if (open && open.to === undefined) open.to = t;
      lane.segments.push({ from: t, group: st.group, state: st.state });
    }
  }

  /** A UnitedDeployment: its pods (through its subset workloads) by subset, against spec.replicas. */
  private sampleUnited(store: Store, ud: KubeObject, t: number, nowMs: number): void {
    const wt = this.timelineOf(ud, 'subset', 'pod', true);
    const pods: Pod[] = [];
    const subsetOf = new Map<Pod, string>();
    const visit = (uid: string | undefined, subset: string, depth: number) => {
      if (!uid || depth > 3) return;
      for (const o of store.listOwnedBy(uid)) {
        if (o.kind === 'Pod') {
          pods.push(o as Pod);
          subsetOf.set(o as Pod, subset);
        } else visit(o.metadata.uid, subset || (o.metadata.labels?.[LABEL_SUBSET_NAME] ?? ''), depth + 1);
      }
    };
    visit(ud.metadata.uid, '', 0);
    for (const s of ((ud.spec as J)?.topology?.subsets ?? []) as J[])
      if (typeof s.name === 'string' && !wt.revisions.includes(s.name)) wt.revisions.push(s.name);
    const wantLanes = wt.lanes !== undefined && pods.length <= MAX_LANES;
    if (!wantLanes) wt.lanes = undefined;
    const s = this.countPods(wt, pods, (p) => subsetOf.get(p) ?? '', {
      minReadySeconds: 0,
      nowMs,
      t,
      lanes: wantLanes,
    });
    this.record(wt, { t, ...s, desired: (ud.spec as J)?.replicas ?? 1 });
  }

  /** A SidecarSet: the pods it matches by the sidecar revision they carry, against the matched count. */
  private sampleSidecarSet(store: Store, ss: KubeObject, t: number): void {
    const wt = this.timelineOf(ss, 'sidecar revision', 'pod', true);
    const spec = (ss.spec ?? {}) as J;
    const name = ss.metadata.name ?? '';
    const pods: Pod[] = [];
    for (const p of store.list('v1', 'Pod', spec.namespace) as Pod[]) {
      if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      if (!spec.selector || !matchesLabelSelector(spec.selector, p.metadata?.labels ?? {})) continue;
      if (!sidecarHash(p, name)) continue;
      pods.push(p);
    }
    const current = ss.metadata.annotations?.[ANNOTATION_SIDECARSET_HASH];
    const images = ((spec.containers ?? []) as J[]).map((c) => `${c.name}=${c.image}`).join(', ');
    const wantLanes = wt.lanes !== undefined && pods.length <= MAX_LANES;
    if (!wantLanes) wt.lanes = undefined;
    const s = this.countPods(wt, pods, (p) => sidecarHash(p, name), {
      minReadySeconds: 0,
      nowMs: 0,
      t,
      lanes: wantLanes,
      label: (p) => (sidecarHash(p, name) === current ? images : ''),
    });
    const desired = (ss.status as J | undefined)?.matchedPods ?? pods.length;
    this.record(wt, { t, ...s, desired });
  }

  /** An image pull job: nodes pulled, pulling and failed over time, against desired. */
  private samplePullJob(job: KubeObject, t: number): void {
    const wt = this.timelineOf(job, 'pull state', 'node', false);
    wt.lanes = undefined;
    const st = (job.status ?? {}) as J;
    const byRevision: Record<string, RevisionCount> = {};
    const add = (g: string, ready: number, notReady: number) => {
      if (ready + notReady === 0) return;
      if (!wt.revisions.includes(g)) wt.revisions.push(g);
      byRevision[g] = { ready, notReady };
    };
    const succeeded = st.succeeded ?? 0;
    add('succeeded', succeeded, 0);
    add('pulling', 0, st.active ?? 0);
    add('failed', 0, st.failed ?? 0);
    const images =
      job.kind === 'ImageListPullJob' ? ((job.spec as J)?.images ?? []).join(', ') : (job.spec as J)?.image;
    if (images) for (const g of wt.revisions) wt.groupLabels[g] ??= `${g} (${images})`;
    this.record(wt, { t, byRevision, terminating: 0, available: succeeded, desired: st.desired ?? 0 });
  }

  /** Every ContainerRecreateRequest of the run, by phase; lanes by request. */
  private sampleRecreateRequests(crrs: readonly KubeObject[], t: number): void {
    const wt = this.timelineOf(CRR_TIMELINE, 'phase', 'request', false);
    const byRevision: Record<string, RevisionCount> = {};
    const states = new Map<string, Omit<LaneSegment, 'from' | 'to'>>();
    let completed = 0;
    for (const crr of crrs) {
      const phase = ((crr.status as J | undefined)?.phase as string) || 'Pending';
      if (!wt.revisions.includes(phase)) wt.revisions.push(phase);
      byRevision[phase] ??= { ready: 0, notReady: 0 };
      const done = phase === 'Completed';
      if (done) {
        byRevision[phase].ready++;
        completed++;
      } else byRevision[phase].notReady++;
      states.set(displayName(crr), { group: phase, state: done ? 'ready' : 'notReady' });
    }
    if (wt.lanes && crrs.length <= MAX_LANES) this.updateLanes(wt, states, t);
    this.record(wt, { t, byRevision, terminating: 0, available: completed, desired: crrs.length });
  }

  /** Keeps a sample when it differs from the last one; tracks full availability and the lowest point. */
  private record(wt: WorkloadTimeline, s: TimelineSample): void {
    const { t, available, desired } = s;
    const last = wt.samples[wt.samples.length - 1];
    if (last && sameCounts(last, s)) return;
    wt.samples.push(s);
    if (!wt.availability) return;
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

/** The name of the one timeline that holds every ContainerRecreateRequest. */
export const CRR_TIMELINE = 'ContainerRecreateRequests';

/** The pod's Ready condition is True (a plain loop: this runs for every pod of every sample). */
function isReady(pod: Pod): boolean {
  const conds = pod.status?.conditions;
  if (!conds) return false;
  for (let i = 0; i < conds.length; i++)
    if (conds[i].type === 'Ready' && conds[i].status === 'True') return true;
  return false;
}

/** A lane's key: the pod's name, its ordinal (`web-3` → `3`) or its node. */
function laneKeyOf(by: TimelineLaneBy, pod: Pod): string {
  const name = pod.metadata?.name ?? '';
  if (by === 'ordinal') {
    const m = /-(\d+)$/.exec(name);
    return m ? m[1] : name;
  }
  if (by === 'node') {
    if (pod.spec?.nodeName) return pod.spec.nodeName;
    for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [])
      for (const f of term.matchFields ?? [])
        if (f.key === 'metadata.name' && f.values?.length === 1) return f.values[0];
    return name;
  }
  return name;
}

/** The names of the containers a workload's template declares. */
function templateContainerNames(obj: KubeObject): Set<string> {
  const cs = ((obj.spec as J | undefined)?.template?.spec?.containers ?? []) as J[];
  return new Set(cs.map((c) => c.name));
}

/** `nginx:1.27-alpine` (one container) or `app=a:1, side=b:2`, of the template's containers. */
function imagesOf(pod: Pod, names: Set<string>): string {
  const cs = (pod.spec?.containers ?? []).filter((c) => names.size === 0 || names.has(c.name));
  if (cs.length === 1) return cs[0].image ?? '';
  return cs.map((c) => `${c.name}=${c.image ?? ''}`).join(', ');
}

/** The hash a pod carries for SidecarSet `name` (kruise.io/sidecarset-hash), or ''. */
function sidecarHash(pod: Pod, name: string): string {
  const raw = pod.metadata?.annotations?.[ANNOTATION_SIDECARSET_HASH];
  if (!raw?.includes(name)) return '';
  try {
    const h = (JSON.parse(raw) as Record<string, { hash?: string }>)[name]?.hash;
    return typeof h === 'string' ? h : '';
  } catch {
    return '';
  }
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
