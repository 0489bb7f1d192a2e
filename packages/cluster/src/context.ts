// The shared context the cluster model's components (kubelet, scheduler, node lifecycle, and
// the simulator's controller loop and invariants on top) use: store, clock, event queue, seeded
// randomness, timings and the event log.
import type { Rng } from '@kruise-ts/core';
import type { SimEvent } from './events';
import type { KubeEventRecord } from './kubeEvents';
import type { Store } from './store';
import type { VirtualClock } from './time';

/** Timings and failure parameters of the kubelet and node models (all durations in ms). */
export interface Timings {
  /** Image pull time per image (exact image string), and the default. */
  imagePull: {
    defaultMs: number;
    images: Record<string, number>;
    /** Per node: image (or `*` for any) → pull time, before `images` and `defaultMs` (a slow node or registry mirror). */
    nodes?: Record<string, Record<string, number>>;
  };
  /** From image present to container running. */
  containerStartMs: number;
  /** From container running to container ready (readiness probe passes). */
  readinessDelayMs: number;
  /** How long containers take to exit after SIGTERM; capped by the pod's grace period. */
  terminationMs: number;
  /** Random spread of every duration: each is scaled by 1 ± jitter (seeded). */
  jitter: number;
  /** Probability that a container crashes some time after it starts (seeded). */
  crashProbability: number;
  /** A crashing container crashes within this time after starting. */
  crashWithinMs: number;
  /** Back-off before a crashed container restarts. */
  crashBackoffMs: number;
  /** Probability that a container's readiness fails for `readinessFailureMs` after it starts. */
  readinessFailureProbability: number;
  readinessFailureMs: number;
  /** Node lifecycle: a failed node turns NotReady (and its pods NotReady) after this. */
  nodeMonitorGracePeriodMs: number;
  /** Node lifecycle: pods on a NotReady node are evicted after this (their toleration seconds, default 300 s). */
  podEvictionTimeoutMs: number;
}

/** Kubernetes-like defaults. */
export const defaultTimings: Timings = {
  imagePull: { defaultMs: 5000, images: {} },
  containerStartMs: 1000,
  readinessDelayMs: 2000,
  terminationMs: 2000,
  jitter: 0,
  crashProbability: 0,
  crashWithinMs: 30_000,
  crashBackoffMs: 10_000,
  readinessFailureProbability: 0,
  readinessFailureMs: 20_000,
  nodeMonitorGracePeriodMs: 40_000,
  podEvictionTimeoutMs: 300_000,
};

/** What the kubelet model schedules on the event queue. */
export type KubeletPayload =
  | { type: 'imagePulled'; node: string; image: string }
  | { type: 'containerStarted'; podUid: string; container: string; token: number }
  | { type: 'containerReady'; podUid: string; container: string; token: number }
  | { type: 'containerCrash'; podUid: string; container: string; token: number }
  | { type: 'containerRestart'; podUid: string; container: string; token: number }
  | { type: 'podTerminated'; podUid: string; token: number };

/** What the node lifecycle model schedules on the event queue. */
export type NodePayload = { type: 'nodeNotReady' | 'nodeEvict'; node: string; token: number };

/** A timer of the node side (nodeSide.ts): it only brings the clock to its time, where the next settle finds the work due. */
export type WakePayload = { type: 'wake' };

/** Everything the cluster model schedules on the event queue (a shell adds its own kinds beside). */
export type ClusterPayload = KubeletPayload | NodePayload | WakePayload;

/** The context components share. */
export interface SimContext {
  store: Store;
  clock: VirtualClock;
  rng: Rng;
  timings: Timings;
  /** Appends to the event log at the current time. */
  log(e: Omit<SimEvent, 't' | 'time'>): void;
  /** True when the log keeps records of this type (lets per-container chatter skip building them). */
  logs(type: string): boolean;
  /** Schedules a payload `delayMs` from now (rounded up to the time resolution). */
  schedule(delayMs: number, payload: ClusterPayload): void;
  /** A duration with the scenario's jitter applied (seeded). */
  jittered(ms: number): number;
  /** True when the node is failed (its kubelet cannot reach the API server). */
  nodeFailed(name: string): boolean;
  /**
   * Raises a Kubernetes event (kubeEvents.ts); undefined while nobody listens, so the models skip
   * building them (`this.ctx.kubeEvent?.(…)`).
   */
  kubeEvent?: (e: Omit<KubeEventRecord, 'time'>) => void;
}
