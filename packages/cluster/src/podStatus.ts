// The pod status the kubelet model reports, and the runtime state it is
// computed from: phase, Initialized / ContainersReady / Ready (readiness gates
// included), container statuses with image, imageID, restart count and state,
// and the image digests the model makes up.

import { extend } from '@kruise-ts/core';
import type {
  ContainerState,
  ContainerStatus,
  Pod,
  PodCondition,
  PodStatus,
} from 'kubernetes-types/core/v1.js';
import { fnvHex } from './hashing';

/** A container's runtime state. */
export type CState = 'pulling' | 'starting' | 'running' | 'crashed' | 'stopped';

/** One container as the runtime knows it. */
export interface ContainerRuntime {
  name: string;
  /** The image the spec asks for. */
  image: string;
  /** The image of the container last started (what status reports until the new one runs). */
  runningImage: string;
  imageID: string;
  state: CState;
  ready: boolean;
  restartCount: number;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
  /** Bumped on every reset so stale scheduled events are ignored. */
  token: number;
  /** Readiness is failing until this time (ms), after which it turns ready. */
  unreadyUntil?: number;
  /** When the container began waiting for its image (ms; the `Pulled` event's "including waiting"). */
  pullWaitFrom?: number;
}

/** One pod as its kubelet knows it. */
export interface PodRuntime {
  uid: string;
  key: string;
  node: string;
  /** `kubelet:<node>`: the source of its writes and log records. */
  source: string;
  containers: Map<string, ContainerRuntime>;
  terminating: boolean;
  terminateToken: number;
  awaitingFinalDelete?: boolean;
  startTime: string;
  podIP: string;
  /** The node's InternalIP (podNetwork.ts), when the node object has one. */
  hostIP?: string;
  /** Cached `podLabel` (`Pod/namespace/name`). */
  label?: string;
}

/**
 * The image digest the model reports: deterministic from the image name (the kubelet keeps the
 * digests it has made, one per image, in its own table).
 */
export function imageIDOf(image: string): string {
  const ref = image.includes('/') ? image : `docker.io/library/${image}`;
  const repo = ref.replace(/[:@].*$/, '');
  return `${repo}@sha256:${fnvHex(image, 64)}`;
}

/** `Pod/namespace/name` of a runtime, for log records (computed once per pod). */
export function podLabel(rt: PodRuntime): string {
  if (rt.label === undefined) {
    const [, , ns, name] = rt.key.split('/');
    rt.label = `Pod/${ns}/${name}`;
  }
  return rt.label;
}

/**
 * The pod status the kubelet reports: phase, Initialized, ContainersReady and
 * Ready (= containers ready and every readiness gate's condition True), and the
 * container statuses. Conditions other kubelet-unowned writers set (PodScheduled,
 * InPlaceUpdateReady, KruisePodReady) are kept as they are.
 *
 * Returns the pod's own `status` object when the kubelet has nothing new to
 * report, so the caller detects a no-op by identity instead of a deep compare
 * (the kubelet syncs ~8 times per pod over a rollout; most syncs change nothing).
 */
export function composeStatus(pod: Pod, rt: PodRuntime, now: string): PodStatus {
  const old = pod.status ?? {};
  const specs = pod.spec?.containers ?? [];
  const oldStatuses = old.containerStatuses ?? [];
  let changed = oldStatuses.length !== specs.length;
  let everStarted = specs.length > 0;
  let containersReady = !rt.terminating && specs.length > 0;
  const statuses: ContainerStatus[] = new Array(specs.length);
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i];
    const c = rt.containers.get(s.name);
    if ((c?.startedAt ?? '') === '') everStarted = false;
    if (c?.ready !== true) containersReady = false;
    const prev = oldStatuses[i];
    if (prev !== undefined && reportsRuntime(prev, s.name, s.image ?? '', c, rt.terminating))
      statuses[i] = prev;
    else {
      statuses[i] = containerStatus(s.name, s.image ?? '', c, rt.terminating);
      changed = true;
    }
  }
  const oldConditions = old.conditions ?? [];
  const containersReadyCond = containersReady ? CONTAINERS_READY : CONTAINERS_NOT_READY;
  const gates = pod.spec?.readinessGates ?? [];
  const view: ConditionView = {
    conditions: oldConditions,
    initialized: INITIALIZED,
    containersReady: containersReadyCond,
  };
  let gatesOk = true;
  for (let i = 0; i < gates.length; i++)
    if (gateCondition(view, gates[i].conditionType)?.status !== 'True') gatesOk = false;
  const readyCond: PodCondition = !containersReady
    ? READY_CONTAINERS_NOT_READY
    : gatesOk
      ? READY
      : readyGatesFalse(view, gates);
  const conditions = setKubeletConditions(oldConditions, INITIALIZED, containersReadyCond, readyCond, now);
  const phase = everStarted || old.phase === 'Running' ? 'Running' : 'Pending';
  const hostIP = old.hostIP ?? rt.hostIP ?? `192.168.0.${(hashIndex(rt.node) % 250) + 1}`;
  const podIP = old.podIP ?? rt.podIP;
  // the plural fields describe and dual-stack clients read; one IPv4 address each
  const podIPs = old.podIPs ?? [{ ip: podIP }];
  const hostIPs = old.hostIPs ?? [{ ip: hostIP }];
  const startTime = old.startTime ?? rt.startTime;
  if (
    !changed &&
    conditions === oldConditions &&
    phase === old.phase &&
    hostIP === old.hostIP &&
    podIP === old.podIP &&
    podIPs === old.podIPs &&
    hostIPs === old.hostIPs &&
    startTime === old.startTime
  )
    return old;
  // extend, not a spread: the first report adds keys, and a spread gaining keys gives every pod's
  // status a hidden class of its own (core/objects.ts).
  return extend(old, {
    phase,
    conditions,
    hostIP,
    hostIPs,
    podIP,
    podIPs,
    startTime,
    containerStatuses: changed ? statuses : oldStatuses,
  });
}

/**
 * A container status built by the kubelet model. A class only so that a later sync can tell its
 * own objects (whose shape it knows) from ones another writer put in the status, and skip
 * re-checking their key sets; as JSON it is the plain object kube's kubelet reports.
 */
class KubeletContainerStatus implements ContainerStatus {
  declare name: string;
  declare image: string;
  declare imageID: string;
  declare ready: boolean;
  declare restartCount: number;
  declare started: boolean;
  declare containerID?: string;
  declare state: ContainerState;

  constructor(name: string, specImage: string, c: ContainerRuntime | undefined, terminating: boolean) {
    this.name = name;
    this.image = c?.runningImage ?? specImage;
    this.imageID = c?.imageID ?? '';
    this.ready = c?.ready ?? false;
    this.restartCount = c?.restartCount ?? 0;
    this.started = c?.state === 'running';
    if (c?.state === 'running') {
      this.containerID = c.containerID;
      this.state = { running: { startedAt: c.startedAt } };
    } else if (c?.state === 'crashed') this.state = { waiting: { reason: 'CrashLoopBackOff' } };
    else if (terminating) this.state = { terminated: { exitCode: 0, reason: 'Completed' } };
    else this.state = { waiting: { reason: 'ContainerCreating' } };
  }
}

/** One container's status as the runtime sees it. */
function containerStatus(
  name: string,
  specImage: string,
  c: ContainerRuntime | undefined,
  terminating: boolean,
): ContainerStatus {
  return new KubeletContainerStatus(name, specImage, c, terminating);
}

function reportsRuntime(
  prev: ContainerStatus,
  name: string,
  specImage: string,
  c: ContainerRuntime | undefined,
  terminating: boolean,
): boolean {
  const running = c?.state === 'running';
  // The kubelet's own objects have exactly the keys it writes: only the values need checking.
  const own = prev instanceof KubeletContainerStatus;
  if (
    prev.name !== name ||
    prev.image !== (c?.runningImage ?? specImage) ||
    prev.imageID !== (c?.imageID ?? '') ||
    prev.ready !== (c?.ready ?? false) ||
    prev.restartCount !== (c?.restartCount ?? 0) ||
    prev.started !== running ||
    (running ? prev.containerID !== c.containerID : Object.hasOwn(prev, 'containerID')) ||
    (!own && ownKeyCount(prev) !== (running ? 8 : 7))
  )
    return false;
  const st = prev.state;
  if (!st || (!own && ownKeyCount(st) !== 1)) return false;
  const r = st.running;
  if (running) return r !== undefined && r.startedAt === c?.startedAt && (own || ownKeyCount(r) === 1);
  const reason = c?.state === 'crashed' ? 'CrashLoopBackOff' : terminating ? undefined : 'ContainerCreating';
  if (reason === undefined)
    return (
      st.terminated?.reason === 'Completed' &&
      st.terminated.exitCode === 0 &&
      (own || ownKeyCount(st.terminated) === 2)
    );
  return st.waiting?.reason === reason && (own || ownKeyCount(st.waiting) === 1);
}

/** Number of own keys, counted without allocating a key array. */
function ownKeyCount(o: object): number {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k)) n++;
  return n;
}

function findCond(conditions: PodCondition[], type: string): PodCondition | undefined {
  for (const c of conditions) if (c.type === type) return c;
  return undefined;
}

/** The conditions a readiness gate reads: the old ones, with Initialized and ContainersReady already set. */
interface ConditionView {
  conditions: PodCondition[];
  initialized: PodCondition;
  containersReady: PodCondition;
}

function gateCondition(v: ConditionView, type: string): PodCondition | undefined {
  if (type === 'Initialized') return v.initialized;
  if (type === 'ContainersReady') return v.containersReady;
  return findCond(v.conditions, type);
}

// The kubelet-owned conditions the model reports, shared (setKubeletConditions copies what it
// stores; these are only compared and read).
const INITIALIZED: PodCondition = Object.freeze({ type: 'Initialized', status: 'True' });
const CONTAINERS_READY: PodCondition = Object.freeze({ type: 'ContainersReady', status: 'True' });
const CONTAINERS_NOT_READY: PodCondition = Object.freeze({ type: 'ContainersReady', status: 'False' });
const READY: PodCondition = Object.freeze({ type: 'Ready', status: 'True' });
const READY_CONTAINERS_NOT_READY: PodCondition = Object.freeze({
  type: 'Ready',
  status: 'False',
  reason: 'ContainersNotReady',
  message: 'containers with unready status',
});

/** Ready=False when the containers are ready but a readiness gate is not (kubelet's message). */
function readyGatesFalse(view: ConditionView, gates: { conditionType: string }[]): PodCondition {
  const msgs = gates
    .map((g) => {
      const c = gateCondition(view, g.conditionType);
      if (!c) return `corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`;
      if (c.status !== 'True')
        return `the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status ?? ''}`;
      return '';
    })
    .filter((m) => m !== '');
  return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: msgs.join(', ') };
}

/**
 * Sets the three kubelet-owned conditions in one pass (the same array when none changes):
 * lastTransitionTime changes only when the status flips; a missing one is appended
 * (Initialized, ContainersReady, Ready, in that order); when a type appears twice only its
 * first entry is kept up to date.
 */
function setKubeletConditions(
  conditions: PodCondition[],
  initialized: PodCondition,
  containersReady: PodCondition,
  ready: PodCondition,
  now: string,
): PodCondition[] {
  let out: PodCondition[] | undefined;
  let seenInit = false;
  let seenCR = false;
  let seenReady = false;
  for (let j = 0; j < conditions.length; j++) {
    const c = conditions[j];
    let want: PodCondition;
    if (c.type === 'Initialized') {
      if (seenInit) continue;
      seenInit = true;
      want = initialized;
    } else if (c.type === 'ContainersReady') {
      if (seenCR) continue;
      seenCR = true;
      want = containersReady;
    } else if (c.type === 'Ready') {
      if (seenReady) continue;
      seenReady = true;
      want = ready;
    } else continue;
    if (c.status === want.status && c.reason === want.reason && c.message === want.message) continue;
    out ??= conditions.slice();
    out[j] = updatedCondition(c, want, now);
  }
  if (seenInit && seenCR && seenReady) return out ?? conditions;
  const appended = out ?? conditions.slice();
  if (!seenInit) appended.push(newCondition(initialized, now));
  if (!seenCR) appended.push(newCondition(containersReady, now));
  if (!seenReady) appended.push(newCondition(ready, now));
  return appended;
}

/**
 * `lastProbeTime: null`, as the kubelet writes a probe time it never set (Go's zero metav1.Time
 * marshals to null). kubernetes-types declares the field a string, so the null takes that type here.
 */
const NULL_PROBE_TIME = null as unknown as string;

function newCondition(c: PodCondition, now: string): PodCondition {
  // Built field by field (not a spread): one object shape per key set, and no generic copy.
  if (c.reason === undefined)
    return {
      type: c.type,
      status: c.status,
      lastProbeTime: NULL_PROBE_TIME,
      lastTransitionTime: now,
    };
  if (c.message === undefined)
    return {
      type: c.type,
      status: c.status,
      reason: c.reason,
      lastProbeTime: NULL_PROBE_TIME,
      lastTransitionTime: now,
    };
  return {
    type: c.type,
    status: c.status,
    reason: c.reason,
    message: c.message,
    lastProbeTime: NULL_PROBE_TIME,
    lastTransitionTime: now,
  };
}

function updatedCondition(old: PodCondition, c: PodCondition, now: string): PodCondition {
  const next: PodCondition = {
    type: c.type,
    status: c.status,
    lastProbeTime: old.lastProbeTime,
    lastTransitionTime: old.status === c.status ? old.lastTransitionTime : now,
  };
  if (c.reason !== undefined) next.reason = c.reason;
  if (c.message !== undefined) next.message = c.message;
  return next;
}

function hashIndex(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}
