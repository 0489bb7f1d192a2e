// The simulator's minimal apps/v1 StatefulSet controller — an APPROXIMATION of Kubernetes'
// StatefulSet controller: the Advanced StatefulSet reconcile (@kruise-ts/statefulset) restricted
// to the native fields. The apps/v1 object is converted to the Advanced StatefulSet input shape
// (native spec fields only, so pods are recreated on update — podUpdatePolicy ReCreate — and the
// update budget is one pod, Kubernetes without the MaxUnavailableStatefulSet gate), and the
// result is converted back (owner references, targets and events name the apps/v1 object; the
// status keeps the apps/v1 fields). It exists so UnitedDeployment's StatefulSet subsets get pods.
import { type KubeObject, type StatefulSet, setDefaultsStatefulSet } from '@kruise-ts/api';
import {
  type Action,
  CONTROLLER_REVISION,
  defineController,
  type KindRef,
  kindRef,
  POD,
  PVC,
  type ReconcileResult,
} from '@kruise-ts/core';
import { reconcileStatefulSet, type StatefulSetControllerState } from '@kruise-ts/statefulset';
import { registrationFor } from './descriptors';
import type { ControllerRegistration } from './registration';

const ASTS_API_VERSION = 'apps.kruise.io/v1beta1';

/** The apps/v1 StatefulSet spec fields the conversion keeps. */
const NATIVE_SPEC_FIELDS = [
  'replicas',
  'selector',
  'template',
  'volumeClaimTemplates',
  'serviceName',
  'podManagementPolicy',
  'revisionHistoryLimit',
  'minReadySeconds',
  'persistentVolumeClaimRetentionPolicy',
  'ordinals',
] as const;

/** The apps/v1 StatefulSetStatus fields. */
const NATIVE_STATUS_FIELDS = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'currentReplicas',
  'updatedReplicas',
  'currentRevision',
  'updateRevision',
  'collisionCount',
  'conditions',
  'availableReplicas',
] as const;

/**
 * An apps/v1 StatefulSet as the Advanced StatefulSet reconcile's input: same metadata, native
 * spec fields, `updateStrategy` RollingUpdate `{partition}` (maxUnavailable 1, ReCreate) or
 * OnDelete, then the Advanced StatefulSet defaults.
 *
 * Example: `{apiVersion:'apps/v1', spec:{replicas:3, updateStrategy:{rollingUpdate:{partition:1}}}}` →
 * `{apiVersion:'apps.kruise.io/v1beta1', spec:{replicas:3, updateStrategy:{type:'RollingUpdate',
 * rollingUpdate:{partition:1, maxUnavailable:1, podUpdatePolicy:'ReCreate', ...}}, ...}}`.
 */
export function toAdvancedStatefulSet(obj: KubeObject): StatefulSet {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of NATIVE_SPEC_FIELDS) if (spec[f] !== undefined) out[f] = spec[f];
  const us = (spec.updateStrategy ?? {}) as { type?: string; rollingUpdate?: { partition?: number } };
  const type = us.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  out.updateStrategy =
    type === 'OnDelete'
      ? { type }
      : {
          type,
          rollingUpdate: {
            ...(us.rollingUpdate?.partition !== undefined ? { partition: us.rollingUpdate.partition } : {}),
            maxUnavailable: 1,
            podUpdatePolicy: 'ReCreate',
          },
        };
  // The spec is the native one's fields picked by name, unchecked: no guard could say it is an
  // Advanced StatefulSet spec without checking its structure, which the Advanced StatefulSet
  // reconcile does at its entry (core.md §10.1), refusing a malformed one with field errors.
  const set = {
    ...obj,
    apiVersion: ASTS_API_VERSION,
    kind: 'StatefulSet',
    spec: out,
  } as unknown as StatefulSet;
  return setDefaultsStatefulSet(set);
}

/** A reference to the converted set (by kind, name and api group) as the apps/v1 one. */
function isSetRef(v: Record<string, unknown>, name: string): boolean {
  return (
    v.apiVersion === ASTS_API_VERSION &&
    v.kind === 'StatefulSet' &&
    (v.name === name || (v.metadata as { name?: string } | undefined)?.name === name)
  );
}

/** Deep copy of `v` with every reference to the converted set renamed back to apps/v1. */
function renameRefs(v: unknown, name: string): unknown {
  if (Array.isArray(v)) return v.map((x) => renameRefs(x, name));
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = renameRefs(x, name);
  if (isSetRef(o, name)) out.apiVersion = 'apps/v1';
  return out;
}

/** Keeps only the apps/v1 StatefulSetStatus fields. */
export function toNativeStatus(status: unknown): Record<string, unknown> {
  const s = (status ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of NATIVE_STATUS_FIELDS) if (s[f] !== undefined) out[f] = s[f];
  return out;
}

/**
 * Converts an Advanced StatefulSet result back to the apps/v1 object: references renamed
 * (owner references of created pods, claims and revisions; targets; events) and the status
 * restricted to apps/v1 fields.
 */
export function fromAdvancedResult<State>(
  result: ReconcileResult<unknown, State>,
  name: string,
): ReconcileResult<Record<string, unknown>, State> {
  const actions = result.actions.map((a) => {
    const renamed = renameRefs(a, name) as Action;
    if (
      renamed.verb === 'updateStatus' &&
      renamed.target.kind === 'StatefulSet' &&
      renamed.target.name === name
    )
      return { ...renamed, status: toNativeStatus(renamed.status) };
    return renamed;
  });
  return { ...result, actions, status: toNativeStatus(result.status) };
}

/** apps/v1 StatefulSets, as the store keeps them (the conversion reads their spec field by field). */
const NATIVE_STATEFULSET: KindRef<KubeObject> = kindRef('apps/v1', 'StatefulSet');

/**
 * The apps/v1 StatefulSet controller as a descriptor (an approximation, see the file header):
 * run through the one adapter of ./descriptors.ts like the Kruise controllers, so the state the
 * Advanced StatefulSet reconcile keeps comes back typed, without a cast.
 */
const nativeStatefulSetDescriptor = defineController<
  KubeObject,
  Record<string, unknown>,
  StatefulSetControllerState
>({
  name: 'statefulset(apps/v1)',
  logName: 'StatefulSet(apps/v1)',
  primary: NATIVE_STATEFULSET,
  secondary: [POD, CONTROLLER_REVISION, PVC],
  readSet: (set) => [set],
  // The reconcile's input takes mutable arrays, so the reader's answers are copied.
  reconcile: (set, reader, now, state, env) => {
    const ns = set.metadata?.namespace;
    const result = reconcileStatefulSet(
      {
        statefulSet: toAdvancedStatefulSet(set),
        pods: [...reader.list(POD, ns)],
        revisions: [...reader.list(CONTROLLER_REVISION, ns)],
        pvcs: [...reader.list(PVC, ns)],
        now,
        ...(state ? { controllerState: state } : {}),
      },
      { featureGates: env.featureGates, seed: env.seed, structureCache: env.structureCache },
    );
    return fromAdvancedResult(result, set.metadata?.name ?? '');
  },
});

/** The apps/v1 StatefulSet controller's registration (logged as `StatefulSet(apps/v1)`). */
export const nativeStatefulSetController: ControllerRegistration =
  registrationFor(nativeStatefulSetDescriptor);
