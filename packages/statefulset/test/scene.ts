// Building one observed state for single-reconcile tests: a set whose template moved from an
// "old" revision to a "new" one (or not), pods described compactly, and a summary of the
// actions a reconcile returns.
import type { StatefulSet } from '@kruise-ts/api';
import type { Action, FeatureGates } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { reconcileStatefulSet } from '../src/reconcile';
import { candidateRevision } from '../src/revisions';
import { makeSet } from './world';

export const NOW = '2024-01-01T01:00:00Z';
export const NOW_MS = Date.parse(NOW);
const ago = (s: number) => new Date(NOW_MS - s * 1000).toISOString().replace('.000Z', 'Z');

/** A compact pod description. */
export interface PodSpec {
  ordinal: number;
  /** 'old' | 'new' (the scene's revisions) or a literal label value; default 'new'. */
  rev?: string;
  phase?: string;
  ready?: boolean;
  /** Seconds since Ready became True (default 3600). */
  readyFor?: number | null;
  lifecycle?: string;
  labels?: Record<string, string>;
  finalizers?: string[];
  terminating?: boolean;
  image?: string;
  annotations?: Record<string, string>;
}

export interface Scene {
  set: StatefulSet;
  oldRev: ControllerRevision;
  newRev: ControllerRevision;
  pods: Pod[];
  pvcs: PersistentVolumeClaim[];
}

/**
 * A set named `foo` (see `makeSet`) whose stored revisions are `old` (#1, image `nginx:old`) and
 * `new` (#2, the set's template, image `nginx:new`); `status.currentRevision` is old unless
 * `updated` says the rollout is done.
 */
export function scene(
  spec: Partial<StatefulSet['spec']>,
  pods: PodSpec[],
  opts: { currentIsNew?: boolean } = {},
): Scene {
  const base = makeSet(spec);
  const withImage = (image: string): StatefulSet => ({
    ...base,
    spec: {
      ...base.spec,
      template: {
        ...base.spec.template,
        spec: { ...base.spec.template.spec!, containers: [{ name: 'main', image }] },
      },
    },
  });
  const oldSet = withImage('nginx:old');
  const set = withImage('nginx:new');
  const oldRev = {
    ...candidateRevision(oldSet, 1, 0),
    metadata: { ...candidateRevision(oldSet, 1, 0).metadata, uid: 'rev-old' },
  };
  const newRev = {
    ...candidateRevision(set, 2, 0),
    metadata: { ...candidateRevision(set, 2, 0).metadata, uid: 'rev-new' },
  };
  const current = opts.currentIsNew ? newRev : oldRev;
  set.status = {
    replicas: pods.length,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: pods.filter((p) => (p.rev ?? 'new') === (opts.currentIsNew ? 'new' : 'old')).length,
    updatedReplicas: 0,
    currentRevision: current.metadata!.name!,
    updateRevision: newRev.metadata!.name!,
    observedGeneration: 1,
  };
  const revName = (r: string | undefined) =>
    r === undefined || r === 'new' ? newRev.metadata!.name! : r === 'old' ? oldRev.metadata!.name! : r;
  return {
    set,
    oldRev,
    newRev,
    pvcs: [],
    pods: pods.map((p) =>
      buildPod(set, p, revName(p.rev), p.image ?? ((p.rev ?? 'new') === 'old' ? 'nginx:old' : 'nginx:new')),
    ),
  };
}

function buildPod(set: StatefulSet, p: PodSpec, revision: string, image: string): Pod {
  const name = `foo-${p.ordinal}`;
  const labels: Record<string, string> = {
    app: 'foo',
    'statefulset.kubernetes.io/pod-name': name,
    'apps.kubernetes.io/pod-index': String(p.ordinal),
    'controller-revision-hash': revision,
    ...(p.lifecycle !== undefined ? { 'lifecycle.apps.kruise.io/state': p.lifecycle } : {}),
    ...(p.labels ?? {}),
  };
  const ready = p.ready ?? true;
  const phase = p.phase ?? 'Running';
  const conditions: PodCondition[] = [];
  if (phase === 'Running') {
    const c: PodCondition = { type: 'Ready', status: ready ? 'True' : 'False' };
    const since = p.readyFor === undefined ? 3600 : p.readyFor;
    if (since !== null) c.lastTransitionTime = ago(since);
    conditions.push(c, { type: 'InPlaceUpdateReady', status: 'True' });
  }
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${p.ordinal}`,
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: 'foo',
          uid: set.metadata.uid!,
          controller: true,
        },
      ],
      ...(p.finalizers ? { finalizers: p.finalizers } : {}),
      ...(p.annotations ? { annotations: p.annotations } : {}),
      ...(p.terminating ? { deletionTimestamp: ago(1) } : {}),
    },
    spec: {
      containers: [{ name: 'main', image }],
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      hostname: name,
      subdomain: 'foo-svc',
    },
    status: { phase, conditions },
  };
  return pod;
}

/** Runs one reconcile on deep-frozen inputs. */
export function run(
  s: Scene,
  gates: Partial<FeatureGates> = {},
  extra: { controllerState?: any; now?: string } = {},
) {
  return reconcileStatefulSet(
    deepFreeze({
      statefulSet: s.set,
      pods: s.pods,
      revisions: [s.oldRev, s.newRev],
      pvcs: s.pvcs,
      now: extra.now ?? NOW,
      ...(extra.controllerState ? { controllerState: extra.controllerState } : {}),
    }),
    { featureGates: gates },
  );
}

/** `[verb, reason, name]` of each action that is neither an event nor the status write. */
export function summary(actions: readonly Action[]): [string, string, string][] {
  return actions
    .filter((a) => a.verb !== 'event' && a.verb !== 'updateStatus')
    .map((a) => [
      a.verb,
      (a as { reason: string }).reason,
      a.verb === 'create' || a.verb === 'update'
        ? (a.object.metadata.name ?? '')
        : 'target' in a
          ? a.target.name
          : '',
    ]);
}

/** The pod-affecting actions only (creates, deletes, patches of pods). */
export function podActions(actions: readonly Action[]): [string, string, string][] {
  return summary(actions).filter(([, , name]) => /^foo-\d+$/.test(name));
}
