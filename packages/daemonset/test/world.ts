// A small deterministic cluster for property tests: reconcileDaemonSet + core's applyActions
// + a mini kubelet (container statuses, ContainersReady and Ready from readiness gates) with
// seeded random readiness. Old pods may "break" (never become ready again) — the world's
// doing, not the controller's.
import type { DaemonSet, DaemonSetStatus, KubeObject } from '@kruise-ts/api';
import { type Action, createRng, type ReconcileResult } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Node, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { type DaemonSetControllerState, reconcileDaemonSet } from '../src';
import { iso } from './helpers';

export interface WorldOptions {
  /** Probability that a not-ready container becomes ready in a step. */
  readyProbability: number;
  /** Probability that an old, ready pod breaks for good in a step (0 = never). */
  breakProbability: number;
  seed: number;
}

export class World {
  objects: KubeObject[];
  now: number;
  state: DaemonSetControllerState | undefined;
  readonly broken = new Set<string>();
  private readonly rng: ReturnType<typeof createRng>;
  private step = 0;

  constructor(
    ds: DaemonSet,
    nodes: Node[],
    readonly opts: WorldOptions,
    now = 1_000_000,
  ) {
    this.objects = [ds, ...(nodes as KubeObject[])];
    this.now = now;
    this.rng = createRng(opts.seed);
  }

  get ds(): DaemonSet {
    return this.objects.find((o) => o.kind === 'DaemonSet') as DaemonSet;
  }
  get nodes(): Node[] {
    return this.objects.filter((o) => o.kind === 'Node') as Node[];
  }
  get pods(): Pod[] {
    return this.objects.filter((o) => o.kind === 'Pod') as Pod[];
  }
  get revisions(): ControllerRevision[] {
    return this.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as ControllerRevision[];
  }

  input() {
    return {
      daemonSet: this.ds,
      nodes: this.nodes,
      pods: this.pods,
      revisions: this.revisions,
      now: iso(this.now),
      controllerState: this.state,
    };
  }

  reconcile(): ReconcileResult<DaemonSetStatus, DaemonSetControllerState> {
    return reconcileDaemonSet(deepFreeze(this.input()), { seed: 7 });
  }

  /** Applies a reconcile's actions (events dropped) and keeps its controller state. */
  apply(r: ReconcileResult<unknown, DaemonSetControllerState>): void {
    const actions = r.actions.filter((a: Action) => a.verb !== 'event');
    this.step++;
    this.objects = applyActions(this.objects, actions, iso(this.now), {
      seed: 11,
      uidCounterStart: this.step * 10_000,
    });
    this.state = r.controllerState;
  }

  replaceDs(f: (ds: DaemonSet) => DaemonSet): void {
    this.objects = this.objects.map((o) => (o.kind === 'DaemonSet' ? f(o as DaemonSet) : o));
  }

  addNodes(nodes: Node[]): void {
    this.objects = [...this.objects, ...(nodes as KubeObject[])];
  }

  /** One kubelet pass: container restarts for new images, random readiness, Ready from gates. */
  kubelet(hash: string | undefined, opts: { allReady?: boolean } = {}): void {
    const ts = iso(this.now);
    this.objects = this.objects.map((o) => {
      if (o.kind !== 'Pod' || o.metadata.deletionTimestamp) return o;
      const pod = o as Pod;
      const name = pod.metadata?.name ?? '';
      const old = pod.metadata?.labels?.['controller-revision-hash'] !== hash;
      if (
        old &&
        !this.broken.has(name) &&
        this.opts.breakProbability > 0 &&
        this.rng.next() < this.opts.breakProbability
      ) {
        this.broken.add(name);
      }
      const statuses = (pod.spec?.containers ?? []).map((c) => {
        const prev = pod.status?.containerStatuses?.find((s) => s.name === c.name);
        const restarted = !prev || prev.image !== c.image;
        let ready = restarted ? false : (prev?.ready ?? false);
        if (old && this.broken.has(name))
          ready = false; // an in-place update repairs it
        else if (!ready && (opts.allReady || this.rng.next() < this.opts.readyProbability)) ready = true;
        return {
          name: c.name,
          image: c.image ?? '',
          imageID: `id:${c.image}`,
          ready,
          restartCount: (prev?.restartCount ?? 0) + (restarted && prev ? 1 : 0),
          containerID: `cid:${name}:${c.image}`,
        };
      });
      const conditions = [...(pod.status?.conditions ?? [])];
      const set = (type: string, status: boolean) => {
        const value = status ? 'True' : 'False';
        const i = conditions.findIndex((c) => c.type === type);
        if (i >= 0 && conditions[i].status === value) return;
        const c: PodCondition = { type, status: value, lastTransitionTime: ts };
        if (i >= 0) conditions[i] = c;
        else conditions.push(c);
      };
      const containersReady = statuses.every((s) => s.ready);
      set('ContainersReady', containersReady);
      const gates = (pod.spec?.readinessGates ?? []).every(
        (g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True',
      );
      set('Ready', containersReady && gates);
      return {
        ...pod,
        status: { ...pod.status, phase: 'Running', containerStatuses: statuses, conditions },
      } as KubeObject;
    });
  }
}

/** Pod-level actions of a result (creates, deletes, patches and status writes of pods). */
export function podActions(actions: readonly Action[]): Action[] {
  return actions.filter(
    (a) =>
      (a.verb === 'create' && a.object.kind === 'Pod') ||
      ((a.verb === 'delete' || a.verb === 'patch' || a.verb === 'updateStatus') && a.target.kind === 'Pod'),
  );
}
