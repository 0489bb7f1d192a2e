// Advanced StatefulSet version conversion (docs/reference/statefulset.md §2.3): v1alpha1 <-> v1beta1,
// field by field. v1beta1 is the hub and storage version; v1alpha1 has a subset of its spec and
// status, so fields v1alpha1 lacks are dropped on the way to v1alpha1 (and therefore by a
// v1alpha1 round trip). Used by the simulator's API server (in-process conversion) and by the
// operator's `/convert` webhook. Pure: never throws, never mutates its input.
import { APPS_V1ALPHA1, APPS_V1BETA1, type StatefulSet } from '@kruise-ts/api';

/** The two served versions of `statefulsets.apps.kruise.io`. */
export type StatefulSetApiVersion = typeof APPS_V1ALPHA1 | typeof APPS_V1BETA1;

/** §2.3: both versions, hub (storage) first. */
export const STATEFULSET_API_VERSIONS: readonly StatefulSetApiVersion[] = [APPS_V1BETA1, APPS_V1ALPHA1];

/** Whether `v` is one of the two StatefulSet versions (`apps.kruise.io/v1alpha1` or `/v1beta1`). */
export function isStatefulSetApiVersion(v: unknown): v is StatefulSetApiVersion {
  return v === APPS_V1ALPHA1 || v === APPS_V1BETA1;
}

/**
 * §2.3: the spec fields v1alpha1 has: replicas, selector, template, volumeClaimTemplates,
 * serviceName, podManagementPolicy, updateStrategy, revisionHistoryLimit.
 */
export const V1ALPHA1_SPEC_FIELDS = [
  'replicas',
  'selector',
  'template',
  'volumeClaimTemplates',
  'serviceName',
  'podManagementPolicy',
  'updateStrategy',
  'revisionHistoryLimit',
] as const;

/**
 * §2.3: the spec fields only v1beta1 has (dropped when converting to v1alpha1): reserveOrdinals,
 * lifecycle, scaleStrategy, persistentVolumeClaimRetentionPolicy, ordinals, volumeClaimUpdateStrategy.
 */
export const V1BETA1_ONLY_SPEC_FIELDS = [
  'reserveOrdinals',
  'lifecycle',
  'scaleStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'ordinals',
  'volumeClaimUpdateStrategy',
] as const;

/** §2.3 "same rollingUpdate sub-fields" in both versions (§2.1 table). */
const ROLLING_UPDATE_FIELDS = [
  'partition',
  'maxUnavailable',
  'podUpdatePolicy',
  'paused',
  'unorderedUpdate',
  'inPlaceUpdateStrategy',
  'minReadySeconds',
] as const;

/** The status fields both versions have (§13). */
export const V1ALPHA1_STATUS_FIELDS = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'availableReplicas',
  'currentReplicas',
  'updatedReplicas',
  'currentRevision',
  'updateRevision',
  'collisionCount',
  'conditions',
  'labelSelector',
] as const;

/** §2.3: status fields v1alpha1 lacks: updatedReadyReplicas, updatedAvailableReplicas, volumeClaims. */
export const V1BETA1_ONLY_STATUS_FIELDS = [
  'updatedReadyReplicas',
  'updatedAvailableReplicas',
  'volumeClaims',
] as const;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Copies the named keys that are present (not undefined), sharing their values. */
function pick(src: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  return out;
}

function convertUpdateStrategy(us: unknown): unknown {
  if (!isObject(us)) return us;
  const out = pick(us, ['type']);
  if (isObject(us.rollingUpdate)) out.rollingUpdate = pick(us.rollingUpdate, ROLLING_UPDATE_FIELDS);
  else if (us.rollingUpdate !== undefined) out.rollingUpdate = us.rollingUpdate;
  return out;
}

function convertSpec(spec: unknown, fields: readonly string[]): unknown {
  if (!isObject(spec)) return spec;
  const out = pick(spec, fields);
  if (out.updateStrategy !== undefined) out.updateStrategy = convertUpdateStrategy(out.updateStrategy);
  return out;
}

function convertStatus(status: unknown, fields: readonly string[]): unknown {
  return isObject(status) ? pick(status, fields) : status;
}

/**
 * §2.3: converts an Advanced StatefulSet to `toApiVersion`, field by field, as kruise's
 * `ConvertTo`/`ConvertFrom` do. The result carries `apiVersion: toApiVersion`, `kind`,
 * `metadata` (shared, unchanged), and the `spec` and `status` fields the target version has:
 *
 * - to **v1beta1** (the hub): the v1alpha1 spec fields (replicas, selector, template,
 *   volumeClaimTemplates, serviceName, podManagementPolicy, updateStrategy with `type` and the
 *   seven rollingUpdate sub-fields, revisionHistoryLimit) and the v1alpha1 status fields;
 * - to **v1alpha1**: the same fields; reserveOrdinals, lifecycle, scaleStrategy,
 *   persistentVolumeClaimRetentionPolicy, ordinals, volumeClaimUpdateStrategy and the status
 *   counts updatedReadyReplicas, updatedAvailableReplicas and volumeClaims are dropped.
 *
 * Fields neither version defines (anywhere kruise's types would not carry them: top level, spec,
 * updateStrategy, rollingUpdate) are not copied. A source whose apiVersion is neither version
 * is read as v1beta1. Converting to the object's own version returns it unchanged (same object).
 * Absent fields stay absent (no zero values are written).
 *
 * Example: `{apiVersion: 'apps.kruise.io/v1beta1', spec: {replicas: 3, reserveOrdinals: [1],
 * updateStrategy: {rollingUpdate: {partition: 2}}}, status: {replicas: 3, updatedReadyReplicas: 3}}`
 * to `apps.kruise.io/v1alpha1` gives `{apiVersion: 'apps.kruise.io/v1alpha1', spec: {replicas: 3,
 * updateStrategy: {rollingUpdate: {partition: 2}}}, status: {replicas: 3}}`; converting that back
 * to v1beta1 gives the same spec and status (reserveOrdinals and updatedReadyReplicas are gone).
 */
export function convertStatefulSet(obj: StatefulSet, toApiVersion: StatefulSetApiVersion): StatefulSet {
  if (obj.apiVersion === toApiVersion) return obj;
  const src: Json = obj;
  // Only fields both versions have survive, unless the source is not v1alpha1 and the target is
  // v1beta1 (an unknown source version read as v1beta1: every v1beta1 field).
  const common = toApiVersion === APPS_V1ALPHA1 || obj.apiVersion === APPS_V1ALPHA1;
  const specFields = common ? V1ALPHA1_SPEC_FIELDS : [...V1ALPHA1_SPEC_FIELDS, ...V1BETA1_ONLY_SPEC_FIELDS];
  const statusFields = common
    ? V1ALPHA1_STATUS_FIELDS
    : [...V1ALPHA1_STATUS_FIELDS, ...V1BETA1_ONLY_STATUS_FIELDS];
  const out: Json = { apiVersion: toApiVersion, kind: src.kind ?? 'StatefulSet' };
  if (src.metadata !== undefined) out.metadata = src.metadata;
  if (src.spec !== undefined) out.spec = convertSpec(src.spec, specFields);
  if (src.status !== undefined) out.status = convertStatus(src.status, statusFields);
  // The copied fields are a StatefulSet's (of the target version's schema): the object is one.
  return out as StatefulSet;
}
