// A tiny world for multi-round controller tests: a SidecarSet, pods and revisions held as
// API objects; each round runs reconcileSidecarSet and applies its actions with core's
// in-memory API server (applyActions), like the simulator would.
import type { KubeObject, SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import type { ReconcileResult } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { reconcileSidecarSet } from '../src/index';
import { setPath } from './helpers';

/** The objects of one small cluster. */
export class World {
  objects: KubeObject[];
  clock = Date.parse('2025-06-01T00:00:00Z');

  constructor(sidecarSet: SidecarSet, pods: Pod[], revisions: ControllerRevision[] = []) {
    this.objects = [
      sidecarSet as KubeObject,
      ...(pods as unknown as KubeObject[]),
      ...(revisions as unknown as KubeObject[]),
    ];
  }

  get now(): string {
    return new Date(this.clock).toISOString().replace('.000Z', 'Z');
  }

  sidecarSet(): SidecarSet {
    return this.objects.find((o) => o.kind === 'SidecarSet') as SidecarSet;
  }

  pods(): Pod[] {
    return this.objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
  }

  pod(name: string): Pod {
    return this.pods().find((p) => p.metadata?.name === name)!;
  }

  revisions(): ControllerRevision[] {
    return this.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as ControllerRevision[];
  }

  /** One controller round on frozen inputs; its actions are applied. */
  reconcile(): ReconcileResult<SidecarSetStatus> {
    const r = reconcileSidecarSet(
      deepFreeze({
        sidecarSet: this.sidecarSet(),
        pods: this.pods(),
        revisions: this.revisions(),
        now: this.now,
      }),
    );
    this.apply(r.actions);
    this.clock += 1000;
    return r;
  }

  apply(actions: ReconcileResult<unknown>['actions']): void {
    this.objects = applyActions(this.objects, actions, this.now).filter((o) => o.kind !== 'Event');
  }

  /** Replaces the SidecarSet's spec (as a user edit would; status kept). */
  editSidecarSet(fn: (ss: SidecarSet) => SidecarSet): void {
    this.objects = this.objects.map((o) =>
      o.kind === 'SidecarSet' ? (fn(o as SidecarSet) as KubeObject) : o,
    );
  }

  /** Assigns fields of a pod (the kubelet's doing). */
  setPodFields(name: string, fields: Record<string, unknown>): void {
    this.objects = this.objects.map((o) => {
      if (o.kind !== 'Pod' || o.metadata.name !== name) return o;
      const copy = JSON.parse(JSON.stringify(o));
      for (const [p, v] of Object.entries(fields)) setPath(copy, p, v);
      return copy;
    });
  }

  /** Changes one pod with a function (the kubelet's doing). */
  updatePod(name: string, fn: (p: Pod) => Pod): void {
    this.objects = this.objects.map((o) =>
      o.kind === 'Pod' && o.metadata.name === name
        ? (fn(JSON.parse(JSON.stringify(o))) as unknown as KubeObject)
        : o,
    );
  }
}
