// A tiny fake controller for simulator tests: `FakeSet` (test.kruise.io/v1)
// keeps `spec.replicas` pods of `spec.image`, updates one pod's image in place
// at a time (only while every pod is ready), and writes readyReplicas.
import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1';
import { type ControllerRegistration, ControllerRegistry } from '../src/controllers';

export interface FakeSet extends KubeObject {
  spec: {
    replicas: number;
    image: string;
    cpu?: string;
    nodeSelector?: Record<string, string>;
    requeueSeconds?: number;
  };
  status?: { replicas: number; readyReplicas: number; updated: number };
}

export function fakeSet(
  name: string,
  replicas: number,
  image = 'nginx:1.0',
  extra: Partial<FakeSet['spec']> = {},
): FakeSet {
  return {
    apiVersion: 'test.kruise.io/v1',
    kind: 'FakeSet',
    metadata: { name, namespace: 'default' },
    spec: { replicas, image, ...extra },
  };
}

const isReady = (p: Pod) =>
  (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

export const fakeSetController: ControllerRegistration = {
  kind: 'FakeSet',
  apiVersion: 'test.kruise.io/v1',
  reconcile: (store, obj, _now, state) => {
    const fs = obj as FakeSet;
    const pods = store
      .listOwnedBy(fs.metadata.uid!)
      .filter((o) => o.kind === 'Pod' && !o.metadata.deletionTimestamp) as (Pod & KubeObject)[];
    const actions: Action[] = [];
    const count = ((state as number | undefined) ?? 0) + 1;
    if (pods.length < fs.spec.replicas) {
      for (let i = pods.length; i < fs.spec.replicas; i++) {
        actions.push({
          verb: 'create',
          reason: 'ScaleUp',
          object: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              generateName: `${fs.metadata.name}-`,
              namespace: 'default',
              labels: { app: fs.metadata.name! },
              ownerReferences: [
                {
                  apiVersion: fs.apiVersion,
                  kind: fs.kind,
                  name: fs.metadata.name!,
                  uid: fs.metadata.uid!,
                  controller: true,
                },
              ],
            },
            spec: {
              containers: [
                {
                  name: 'main',
                  image: fs.spec.image,
                  resources: fs.spec.cpu ? { requests: { cpu: fs.spec.cpu } } : undefined,
                },
              ],
              nodeSelector: fs.spec.nodeSelector,
              terminationGracePeriodSeconds: 5,
            },
          },
        });
      }
    } else if (pods.length > fs.spec.replicas) {
      const p = pods[pods.length - 1];
      actions.push({
        verb: 'delete',
        reason: 'ScaleDown',
        target: {
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: 'default',
          name: p.metadata!.name!,
          uid: p.metadata!.uid,
        },
      });
    } else if (pods.every(isReady)) {
      const old = pods.find((p) => p.spec!.containers[0].image !== fs.spec.image);
      if (old)
        actions.push({
          verb: 'patch',
          reason: 'InPlaceUpdate',
          patchType: 'strategic',
          target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: old.metadata!.name! },
          patch: { spec: { containers: [{ name: 'main', image: fs.spec.image }] } },
        });
    }
    const status = {
      replicas: pods.length,
      readyReplicas: pods.filter(isReady).length,
      updated: pods.filter((p) => p.spec!.containers[0].image === fs.spec.image).length,
    };
    if (JSON.stringify(status) !== JSON.stringify(fs.status))
      actions.push({
        verb: 'updateStatus',
        reason: 'Status',
        target: { apiVersion: fs.apiVersion, kind: fs.kind, namespace: 'default', name: fs.metadata.name! },
        status,
      });
    return {
      actions,
      status,
      errors: [],
      controllerState: count,
      requeueAfterSeconds: fs.spec.requeueSeconds,
    };
  },
};

export function fakeRegistry(): ControllerRegistry {
  return new ControllerRegistry().register(fakeSetController);
}
