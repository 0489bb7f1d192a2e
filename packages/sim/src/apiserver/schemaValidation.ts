// A custom resource's schema validation, as kube-apiserver runs it on every create and update
// whatever else is installed: the object must fit its CRD's `openAPIV3Schema` (types, formats,
// enums, required fields, ranges), or the write is refused with 422 before anything is stored.
// With `--controllers none` no Kruise webhook runs, and this is the only check a CloneSet with
// `replicas: "five"` meets, as on a real cluster with the CRDs installed and no operator.
//
// The check is @kruise-ts/api's `checkStructure`, which states the schema's errors in the API
// server's words (`spec.replicas: Invalid value: "string": spec.replicas in body must be of type
// integer: "string"`). Unknown fields are left to fieldValidation.ts, which prunes them first.
// A kind with a scale subresource gets the scale accessor's error too when the replicas path does
// not hold an integer, as kube-apiserver reports it:
// `.spec.replicas: Invalid value: 0: .spec.replicas accessor error: five is of the type string, expected int64`.
import { checkStructure, type KubeObject } from '@kruise-ts/api';
import type { FieldError } from '@kruise-ts/core';
import type { ResourceInfo } from './registry';
import { invalidStatus, type StatusObject } from './status';

/** Go's name of a decoded JSON value's type (`%T` of encoding/json's interface{} values). */
function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's `%v` of a decoded JSON value, for the accessor error. */
function goValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function valueAt(obj: unknown, jsonPath: string): unknown {
  let cur: unknown = obj;
  for (const key of jsonPath.split('.').filter((k) => k !== '')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The scale subresource's accessor error when its replicas path holds something else than an integer. */
function scaleAccessorError(res: ResourceInfo, obj: KubeObject): FieldError | undefined {
  const path = res.scale?.specReplicasPath;
  if (!path) return undefined;
  const v = valueAt(obj, path);
  if (v === undefined || v === null || Number.isInteger(v)) return undefined;
  return {
    type: 'FieldValueInvalid',
    field: path,
    badValue: 0,
    detail: `${path} accessor error: ${goValue(v)} is of the type ${goTypeName(v)}, expected int64`,
  };
}

/** The 422 for `obj` of custom resource `res` when it does not fit its schema, else undefined. */
export function schemaFailure(res: ResourceInfo, obj: KubeObject): StatusObject | undefined {
  if (!res.custom || res.group !== 'apps.kruise.io') return undefined;
  const errors: FieldError[] = checkStructure(obj.kind, obj).filter(
    (e) => !(e.type === 'FieldValueForbidden' && e.detail.startsWith('unknown field')),
  );
  if (errors.length === 0) return undefined;
  const accessor = scaleAccessorError(res, obj);
  if (accessor) errors.push(accessor);
  return invalidStatus(res, obj.metadata?.name ?? obj.metadata?.generateName ?? '', errors);
}
