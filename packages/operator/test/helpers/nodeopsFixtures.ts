// Fixtures of the node-side controller and webhook unit tests: a CacheReader over a fixed list of
// deep-frozen objects, a controller environment, and small object builders (docs/reference/daemon.md kinds).
import type { KubeObject } from '@kruise-ts/api';
import { type Action, resolveFeatureGates } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { CacheReader, ControllerEnv, KindRef } from '../../src/index';

export const T0 = new Date('2025-10-10T09:00:00Z');
export const at = (s: number) => new Date(T0.getTime() + s * 1000);
export const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
export const V1A1 = 'apps.kruise.io/v1alpha1';
export const V1B1 = 'apps.kruise.io/v1beta1';
export const group = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/** A CacheReader over a fixed list of (deep-frozen) objects. */
export function fakeCache(objects: KubeObject[]): CacheReader {
  const objs = objects.map((o) => deepFreeze(o));
  const same = (ref: KindRef, o: KubeObject) =>
    o.kind === ref.kind && group(o.apiVersion) === group(ref.apiVersion);
  return {
    get: (ref, ns, name) =>
      objs.find((o) => same(ref, o) && o.metadata.namespace === ns && o.metadata.name === name),
    list: (ref, ns) => objs.filter((o) => same(ref, o) && (ns === undefined || o.metadata.namespace === ns)),
    ownedBy: (ref, uid) =>
      objs.filter((o) => same(ref, o) && o.metadata.ownerReferences?.some((r) => r.uid === uid)),
  };
}

export const env: ControllerEnv = {
  featureGates: resolveFeatureGates({ ImagePullJobGate: true }),
  seed: 7,
  kruiseNamespace: 'kruise-system',
  scalingExcludePreparingDelete: false,
};

export const node = (name: string, labels: Record<string, string> = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `u-${name}`, labels },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(at(-3600)) }] },
  }) as KubeObject;
export const nodeImage = (name: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: V1A1,
    kind: 'NodeImage',
    metadata: { name, uid: `ni-${name}`, resourceVersion: '5', labels: { zone: name === 'n1' ? 'a' : 'b' } },
    spec: {},
    ...extra,
  }) as KubeObject;
export const pullJob = (
  name: string,
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
): KubeObject =>
  ({
    apiVersion: V1A1,
    kind: 'ImagePullJob',
    metadata: { name, namespace: 'default', uid: `ipj-${name}`, resourceVersion: '3' },
    spec: { image: 'nginx:1.25', ...spec },
    ...(status ? { status } : {}),
  }) as KubeObject;
export const pod = (
  name: string,
  labels: Record<string, string>,
  nodeName = 'n1',
  extra: Record<string, unknown> = {},
) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `pod-${name}`, labels, resourceVersion: '9' },
    spec: { nodeName, containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: 'Running' },
    ...extra,
  }) as KubeObject;
export const daemonNs = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'kruise-daemon-config' },
} as KubeObject;
export const verbs = (actions: readonly Action[]) => actions.map((a) => `${a.verb}:${a.reason}`);
