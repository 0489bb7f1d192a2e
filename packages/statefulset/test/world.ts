// A small deterministic world for end-to-end tests of reconcileStatefulSet: an object store
// driven by core's applyActions, the reconcile, and a kubelet that moves pods Pending →
// Running → Ready, applies in-place image changes, recomputes Ready from readiness gates and
// finishes graceful deletions (pods carry a world finalizer so deletes are graceful).
import {
  createStructureCache,
  type KubeObject,
  type StatefulSet,
  type StatefulSetStatus,
} from '@kruise-ts/api';
import {
  type Action,
  createRng,
  diffPodForPatch,
  type FeatureGates,
  type ReconcileResult,
  type Rng,
} from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { reconcileStatefulSet } from '../src/reconcile';
import type { StatefulSetControllerState } from '../src/types';

export const T0 = Date.parse('2024-01-01T00:00:00Z');
export const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
export const GRACEFUL_FINALIZER = 'test.kruise-ts.io/graceful';

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

export interface KubeletOptions {
  /** Probability per step that a pod advances one stage (default 1). */
  advanceProbability?: number;
  /** Probability per step that a terminating pod finishes (default 1). */
  terminateProbability?: number;
  /** Graceful deletion (pods get a world finalizer): default true. */
  graceful?: boolean;
}

export class World {
  objects: KubeObject[];
  nowMs = T0;
  readonly rng: Rng;
  controllerState: StatefulSetControllerState | undefined;
  private applyCounter = 0;
  history: {
    result: ReconcileResult<StatefulSetStatus, StatefulSetControllerState>;
    before: Pod[];
    set: StatefulSet;
    now: string;
  }[] = [];

  constructor(
    set: StatefulSet,
    readonly featureGates: Partial<FeatureGates> = {},
    seed = 1,
    readonly kubelet: KubeletOptions = {},
  ) {
    this.rng = createRng(seed);
    this.objects = applyActions([], [{ verb: 'create', object: set, reason: 'test' }], this.now, { seed });
  }

  get now(): string {
    return iso(this.nowMs);
  }
  set(): StatefulSet {
    return this.objects.find((o) => o.kind === 'StatefulSet') as StatefulSet;
  }
  pods(): Pod[] {
    return this.objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
  }
  pod(name: string): Pod | undefined {
    return this.pods().find((p) => p.metadata?.name === name);
  }
  revisions(): ControllerRevision[] {
    return this.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as ControllerRevision[];
  }
  pvcs(): PersistentVolumeClaim[] {
    return this.objects.filter(
      (o) => o.kind === 'PersistentVolumeClaim',
    ) as unknown as PersistentVolumeClaim[];
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

  /**
   * The entry check's memory of observed objects, kept across reconciles as a controller loop
   * keeps it (same results, far less work: the store keeps unchanged objects as they are).
   */
  readonly structureCache = createStructureCache();

  /** One reconcile; its actions (events aside) are applied to the store. */
  reconcile(): ReconcileResult<StatefulSetStatus, StatefulSetControllerState> {
    const before = this.pods();
    const set = this.set();
    const result = reconcileStatefulSet(this.input(), {
      featureGates: this.featureGates,
      structureCache: this.structureCache,
    });
    this.controllerState = result.controllerState;
    this.apply(this.withGraceful(result.actions));
    this.history.push({ result, before, set, now: this.now });
    return result;
  }

  /** Pods the controller creates get the world's finalizer, so deletions are graceful. */
  private withGraceful(actions: readonly Action[]): Action[] {
    if (this.kubelet.graceful === false) return [...actions];
    return actions.map((a) => {
      if (a.verb !== 'create' || a.object.kind !== 'Pod') return a;
      const fin = [...(a.object.metadata.finalizers ?? []), GRACEFUL_FINALIZER];
      return { ...a, object: { ...a.object, metadata: { ...a.object.metadata, finalizers: fin } } };
    });
  }

  apply(actions: readonly Action[]): void {
    const nonEvents = actions.filter((a) => a.verb !== 'event');
    this.objects = applyActions(this.objects, nonEvents, this.now, { seed: 1000 + this.applyCounter++ });
  }

  /** Replaces the set's spec (as a user's `kubectl apply`; generation goes up). */
  updateSpec(mutate: (spec: StatefulSet['spec']) => StatefulSet['spec']): void {
    const set = this.set();
    this.apply([
      { verb: 'update', object: { ...set, spec: mutate(structuredClone(set.spec)) }, reason: 'user' },
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

  advance(seconds: number): void {
    this.nowMs += seconds * 1000;
  }

  /** Writes a pod the way its kubelet would (a merge patch, so finalizer removal completes deletion). */
  writePod(prev: Pod, next: Pod): void {
    const patch = diffPodForPatch(prev, next);
    if (Object.keys(patch).length === 0) return;
    this.apply([
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
        reason: 'kubelet',
      },
    ]);
  }

  /** One kubelet step over every pod (each advances with the configured probability). */
  kubeletStep(): void {
    for (const pod of this.pods()) {
      const p = this.pods().find((x) => x.metadata?.uid === pod.metadata?.uid);
      if (!p) continue;
      const next = this.advancePod(p);
      if (next) this.writePod(p, next);
    }
  }

  private chance(p: number | undefined): boolean {
    return this.rng.next() < (p ?? 1);
  }

  /** The next stage of one pod, or undefined when it stays. */
  advancePod(pod: Pod): Pod | undefined {
    if (pod.metadata?.deletionTimestamp) {
      if (!this.chance(this.kubelet.terminateProbability)) return undefined;
      const fin = (pod.metadata.finalizers ?? []).filter((f) => f !== GRACEFUL_FINALIZER);
      return { ...pod, metadata: { ...pod.metadata, finalizers: fin } };
    }
    if (!this.chance(this.kubelet.advanceProbability)) return undefined;
    const phase = pod.status?.phase;
    const containers = pod.spec?.containers ?? [];
    if (!phase) return { ...pod, status: { ...(pod.status ?? {}), phase: 'Pending' } };
    if (phase === 'Pending') {
      return {
        ...pod,
        status: {
          ...pod.status,
          phase: 'Running',
          containerStatuses: containers.map((c) => statusOf(c.name, c.image ?? '', false)),
          conditions: setCond(
            setCond(pod.status?.conditions ?? [], { type: 'ContainersReady', status: 'False' }),
            {
              type: 'Ready',
              status: 'False',
            },
          ),
        },
      };
    }
    if (phase !== 'Running') return undefined;
    const statuses = pod.status?.containerStatuses ?? [];
    const stale = containers.some((c) => statuses.find((s) => s.name === c.name)?.image !== c.image);
    let next: Pod = pod;
    if (stale) {
      next = {
        ...pod,
        status: {
          ...pod.status,
          containerStatuses: containers.map((c) => statusOf(c.name, c.image ?? '', true)),
        },
      };
    } else if (statuses.some((s) => !s.ready)) {
      next = {
        ...pod,
        status: { ...pod.status, containerStatuses: statuses.map((s) => ({ ...s, ready: true })) },
      };
    }
    return withReady(next, this.now) === pod ? undefined : withReady(next, this.now);
  }
}

function statusOf(name: string, image: string, ready: boolean) {
  return { name, image, imageID: `sha-${image}`, ready, restartCount: 0, started: ready };
}

function setCond(conds: readonly PodCondition[], c: PodCondition): PodCondition[] {
  const i = conds.findIndex((x) => x.type === c.type);
  if (i >= 0 && conds[i].status === c.status) return [...conds];
  const out = [...conds];
  if (i >= 0) out[i] = c;
  else out.push(c);
  return out;
}

/** The kubelet's Ready: containers ready and every readiness gate True; transition time on flips. */
export function withReady(pod: Pod, now: string): Pod {
  const statuses = pod.status?.containerStatuses ?? [];
  const containersReady = statuses.length > 0 && statuses.every((s) => s.ready);
  const conds = pod.status?.conditions ?? [];
  const gatesOk = (pod.spec?.readinessGates ?? []).every(
    (g) => conds.find((c) => c.type === g.conditionType)?.status === 'True',
  );
  let next = setCond(conds, {
    type: 'ContainersReady',
    status: containersReady ? 'True' : 'False',
    lastTransitionTime: now,
  });
  next = setCond(next, {
    type: 'Ready',
    status: containersReady && gatesOk ? 'True' : 'False',
    lastTransitionTime: now,
  });
  const same =
    next.length === conds.length &&
    next.every((c, i) => c.type === conds[i].type && c.status === conds[i].status);
  if (same && pod.status?.containerStatuses === statuses) return pod;
  return { ...pod, status: { ...pod.status, conditions: next } };
}
