// A tiny deterministic world for end-to-end tests: an object store driven by core's
// applyActions, the CloneSet reconcile, and a kubelet that starts pods, applies in-place
// image changes, recomputes Ready from readiness gates, and crashes/recovers pods on a
// seeded schedule (those failures are the world's doing, not the controller's).
import type { CloneSet, CloneSetStatus, KubeObject } from '@kruise-ts/api';
import { type Action, createRng, type ReconcileResult, type Rng } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { reconcileCloneSet } from '../src/reconcile';
import type { ReconcileCloneSetOptions } from '../src/types';

export const T0 = Date.parse('2024-01-01T00:00:00Z');
export const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Lifecycle hooks whose owner the world plays (see `World.hookOwner`). */
export const HOOKS = {
  preDeleteFinalizer: 'example.com/hold',
  servingLabel: 'example.com/serving',
  warmLabel: 'example.com/warm',
};

export interface KubeletOptions {
  /** Probability per step that a pending pod starts (default 1). */
  startProbability?: number;
  /** Probability per step that a Running pod crashes (not Ready) by itself. */
  crashProbability?: number;
  /** Probability per step that a crashed pod recovers. */
  recoverProbability?: number;
  /** Probability per step that a pending in-place image change is applied. */
  imageProbability?: number;
  /** Play the owner of the HOOKS lifecycle hooks (add/remove their marks at random). */
  hookOwner?: boolean;
}

export class World {
  objects: KubeObject[];
  nowMs: number;
  private applyCounter = 0;
  readonly rng: Rng;
  /** Pods the kubelet crashed and that have not recovered yet. */
  readonly crashed = new Set<string>();
  history: { result: ReconcileResult<CloneSetStatus>; before: Pod[] }[] = [];

  constructor(
    cs: CloneSet,
    readonly options: ReconcileCloneSetOptions = {},
    seed = 1,
    readonly kubeletOptions: KubeletOptions = {},
  ) {
    this.nowMs = T0;
    this.rng = createRng(seed);
    this.objects = applyActions([], [{ verb: 'create', object: cs, reason: 'test' }], iso(this.nowMs), {
      seed,
    });
  }

  get now(): string {
    return iso(this.nowMs);
  }
  cloneSet(): CloneSet {
    return this.objects.find((o) => o.kind === 'CloneSet') as CloneSet;
  }
  pods(): Pod[] {
    return this.objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
  }
  revisions(): ControllerRevision[] {
    return this.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as ControllerRevision[];
  }
  pvcs(): PersistentVolumeClaim[] {
    return this.objects.filter(
      (o) => o.kind === 'PersistentVolumeClaim',
    ) as unknown as PersistentVolumeClaim[];
  }

  /** The reconcile input as a controller would see it now. */
  input() {
    return {
      cloneSet: this.cloneSet(),
      pods: this.pods(),
      revisions: this.revisions(),
      pvcs: this.pvcs(),
      now: this.now,
    };
  }

  /** One reconcile; its actions (events aside) are applied to the store. */
  reconcile(): ReconcileResult<CloneSetStatus> {
    const before = this.pods();
    const result = reconcileCloneSet(this.input(), this.options);
    this.apply(result.actions);
    this.history.push({ result, before });
    return result;
  }

  apply(actions: readonly Action[]): void {
    const nonEvents = actions.filter((a) => a.verb !== 'event');
    this.objects = applyActions(this.objects, nonEvents, this.now, { seed: 1000 + this.applyCounter++ });
  }

  /** Applies a change to the CloneSet spec as a user would (generation bumps). */
  updateSpec(mutate: (cs: CloneSet) => CloneSet): void {
    const cs = this.cloneSet();
    this.apply([{ verb: 'update', object: mutate(structuredClone(cs)), reason: 'user' }]);
  }

  advance(seconds: number): void {
    this.nowMs += seconds * 1000;
  }

  /**
   * The owner of the HOOKS hooks: registers the preDelete finalizer and the serving label on
   * pods, releases PreparingDelete pods (removes the finalizer) and PreparingUpdate pods
   * (removes the serving label) after a while, puts the serving label back on Updated pods, and
   * warms PreparingNormal pods.
   */
  private playHookOwner(pod: Pod): void {
    const meta = pod.metadata!;
    if (!meta.labels) meta.labels = {};
    const labels = meta.labels;
    const state = labels['lifecycle.apps.kruise.io/state'] ?? '';
    const fin = meta.finalizers ?? [];
    const coin = () => this.rng.next() < 0.5;
    if (state === 'PreparingDelete') {
      if (coin()) meta.finalizers = fin.filter((f) => f !== HOOKS.preDeleteFinalizer);
    } else if (!fin.includes(HOOKS.preDeleteFinalizer) && coin()) {
      meta.finalizers = [...fin, HOOKS.preDeleteFinalizer];
    }
    if (state === 'PreparingUpdate') {
      if (coin()) delete labels[HOOKS.servingLabel];
    } else if (
      (state === 'Normal' || state === 'Updated') &&
      labels[HOOKS.servingLabel] !== 'true' &&
      coin()
    ) {
      labels[HOOKS.servingLabel] = 'true';
    }
    if (state === 'PreparingNormal' && coin()) labels[HOOKS.warmLabel] = 'true';
  }

  /** One kubelet pass over every pod. */
  kubelet(): void {
    const o = this.kubeletOptions;
    const now = this.now;
    const removed = new Set<string>();
    const out: KubeObject[] = [];
    let node = 0;
    for (const obj of this.objects) {
      if (obj.kind !== 'Pod') {
        out.push(obj);
        continue;
      }
      const pod = structuredClone(obj) as unknown as Pod;
      const meta = pod.metadata!;
      if (meta.deletionTimestamp) {
        removed.add(meta.uid ?? '');
        continue;
      }
      const spec = pod.spec!;
      if (!pod.status) (pod as { status?: Pod['status'] }).status = {};
      const status = pod.status!;
      if (!spec.nodeName) spec.nodeName = `node-${node++ % 3}`;
      const chance = (p: number | undefined, dflt: number) => this.rng.next() < (p ?? dflt);
      if (status.phase !== 'Running') {
        if (chance(o.startProbability, 1)) {
          status.phase = 'Running';
          status.containerStatuses = spec.containers.map((c) => ({
            name: c.name,
            image: c.image ?? '',
            imageID: `sha-${c.image}`,
            ready: true,
            restartCount: 0,
          }));
        } else status.phase = 'Pending';
      } else {
        for (const c of spec.containers) {
          const cst = status.containerStatuses?.find((s) => s.name === c.name);
          if (cst && cst.image !== c.image && chance(o.imageProbability, 1)) {
            cst.image = c.image ?? '';
            cst.imageID = `sha-${c.image}`;
            cst.restartCount = (cst.restartCount ?? 0) + 1;
          }
        }
        const name = meta.name ?? '';
        if (this.crashed.has(name)) {
          if (chance(o.recoverProbability, 0.5)) this.crashed.delete(name);
        } else if (chance(o.crashProbability, 0)) this.crashed.add(name);
      }
      if (o.hookOwner) this.playHookOwner(pod);
      if ((spec.readinessGates ?? []).some((g) => g.conditionType === 'KruisePodReady')) {
        // the pod-readiness controller initialises KruisePodReady to True
        if (!status.conditions?.some((c) => c.type === 'KruisePodReady')) {
          status.conditions = [
            ...(status.conditions ?? []),
            { type: 'KruisePodReady', status: 'True', lastTransitionTime: now } as PodCondition,
          ];
        }
      }
      const containersReady =
        status.phase === 'Running' &&
        !this.crashed.has(meta.name ?? '') &&
        spec.containers.every(
          (c) => status.containerStatuses?.find((s) => s.name === c.name)?.image === c.image,
        );
      setCond(pod, 'ContainersReady', containersReady, now);
      const gatesOk = (spec.readinessGates ?? []).every(
        (g) => status.conditions?.find((c) => c.type === g.conditionType)?.status === 'True',
      );
      setCond(pod, 'Ready', containersReady && gatesOk, now);
      out.push(pod as unknown as KubeObject);
    }
    // dependents of removed pods (PVCs re-owned by terminating pods) go with them
    this.objects = out.filter(
      (x) => !(x.metadata.ownerReferences ?? []).some((r) => r.controller && removed.has(r.uid)),
    );
  }
}

function setCond(pod: Pod, type: string, value: boolean, now: string): void {
  if (!pod.status!.conditions) pod.status!.conditions = [];
  const conds = pod.status!.conditions;
  const status = value ? 'True' : 'False';
  const existing = conds.find((c) => c.type === type);
  if (existing) {
    if (existing.status !== status) {
      existing.status = status;
      existing.lastTransitionTime = now;
      delete existing.reason;
      delete existing.message;
    }
  } else conds.push({ type, status, lastTransitionTime: now } as PodCondition);
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
