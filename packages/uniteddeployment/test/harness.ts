// Test harness for the reconcile tests: an object list acting as the cluster, changed with core's
// applyActions (the API-server model), and a loop running reconciles until they settle.
import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import {
  type ReconcileUnitedDeploymentInput,
  reconcileUnitedDeployment,
  type UnitedDeploymentControllerState,
  type UnitedDeploymentObject,
} from '../src/index';

export interface Cluster {
  ud: UnitedDeploymentObject;
  objects: KubeObject[];
  counter: number;
  log: Action[];
  controllerState?: UnitedDeploymentControllerState;
}

const isRevision = (o: KubeObject) => o.kind === 'ControllerRevision';
const isPod = (o: KubeObject) => o.kind === 'Pod';
const isUD = (o: KubeObject) => o.kind === 'UnitedDeployment';

/** The reconcile input for the cluster as it is. */
export function inputOf(cluster: Cluster, now: string): ReconcileUnitedDeploymentInput {
  return {
    unitedDeployment: cluster.ud,
    subsets: cluster.objects.filter((o) => !isRevision(o) && !isPod(o) && o.kind !== 'Event'),
    pods: cluster.objects.filter(isPod) as Pod[],
    revisions: cluster.objects.filter(isRevision) as unknown as ControllerRevision[],
    now,
    controllerState: cluster.controllerState,
  };
}

/** Applies actions in order with core's applyActions (the UD lives in the same store). */
export function apply(cluster: Cluster, actions: Action[], now: string): void {
  cluster.log.push(...actions);
  cluster.counter++;
  const all = applyActions([cluster.ud, ...cluster.objects], actions, now, { seed: cluster.counter });
  cluster.ud = all.find(isUD) as UnitedDeploymentObject;
  cluster.objects = all.filter((o) => !isUD(o) && o.kind !== 'Event');
}

/** Runs reconciles until one returns no write; returns the number of reconciles. */
export function settle(cluster: Cluster, now: string, max = 10): number {
  for (let i = 1; i <= max; i++) {
    const result = reconcileUnitedDeployment(inputOf(cluster, now));
    cluster.controllerState = result.controllerState;
    const writes = result.actions.filter((a) => a.verb !== 'event');
    if (writes.length === 0) return i;
    apply(cluster, result.actions, now);
  }
  throw new Error(`reconcile did not settle after ${max} rounds`);
}

/** The workloads of the given apiVersion group + kind (all subset workloads when omitted). */
export function workloads(cluster: Cluster, kind?: { apiVersion: string; kind: string }): KubeObject[] {
  return cluster.objects.filter(
    (o) =>
      !isRevision(o) &&
      !isPod(o) &&
      (!kind || (o.kind === kind.kind && o.apiVersion.split('/')[0] === kind.apiVersion.split('/')[0])),
  );
}
