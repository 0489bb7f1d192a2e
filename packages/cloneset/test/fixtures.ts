// Test fixtures: the compact pod form of testdata/upstream/cloneset/README.md turned into
// real Pods, CloneSets from partial specs, and the JSON case loader.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CloneSet } from '@kruise-ts/api';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';

/** Loads `testdata/upstream/cloneset/<file>`. */
export function loadCases<T = any>(file: string): { cases: T[]; [k: string]: unknown } {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/cloneset/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

/** The compact pod of the upstream README. */
export interface CompactPod {
  name?: string;
  uid?: string;
  revision?: string | null;
  lifecycleState?: string | null;
  phase?: string;
  ready?: boolean;
  readyTransitionTime?: string | null;
  specifiedDelete?: boolean;
  inPlaceUpdateReady?: string | null;
  nodeName?: string;
  creationTimestamp?: string | null;
  restartCount?: number;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  containers?: { name: string; image: string }[];
}

/** Builds a Pod from the compact form. */
export function compactPod(c: CompactPod, extra: { ownerUid?: string; namespace?: string } = {}): Pod {
  const labels: Record<string, string> = { ...(c.labels ?? {}) };
  if (c.revision !== undefined && c.revision !== null) labels['controller-revision-hash'] = c.revision;
  if (c.lifecycleState !== undefined && c.lifecycleState !== null)
    labels['lifecycle.apps.kruise.io/state'] = c.lifecycleState;
  if (c.specifiedDelete) labels['apps.kruise.io/specified-delete'] = 'true';
  const conditions: PodCondition[] = [];
  if (c.ready) {
    const cond: PodCondition = { type: 'Ready', status: 'True' };
    if (c.readyTransitionTime) cond.lastTransitionTime = c.readyTransitionTime;
    conditions.push(cond);
  }
  if (c.inPlaceUpdateReady !== undefined && c.inPlaceUpdateReady !== null)
    conditions.push({ type: 'InPlaceUpdateReady', status: c.inPlaceUpdateReady });
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: c.name ?? 'pod',
      namespace: extra.namespace ?? 'default',
      labels,
      annotations: { ...(c.annotations ?? {}) },
      ...(c.uid ? { uid: c.uid } : {}),
      ...(c.creationTimestamp ? { creationTimestamp: c.creationTimestamp } : {}),
    },
    spec: { containers: c.containers ?? [{ name: 'main', image: 'nginx' }] },
    status: { conditions },
  };
  if (extra.ownerUid)
    pod.metadata!.ownerReferences = [
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        name: 'sample',
        uid: extra.ownerUid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  if (c.nodeName) pod.spec!.nodeName = c.nodeName;
  const phase = c.phase ?? (c.ready ? 'Running' : '');
  if (phase) pod.status!.phase = phase;
  if (c.restartCount)
    pod.status!.containerStatuses = [
      { name: 'main', image: 'nginx', imageID: '', ready: true, restartCount: c.restartCount },
    ];
  return pod;
}

/** A CloneSet from a partial spec (JSON `null`s are dropped, as unset pointers). */
export function cloneSetFrom(c: {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  spec: Record<string, any>;
}): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name: c.name ?? 'sample',
      namespace: c.namespace ?? 'default',
      uid: c.uid ?? 'cs-uid',
      labels: c.labels ?? {},
      generation: 1,
    },
    spec: dropNulls({
      selector: { matchLabels: { app: 'sample' } },
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: { containers: [{ name: 'main', image: 'nginx' }] },
      },
      ...c.spec,
    }),
  } as CloneSet;
}

/** Removes `null` values recursively (JSON null = unset pointer in the Go tests). */
export function dropNulls<T>(v: T): T {
  if (Array.isArray(v)) return v.map(dropNulls) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = dropNulls(x);
    return out as T;
  }
  return v;
}
