// The pod status the kubelet model reports, and the runtime state it is
// computed from: phase, Initialized / ContainersReady / Ready (readiness gates
// included), container statuses with image, imageID, restart count and state,
// and the image digests the model makes up.
import type { Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
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
}

/** One pod as its kubelet knows it. */
export interface PodRuntime {
  uid: string;
  key: string;
  node: string;
  containers: Map<string, ContainerRuntime>;
  terminating: boolean;
  terminateToken: number;
  awaitingFinalDelete?: boolean;
  lastSig?: string;
  lastStatus?: Pod['status'];
  lastSpec?: Pod['spec'];
  startTime: string;
  podIP: string;
}

/** The image digest the model reports: deterministic from the image name. */
export function imageIDOf(image: string): string {
  let id = imageIDs.get(image);
  if (id === undefined) {
    id = computeImageID(image);
    imageIDs.set(image, id);
  }
  return id;
}

const imageIDs = new Map<string, string>();

function computeImageID(image: string): string {
  const ref = image.includes('/') ? image : `docker.io/library/${image}`;
  const repo = ref.replace(/[:@].*$/, '');
  return `${repo}@sha256:${fnvHex(image, 64)}`;
}

/** What the status depends on in the runtime (a cheap change detector). */
export function runtimeSignature(rt: PodRuntime): string {
  let s = rt.terminating ? 'T' : 'A';
  for (const c of rt.containers.values())
    s += `|${c.state}${c.ready ? 1 : 0}${c.restartCount}${c.runningImage}${c.imageID}`;
  return s;
}

export function podLabel(rt: PodRuntime): string {
  const [, , ns, name] = rt.key.split('/');
  return `Pod/${ns}/${name}`;
}

/**
 * The pod status the kubelet reports: phase, Initialized, ContainersReady and
 * Ready (= containers ready and every readiness gate's condition True), and the
 * container statuses. Conditions other kubelet-unowned writers set (PodScheduled,
 * InPlaceUpdateReady, KruisePodReady) are kept as they are.
 */
export function composeStatus(pod: Pod, rt: PodRuntime, now: string): PodStatus {
  const old = pod.status ?? {};
  const specs = pod.spec?.containers ?? [];
  const statuses = specs.map((s) => {
    const c = rt.containers.get(s.name);
    const cs: Record<string, unknown> = {
      name: s.name,
      image: c?.runningImage ?? s.image ?? '',
      imageID: c?.imageID ?? '',
      ready: c?.ready ?? false,
      restartCount: c?.restartCount ?? 0,
      started: c?.state === 'running',
    };
    if (c?.state === 'running') {
      cs.containerID = c.containerID;
      cs.state = { running: { startedAt: c.startedAt } };
    } else if (c?.state === 'crashed') cs.state = { waiting: { reason: 'CrashLoopBackOff' } };
    else if (rt.terminating) cs.state = { terminated: { exitCode: 0, reason: 'Completed' } };
    else cs.state = { waiting: { reason: 'ContainerCreating' } };
    return cs;
  });
  const everStarted =
    specs.length > 0 && specs.every((s) => (rt.containers.get(s.name)?.startedAt ?? '') !== '');
  const containersReady =
    !rt.terminating && specs.length > 0 && specs.every((s) => rt.containers.get(s.name)?.ready === true);
  let conditions = [...(old.conditions ?? [])];
  conditions = setCond(conditions, { type: 'Initialized', status: 'True' }, now);
  conditions = setCond(
    conditions,
    { type: 'ContainersReady', status: containersReady ? 'True' : 'False' },
    now,
  );
  const gates = pod.spec?.readinessGates ?? [];
  const gatesOk = gates.every((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True');
  const ready = containersReady && gatesOk;
  conditions = setCond(
    conditions,
    ready ? { type: 'Ready', status: 'True' } : readyFalse(conditions, gates, containersReady),
    now,
  );
  const status: PodStatus = {
    ...old,
    phase: everStarted || old.phase === 'Running' ? 'Running' : 'Pending',
    conditions,
    hostIP: old.hostIP ?? `192.168.0.${(hashIndex(rt.node) % 250) + 1}`,
    podIP: old.podIP ?? rt.podIP,
    startTime: old.startTime ?? rt.startTime,
    containerStatuses: statuses as unknown as PodStatus['containerStatuses'],
  };
  return status;
}

function readyFalse(
  conditions: PodCondition[],
  gates: { conditionType: string }[],
  containersReady: boolean,
): PodCondition {
  if (!containersReady)
    return {
      type: 'Ready',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status',
    };
  const msgs = gates
    .map((g) => {
      const c = conditions.find((x) => x.type === g.conditionType);
      if (!c) return `corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`;
      if (c.status !== 'True')
        return `the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status ?? ''}`;
      return '';
    })
    .filter((m) => m !== '');
  return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: msgs.join(', ') };
}

/** Sets a condition; lastTransitionTime changes only when the status flips. */
function setCond(conditions: PodCondition[], c: PodCondition, now: string): PodCondition[] {
  const i = conditions.findIndex((x) => x.type === c.type);
  if (i < 0)
    return [...conditions, { ...c, lastProbeTime: null as unknown as string, lastTransitionTime: now }];
  const old = conditions[i];
  if (old.status === c.status && old.reason === c.reason && old.message === c.message) return conditions;
  const next: PodCondition = {
    type: c.type,
    status: c.status,
    lastProbeTime: old.lastProbeTime,
    lastTransitionTime: old.status === c.status ? old.lastTransitionTime : now,
  };
  if (c.reason !== undefined) next.reason = c.reason;
  if (c.message !== undefined) next.message = c.message;
  const out = [...conditions];
  out[i] = next;
  return out;
}

function hashIndex(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}
