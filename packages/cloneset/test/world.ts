// A small deterministic cluster for the CloneSet's end-to-end tests, built on @kruise-ts/cluster:
// the test reconciles (reconcileCloneSet with its own options and cache) and hands the actions to
// the cluster, whose store applies them (versions, generation, finalizers, garbage collection),
// whose scheduler binds the pods to three nodes, and whose kubelet pulls, starts and readies them,
// restarts a container whose image changed in place and recomputes Ready from the readiness
// gates. The kubelet's own failures — a container that crashes some time after it starts (and
// restarts after a back-off), a readiness probe that fails for a while — are the world's doing,
// not the controller's; the properties state them as the exceptions of their invariants.
//
// What no kubelet does stays here, as a thin layer that writes through `cluster.apply`:
// - the owner of the HOOKS lifecycle hooks (`hookOwner`), which adds and removes their marks at
//   random;
// - the pod-readiness controller, which sets a new pod's `KruisePodReady` condition to True when
//   its template lists that readiness gate.
//
// The cluster gives no per-step probabilities; a step is `tick(ms)` followed by a reconcile, and
// what a test controls per step is expressed with the cluster's timings and seed:
// - when pods start and become ready: seeded `jitter` on the pull, start and readiness durations
//   (pods ready a few seconds after their creation, in a random order with jitter, in lockstep
//   without);
// - how often pods fail: `failureProbability`. Each container start crashes (within
//   `crashWithinMs`, restarted after `crashBackoffMs`) or fails readiness (for
//   `readinessFailureMs`) with that probability, the kubelet's own seeded draws; and each tick
//   fails a running, ready pod with it too (`kubelet.crash` / `kubelet.failReadiness`), so old pods
//   that never restart fail as well. How long a failed pod stays down is those timings;
// - the failure window: `setFailures(p)` from one step on, `setFailures(0)` to close it; `idle`
//   tells when every scheduled pull, start, crash and recovery has run.
import type { CloneSet, KubeObject } from '@kruise-ts/api';
import { type Cluster, createCluster } from '@kruise-ts/cluster';
import type { Action, ObjectRef } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodCondition } from 'kubernetes-types/core/v1';

/** Lifecycle hooks whose owner the world plays (`WorldOptions.hookOwner`). */
export const HOOKS = {
  preDeleteFinalizer: 'example.com/hold',
  servingLabel: 'example.com/serving',
  warmLabel: 'example.com/warm',
};

const STATE_LABEL = 'lifecycle.apps.kruise.io/state';
const KRUISE_POD_READY = 'KruisePodReady';

export interface WorldOptions {
  /** Seed of the cluster: generated names and uids, jitter, failures and the hook owner's coins. */
  seed: number;
  /** Spread of the kubelet's durations (each scaled by 1 ± jitter); 0 readies pods in lockstep. */
  jitter?: number;
  /**
   * Probability that a container start is followed by a crash, that it fails readiness (drawn
   * apart), and per tick that a running pod fails (0 = never). Changeable with `setFailures`.
   */
  failureProbability?: number;
  /** Play the owner of the HOOKS lifecycle hooks (add/remove their marks at random). */
  hookOwner?: boolean;
}

const podRef = (p: Pod): ObjectRef => ({
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: p.metadata?.namespace,
  name: p.metadata?.name ?? '',
});

export class World {
  readonly cluster: Cluster;
  private failureProbability = 0;

  constructor(
    cs: CloneSet,
    readonly opts: WorldOptions,
  ) {
    this.cluster = createCluster({
      nodes: [{ name: 'node-0' }, { name: 'node-1' }, { name: 'node-2' }],
      seed: opts.seed,
      startTime: '2024-01-01T00:00:00Z',
      timings: {
        imagePull: { defaultMs: 2_000, images: {} },
        containerStartMs: 1_000,
        readinessDelayMs: 1_000,
        terminationMs: 2_000,
        jitter: opts.jitter ?? 0,
        crashWithinMs: 10_000,
        crashBackoffMs: 5_000,
        readinessFailureMs: 8_000,
      },
      freezeObjects: true,
    });
    this.setFailures(opts.failureProbability ?? 0);
    this.apply([{ verb: 'create', object: cs as KubeObject, reason: 'Apply' }], 'user');
  }

  /** The cluster's time, RFC 3339. */
  get now(): string {
    return this.cluster.now();
  }
  /** The cluster's time in ms since the epoch (what the oracle compares transition times with). */
  get nowMs(): number {
    return Date.parse(this.cluster.now());
  }
  cloneSet(): CloneSet {
    return this.cluster.list('CloneSet')[0] as CloneSet;
  }
  pods(): Pod[] {
    return this.cluster.list('Pod') as Pod[];
  }
  revisions(): ControllerRevision[] {
    return this.cluster.list('ControllerRevision') as unknown as ControllerRevision[];
  }
  pvcs(): PersistentVolumeClaim[] {
    return this.cluster.list('PersistentVolumeClaim') as PersistentVolumeClaim[];
  }

  /** The reconcile input as a controller would see it now (the store's own, frozen objects). */
  input() {
    return {
      cloneSet: this.cloneSet(),
      pods: this.pods(),
      revisions: this.revisions(),
      pvcs: this.pvcs(),
      now: this.now,
    };
  }

  /** Writes actions through the cluster as `source`; a refused write fails the test. */
  apply(actions: readonly Action[], source = 'controller'): void {
    for (const [i, res] of this.cluster.apply(actions, source).entries())
      if (!res.ok) throw new Error(`${actions[i].verb} ${actions[i].reason} refused: ${res.message}`);
  }

  /** Applies a change to the CloneSet spec as a user would (the store bumps the generation). */
  updateSpec(mutate: (cs: CloneSet) => CloneSet): void {
    const next = mutate(structuredClone(this.cloneSet()));
    this.apply([{ verb: 'update', object: next as KubeObject, reason: 'Apply' }], 'user');
  }

  /**
   * Sets the failure probability from now on (0 closes the failure window). The kubelet reads
   * the cluster's timings at each container start, so the change applies from the next start.
   */
  setFailures(p: number): void {
    this.failureProbability = p;
    this.cluster.timings.crashProbability = p;
    this.cluster.timings.readinessFailureProbability = p;
  }

  /** True when the kubelet has nothing scheduled: every pull, start, crash and recovery has run. */
  get idle(): boolean {
    return this.cluster.queue.size === 0;
  }

  /**
   * One step of the world between two reconciles: the pod-readiness controller and the hook
   * owner write, running pods fail with the failure probability, then `ms` of the cluster's time
   * pass (pulls, starts, readiness, crashes, restarts, terminations).
   */
  tick(ms: number): void {
    this.initKruisePodReady();
    if (this.opts.hookOwner) this.playHookOwner();
    this.failRunningPods();
    this.cluster.advance(ms);
  }

  /** The pod-readiness controller: `KruisePodReady=True` on a pod with that gate and no such condition. */
  private initKruisePodReady(): void {
    const actions: Action[] = [];
    for (const pod of this.pods()) {
      if (pod.metadata?.deletionTimestamp) continue;
      if (!(pod.spec?.readinessGates ?? []).some((g) => g.conditionType === KRUISE_POD_READY)) continue;
      const conditions = pod.status?.conditions ?? [];
      if (conditions.some((c) => c.type === KRUISE_POD_READY)) continue;
      const added: PodCondition = { type: KRUISE_POD_READY, status: 'True', lastTransitionTime: this.now };
      actions.push({
        verb: 'updateStatus',
        target: podRef(pod),
        status: { ...pod.status, conditions: [...conditions, added] },
        reason: 'PodReadiness',
      });
    }
    if (actions.length > 0) this.apply(actions, 'pod-readiness');
  }

  /**
   * The owner of the HOOKS hooks, on every live pod: registers the preDelete finalizer and the
   * serving label, releases PreparingDelete pods (removes the finalizer) and PreparingUpdate pods
   * (removes the serving label) after a while, puts the serving label back on Normal and Updated
   * pods, and warms PreparingNormal pods. Each move is a coin toss from the cluster's seed.
   */
  private playHookOwner(): void {
    const coin = () => this.cluster.rng.next() < 0.5;
    const actions: Action[] = [];
    for (const pod of this.pods()) {
      const meta = pod.metadata ?? {};
      if (meta.deletionTimestamp) continue;
      const labels = meta.labels ?? {};
      const state = labels[STATE_LABEL] ?? '';
      const fin = meta.finalizers ?? [];
      let finalizers: string[] | undefined;
      const labelEdits: Record<string, string | null> = {};
      if (state === 'PreparingDelete') {
        if (coin()) finalizers = fin.filter((f) => f !== HOOKS.preDeleteFinalizer);
      } else if (!fin.includes(HOOKS.preDeleteFinalizer) && coin()) {
        finalizers = [...fin, HOOKS.preDeleteFinalizer];
      }
      if (state === 'PreparingUpdate') {
        if (labels[HOOKS.servingLabel] !== undefined && coin()) labelEdits[HOOKS.servingLabel] = null;
      } else if (
        (state === 'Normal' || state === 'Updated') &&
        labels[HOOKS.servingLabel] !== 'true' &&
        coin()
      ) {
        labelEdits[HOOKS.servingLabel] = 'true';
      }
      if (state === 'PreparingNormal' && labels[HOOKS.warmLabel] !== 'true' && coin())
        labelEdits[HOOKS.warmLabel] = 'true';
      const metadata: Record<string, unknown> = {};
      if (finalizers && finalizers.length !== fin.length) metadata.finalizers = finalizers;
      if (Object.keys(labelEdits).length > 0) metadata.labels = labelEdits;
      if (Object.keys(metadata).length === 0) continue;
      actions.push({
        verb: 'patch',
        target: podRef(pod),
        patchType: 'merge',
        patch: { metadata },
        reason: 'LifecycleHook',
      });
    }
    if (actions.length > 0) this.apply(actions, 'hook-owner');
  }

  /** Fails each running, ready pod with the failure probability: half crash, half fail readiness. */
  private failRunningPods(): void {
    const p = this.failureProbability;
    if (p <= 0) return;
    const { kubelet, rng } = this.cluster;
    for (const pod of this.pods()) {
      const uid = pod.metadata?.uid;
      if (!uid || pod.metadata?.deletionTimestamp) continue;
      const runtime = kubelet.runtime(uid);
      const container = runtime?.containers.find((c) => c.state === 'running' && c.ready);
      if (!runtime || !container || rng.next() >= p) continue;
      if (rng.next() < 0.5) kubelet.crash(runtime.rt, container, 'Error');
      else kubelet.failReadiness(runtime.rt, container, this.cluster.timings.readinessFailureMs);
    }
    this.cluster.settle();
  }
}

/** The sample CloneSet of OpenKruise (5 replicas, nginx:alpine), with spec overrides. */
export function sampleCloneSet(spec: Record<string, unknown> = {}, name = 'sample'): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace: 'default', labels: { app: 'sample' } },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'sample' } },
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
      ...spec,
    },
  } as CloneSet;
}

/** Sets the image of the first container (an in-place-able template change). */
export function withImage(cs: CloneSet, image: string): CloneSet {
  const c = structuredClone(cs);
  c.spec.template.spec!.containers[0].image = image;
  return c;
}
