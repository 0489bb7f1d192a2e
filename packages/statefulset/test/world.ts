// A small deterministic world for end-to-end and property tests of reconcileStatefulSet: the
// test runs the reconcile, and @kruise-ts/cluster plays everything else. Its store writes the
// actions (uids, versions, generation, garbage collection of owned pods and claims), its
// scheduler binds the pods to the world's nodes, and its kubelet pulls images, starts and
// readies containers on seeded, jittered timings (so pods become ready in a random order),
// restarts a container whose image was changed in place, recomputes Ready from the readiness
// gates (InPlaceUpdateReady) and finishes a graceful deletion after the containers exit (a
// bound pod keeps its deletionTimestamp for `terminationMs`, capped by its grace period).
// The world does not fail pods on its own: a test that wants a failed or labelled pod writes
// it, as a user would, with `writePod`.
import type { KubeObject, StatefulSet, StatefulSetStatus } from '@kruise-ts/api';
import { createStructureCache } from '@kruise-ts/api';
import { type Cluster, createCluster, type Timings } from '@kruise-ts/cluster';
import {
  type Action,
  createRng,
  diffPodForPatch,
  type FeatureGates,
  type ReconcileResult,
  type Rng,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { reconcileStatefulSet } from '../src/reconcile';
import type { StatefulSetControllerState } from '../src/types';

/** The world's start (the cluster's default start time), in ms since the epoch. */
export const T0 = Date.parse('2024-01-01T00:00:00Z');
/** RFC 3339 at second precision, as the API server writes times. */
export const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A v1beta1 Advanced StatefulSet with sensible test defaults; `spec` fields override. */
export function makeSet(
  spec: Partial<StatefulSet['spec']> = {},
  meta: Partial<StatefulSet['metadata']> = {},
): StatefulSet {
  const image = 'nginx';
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'foo', namespace: 'default', uid: 'set-uid', generation: 1, ...meta },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'foo' } },
      serviceName: 'foo-svc',
      podManagementPolicy: 'OrderedReady',
      template: {
        metadata: { labels: { app: 'foo' } },
        spec: {
          containers: [{ name: 'main', image }],
          readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        },
      },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' },
      },
      revisionHistoryLimit: 10,
      ...spec,
    },
  } as StatefulSet;
}

/**
 * The kubelet's timings: an image pull of ~2 s per node (then cached), ~1 s to start, ~2 s to
 * pass readiness, ~3 s for containers to exit after a delete; every duration spread by ±80%
 * (seeded), so pods that start together become ready, and terminate, in a random order.
 */
export const WORLD_TIMINGS: Partial<Timings> = {
  imagePull: { defaultMs: 2_000, images: {} },
  containerStartMs: 1_000,
  readinessDelayMs: 2_000,
  terminationMs: 3_000,
  jitter: 0.8,
};

/** The three nodes pods are scheduled on. */
const NODES = [{ name: 'node-1' }, { name: 'node-2' }, { name: 'node-3' }];

export class World {
  readonly cluster: Cluster;
  /** The test's own random draws (how long to wait between rounds), apart from the cluster's. */
  readonly rng: Rng;
  controllerState: StatefulSetControllerState | undefined;
  history: {
    result: ReconcileResult<StatefulSetStatus, StatefulSetControllerState>;
    before: Pod[];
    set: StatefulSet;
    now: string;
  }[] = [];
  /** The set's apiVersion (the store keys sets by group, so v1alpha1 and v1beta1 read the same). */
  private readonly setRef: { apiVersion: string; namespace: string; name: string };

  /**
   * The entry check's memory of observed objects, kept across reconciles as a controller loop
   * keeps it (same results, far less work: the store keeps unchanged objects as they are).
   */
  readonly structureCache = createStructureCache();

  constructor(
    set: StatefulSet,
    readonly featureGates: Partial<FeatureGates> = {},
    seed = 1,
    timings: Partial<Timings> = WORLD_TIMINGS,
  ) {
    this.rng = createRng(seed);
    this.cluster = createCluster({
      nodes: NODES,
      seed,
      startTime: iso(T0),
      timings,
      freezeObjects: true,
    });
    this.setRef = {
      apiVersion: set.apiVersion ?? 'apps.kruise.io/v1beta1',
      namespace: set.metadata.namespace ?? 'default',
      name: set.metadata.name ?? '',
    };
    this.write([{ verb: 'create', object: set as KubeObject, reason: 'Apply' }]);
  }

  /** The cluster's time, RFC 3339. */
  get now(): string {
    return this.cluster.now();
  }
  /** The cluster's time in ms since the epoch. */
  get nowMs(): number {
    return T0 + this.cluster.nowMs;
  }
  /** Every stored object (nodes included). */
  get objects(): KubeObject[] {
    return this.cluster.objects();
  }
  set(): StatefulSet {
    const { apiVersion, namespace, name } = this.setRef;
    return this.cluster.get<StatefulSet>('StatefulSet', name, namespace, apiVersion)!;
  }
  pods(): Pod[] {
    return this.cluster.list('Pod') as unknown as Pod[];
  }
  pod(name: string): Pod | undefined {
    return this.cluster.get('Pod', name, this.setRef.namespace) as unknown as Pod | undefined;
  }
  revisions(): ControllerRevision[] {
    return this.cluster.list('ControllerRevision') as unknown as ControllerRevision[];
  }
  pvcs(): PersistentVolumeClaim[] {
    return this.cluster.list('PersistentVolumeClaim') as unknown as PersistentVolumeClaim[];
  }
  ordinals(): number[] {
    return this.pods()
      .map((p) => Number((p.metadata?.name ?? '').split('-').pop()))
      .sort((a, b) => a - b);
  }

  input() {
    return {
      statefulSet: this.set(),
      pods: this.pods(),
      revisions: this.revisions(),
      pvcs: this.pvcs(),
      now: this.now,
      ...(this.controllerState ? { controllerState: this.controllerState } : {}),
    };
  }

  /** One reconcile; its actions go through the cluster (which then lets kubelet and scheduler react). */
  reconcile(): ReconcileResult<StatefulSetStatus, StatefulSetControllerState> {
    const before = this.pods();
    const set = this.set();
    const result = reconcileStatefulSet(this.input(), {
      featureGates: this.featureGates,
      structureCache: this.structureCache,
    });
    this.controllerState = result.controllerState;
    this.write(result.actions, 'controller');
    this.history.push({ result, before, set, now: this.now });
    return result;
  }

  /**
   * Writes actions through the cluster as `source`. A refused write throws: the store answers
   * as an API server would, and a reconcile of an up-to-date view should never be refused.
   */
  write(actions: readonly Action[], source = 'user'): void {
    for (const [i, res] of this.cluster.apply(actions, source).entries())
      if (!res.ok) {
        const a = actions[i];
        throw new Error(`${a.verb} (${(a as { reason?: string }).reason}) refused: ${res.message}`);
      }
  }

  /** Replaces the set's spec (as a user's `kubectl apply`; the store bumps the generation). */
  updateSpec(mutate: (spec: StatefulSet['spec']) => StatefulSet['spec']): void {
    const set = this.set();
    this.write([
      { verb: 'update', object: { ...set, spec: mutate(structuredClone(set.spec)) }, reason: 'Apply' },
    ]);
  }

  setImage(image: string): void {
    this.updateSpec((s) => ({
      ...s,
      template: {
        ...s.template,
        spec: { ...s.template.spec!, containers: [{ ...s.template.spec!.containers[0], image }] },
      },
    }));
  }

  /** Lets `seconds` of the cluster's time pass: pulls, starts, readiness, terminations. */
  advance(seconds: number): void {
    this.cluster.advance(seconds * 1000);
  }

  /** A user's write of a pod (a merge patch of what changed from `prev` to `next`). */
  writePod(prev: Pod, next: Pod): void {
    const patch = diffPodForPatch(prev, next);
    if (Object.keys(patch).length === 0) return;
    this.write([
      {
        verb: 'patch',
        target: {
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: prev.metadata?.namespace ?? '',
          name: prev.metadata?.name ?? '',
        },
        patchType: 'merge',
        patch,
        reason: 'Edit',
      },
    ]);
  }
}
