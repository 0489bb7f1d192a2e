// Builders for reconcile-level tests: a CloneSet with a uid, the revisions its templates
// produce, and pods owned by it in a chosen state.
import { type CloneSet, setDefaultsCloneSet } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { reconcileCloneSet } from '../src/reconcile';
import { planRevisions } from '../src/revisions';

export const NOW = '2024-01-01T01:00:00Z';
export const UID = 'cs-uid';

/** A CloneSet `sample` (uid `cs-uid`, generation 1) with the given spec over the OpenKruise sample. */
export function makeCloneSet(spec: Record<string, any> = {}, meta: Record<string, any> = {}): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'sample', namespace: 'default', uid: UID, generation: 1, ...meta },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'sample' } },
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
      ...spec,
    },
  } as CloneSet;
}

/** The same CloneSet with another image (an in-place-able change). */
export function withImage(cs: CloneSet, image: string): CloneSet {
  const c = structuredClone(cs);
  c.spec.template.spec!.containers[0].image = image;
  return c;
}

/** The ControllerRevision the controller builds for this CloneSet's current template. */
export function revisionOf(cs: CloneSet, revisionNumber = 1): ControllerRevision {
  const rev = planRevisions(setDefaultsCloneSet(cs), []).updateRevision;
  return {
    ...rev,
    revision: revisionNumber,
    metadata: { ...rev.metadata, uid: `uid-${rev.metadata!.name}`, resourceVersion: '1' },
  };
}

export interface PodOpts {
  revision: string;
  ready?: boolean;
  /** Pending (no phase) when false. */
  running?: boolean;
  state?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  nodeName?: string;
  readySince?: string;
  created?: string;
  deletionTimestamp?: string;
  ownerUid?: string | null;
  image?: string;
  conditions?: PodCondition[];
  readinessGates?: string[];
}

/** A pod of the CloneSet: owned, Running and Ready (InPlaceUpdateReady gate True) unless told otherwise. */
export function makePod(name: string, o: PodOpts): Pod {
  const id = name.slice(name.lastIndexOf('-') + 1);
  const ready = o.ready ?? true;
  const running = o.running ?? true;
  const labels: Record<string, string> = {
    app: 'sample',
    'controller-revision-hash': o.revision,
    'pod-template-hash': o.revision.slice(o.revision.lastIndexOf('-') + 1),
    'apps.kruise.io/cloneset-instance-id': id,
    'lifecycle.apps.kruise.io/state': o.state ?? 'Normal',
    ...(o.labels ?? {}),
  };
  if (o.state === '') delete labels['lifecycle.apps.kruise.io/state'];
  const gates = o.readinessGates ?? ['InPlaceUpdateReady'];
  const conditions: PodCondition[] = o.conditions ?? [
    {
      type: 'Ready',
      status: ready ? 'True' : 'False',
      lastTransitionTime: o.readySince ?? '2024-01-01T00:00:00Z',
    },
    ...(gates.includes('InPlaceUpdateReady')
      ? [{ type: 'InPlaceUpdateReady', status: 'True' } as PodCondition]
      : []),
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels,
      annotations: o.annotations ?? {},
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
      ...(o.created ? { creationTimestamp: o.created } : { creationTimestamp: '2024-01-01T00:00:00Z' }),
      ...(o.deletionTimestamp ? { deletionTimestamp: o.deletionTimestamp } : {}),
      ...(o.ownerUid === null
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'apps.kruise.io/v1alpha1',
                kind: 'CloneSet',
                name: 'sample',
                uid: o.ownerUid ?? UID,
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          }),
    },
    spec: {
      ...(o.nodeName !== undefined ? { nodeName: o.nodeName } : { nodeName: 'node-a' }),
      containers: [{ name: 'nginx', image: o.image ?? 'nginx:1.25' }],
      readinessGates: gates.map((conditionType) => ({ conditionType })),
    },
    status: { ...(running ? { phase: 'Running' } : {}), conditions },
  };
}

/** `count` ready Normal pods `sample-p0…` on the revision. */
export function makePods(count: number, revision: string, o: Partial<PodOpts> = {}, prefix = 'p'): Pod[] {
  return Array.from({ length: count }, (_, i) => makePod(`sample-${prefix}${i}`, { revision, ...o }));
}

/** A PVC of the CloneSet for an instance id. */
export function makePvc(name: string, id: string): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { app: 'sample', 'apps.kruise.io/cloneset-instance-id': id },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'sample',
          uid: UID,
          controller: true,
        },
      ],
    },
    spec: {},
  };
}

/** `verb:reason:name` of each non-event action, for compact assertions. */
export function summary(actions: readonly Action[]): string[] {
  return actions
    .filter((a) => a.verb !== 'event')
    .map((a) => {
      const [kind, name] =
        a.verb === 'create' || a.verb === 'update'
          ? [a.object.kind, a.object.metadata.name]
          : [a.target.kind, a.target.name];
      return `${a.verb}:${a.reason}:${kind}/${name}`;
    });
}

/** The actions of one verb on one kind. */
export function actionsOf(actions: readonly Action[], verb: Action['verb'], kind?: string): Action[] {
  return actions.filter((a) => {
    if (a.verb !== verb) return false;
    if (!kind) return true;
    if (a.verb === 'create' || a.verb === 'update') return a.object.kind === kind;
    if (a.verb === 'event') return true;
    return a.target.kind === kind;
  });
}

/** An update in progress: the old template's revision is current, the new one is the update revision. */
export function rollout(spec: Record<string, any>, newImage = 'nginx:1.27') {
  const oldCs = makeCloneSet(spec);
  const cs = withImage(oldCs, newImage);
  const oldRev = revisionOf(oldCs, 1);
  const newRev = revisionOf(cs, 2);
  const o = oldRev.metadata!.name!;
  const n = newRev.metadata!.name!;
  const status = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    currentRevision: o,
  };
  const oldPod = (name: string, opts: Partial<PodOpts> = {}) =>
    makePod(`sample-${name}`, { revision: o, ...opts });
  const newPod = (name: string, opts: Partial<PodOpts> = {}) =>
    makePod(`sample-${name}`, { revision: n, image: newImage, ...opts });
  const reconcile = (
    pods: Pod[],
    options: Parameters<typeof reconcileCloneSet>[1] = {},
    c: CloneSet = cs,
    revisions: ControllerRevision[] = [oldRev, newRev],
  ) => reconcileCloneSet(deepFreeze({ cloneSet: { ...c, status }, pods, revisions, now: NOW }), options);
  return { cs, oldRev, newRev, o, n, oldPod, newPod, reconcile };
}

/** The non-status, non-event actions as `verb:reason:Kind/name`. */
export const compact = (r: ReturnType<typeof reconcileCloneSet>) =>
  summary(r.actions).filter((s) => !s.startsWith('updateStatus'));
