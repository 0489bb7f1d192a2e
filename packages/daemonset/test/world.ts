// A small deterministic cluster for property tests: reconcileDaemonSet's actions go through
// @kruise-ts/cluster, whose scheduler binds the pods and whose kubelet pulls, starts and readies
// them on seeded timings (jittered, so pods become ready in a random order). The kubelet may also
// fail pods on its own, seeded: a container crashes after a start (and restarts after a back-off)
// or fails readiness for a while; and `disturb` makes it fail running old pods in the middle of a
// rollout. Those failures are the world's doing, not the controller's, and the world names the
// pods they hit (`failed`) so the properties can state them as the exceptions the rules make.
import type { DaemonSet, DaemonSetStatus, KubeObject } from '@kruise-ts/api';
import { type Cluster, createCluster, type NodeConfig } from '@kruise-ts/cluster';
import type { Action, ReconcileResult } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { type DaemonSetControllerState, reconcileDaemonSet } from '../src';

export interface WorldOptions {
  /**
   * Probability that a container start is followed by a crash, and (drawn apart) that it fails
   * readiness for 30 s: the kubelet's own failures (0 = never).
   */
  failureProbability: number;
  /** Probability that `disturb` fails a running old pod (a crash or 30 s of failed readiness). */
  oldPodFailureProbability: number;
  /** Seed of the cluster: generated names, uids, jitter and failures. */
  seed: number;
}

/** The object of a kubelet record (`Pod/<namespace>/<name>`) as a pod name. */
const podName = (object: string | undefined) => object?.split('/')[2];

export class World {
  readonly cluster: Cluster;
  state: DaemonSetControllerState | undefined;
  /** Pods the kubelet failed on its own (a crash or a readiness failure), by name. */
  readonly failed = new Set<string>();

  constructor(
    ds: DaemonSet,
    nodes: Node[],
    readonly opts: WorldOptions,
  ) {
    this.cluster = createCluster({
      nodes: nodes.map(nodeConfig),
      seed: opts.seed,
      startTime: '2024-01-01T00:00:00Z',
      timings: {
        imagePull: { defaultMs: 2_000, images: {} },
        containerStartMs: 1_000,
        readinessDelayMs: 3_000,
        terminationMs: 2_000,
        jitter: 0.8,
        crashProbability: opts.failureProbability,
        crashWithinMs: 20_000,
        crashBackoffMs: 15_000,
        readinessFailureProbability: opts.failureProbability,
        readinessFailureMs: 30_000,
      },
      freezeObjects: true,
    });
    this.cluster.log.onRecord((e) => {
      if (e.type === 'ContainerCrashed' || e.type === 'ReadinessFailed') {
        const name = podName(e.object);
        if (name) this.failed.add(name);
      }
    });
    const [created] = this.cluster.apply(
      [{ verb: 'create', object: ds as KubeObject, reason: 'Apply' }],
      'user',
    );
    if (!created.ok) throw new Error(`the DaemonSet was refused: ${created.message}`);
  }

  get ds(): DaemonSet {
    return this.cluster.list('DaemonSet')[0] as DaemonSet;
  }
  get nodes(): Node[] {
    return this.cluster.list('Node') as Node[];
  }
  get pods(): Pod[] {
    return this.cluster.list('Pod') as Pod[];
  }
  get revisions(): ControllerRevision[] {
    return this.cluster.list('ControllerRevision') as unknown as ControllerRevision[];
  }
  /** The cluster's current time, RFC 3339. */
  get now(): string {
    return this.cluster.now();
  }

  input() {
    return {
      daemonSet: this.ds,
      nodes: this.nodes,
      pods: this.pods,
      revisions: this.revisions,
      now: this.now,
      controllerState: this.state,
    };
  }

  reconcile(): ReconcileResult<DaemonSetStatus, DaemonSetControllerState> {
    return reconcileDaemonSet(deepFreeze(this.input()), { seed: 7 });
  }

  /** Writes a reconcile's actions through the cluster and keeps its controller state. */
  apply(r: ReconcileResult<unknown, DaemonSetControllerState>): void {
    for (const [i, res] of this.cluster.apply(r.actions).entries())
      if (!res.ok) throw new Error(`${r.actions[i].verb} ${r.actions[i].reason} refused: ${res.message}`);
    this.state = r.controllerState;
  }

  /** Lets `ms` of the cluster's time pass: pulls, starts, readiness, crashes, terminations. */
  advance(ms: number): void {
    this.cluster.advance(ms);
  }

  /**
   * The world's disturbance of a step: each running pod not at revision `hash` fails with
   * `oldPodFailureProbability` (drawn from the cluster's seeded random source), half of them by a
   * crash (restarted after the back-off), half by failing readiness for 30 s.
   */
  disturb(hash: string): void {
    const p = this.opts.oldPodFailureProbability;
    if (p <= 0) return;
    const { kubelet, rng } = this.cluster;
    for (const pod of this.pods) {
      const uid = pod.metadata?.uid;
      if (!uid || pod.metadata?.deletionTimestamp) continue;
      if (pod.metadata?.labels?.['controller-revision-hash'] === hash) continue;
      const runtime = kubelet.runtime(uid);
      const container = runtime?.containers.find((c) => c.state === 'running');
      if (!runtime || !container || rng.next() >= p) continue;
      if (rng.next() < 0.5) kubelet.crash(runtime.rt, container, 'Error');
      else kubelet.failReadiness(runtime.rt, container, 30_000);
    }
    this.cluster.settle();
  }

  /** A user's update of the DaemonSet (the store bumps its generation on a spec change). */
  replaceDs(f: (ds: DaemonSet) => DaemonSet): void {
    const res = this.cluster.write(
      { verb: 'update', object: f(this.ds) as KubeObject, reason: 'Apply' },
      'user',
    );
    if (!res.ok) throw new Error(`the DaemonSet update was refused: ${res.message}`);
  }

  addNodes(nodes: Node[]): void {
    this.cluster.addNodes(nodes.map(nodeConfig));
  }
}

/** A test node (name, labels, taints) as the cluster registers it. */
function nodeConfig(n: Node): NodeConfig {
  return { name: n.metadata?.name ?? '', labels: n.metadata?.labels, taints: n.spec?.taints };
}

/** Pod-level actions of a result (creates, deletes, patches and status writes of pods). */
export function podActions(actions: readonly Action[]): Action[] {
  return actions.filter(
    (a) =>
      (a.verb === 'create' && a.object.kind === 'Pod') ||
      ((a.verb === 'delete' || a.verb === 'patch' || a.verb === 'updateStatus') && a.target.kind === 'Pod'),
  );
}
