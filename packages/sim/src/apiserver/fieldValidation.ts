// Unknown fields in a custom resource, as kube-apiserver treats them: the fields the CRD's schema
// does not declare are pruned (dropped) from every create and update, and the request's
// `fieldValidation` decides what the client hears of it:
// - `Strict` (what `kubectl --validate=strict`, kubectl's default, sends): the write is refused,
//   400 `CloneSet in version "v1alpha1" cannot be handled as a CloneSet: strict decoding error:
//   unknown field "spec.template.spec.containers[0].imagePullPolcy"`;
// - `Warn` (the default when the query names none): the write goes on without them, and each is
//   a `Warning` header, `unknown field "..."`, which kubectl prints;
// - `Ignore`: dropped silently.
// The walk is apiextensions' pruning: it follows the schema, enters `additionalProperties` and
// list items, keeps whatever sits under `x-kubernetes-preserve-unknown-fields`, skips the root's
// apiVersion, kind and metadata (the metadata's own unknown keys are reported as
// `metadata.<key>`), and names a path as `a.b[0].c`, sorted. Only custom resources are checked:
// the simulator holds no schema of the built-in kinds' every field.
import { type JSONSchema, type KubeObject, k8sDefinitions } from '@kruise-ts/api';
import type { ResourceInfo } from './registry';
import { badRequest, type StatusObject, status } from './status';

/** The three directives of `fieldValidation`. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The request's directive: Warn unless it names Strict or Ignore (kube-apiserver's default). */
export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  return v === 'Strict' || v === 'Ignore' ? v : 'Warn';
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const ROOT_META: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/** A copy of `value` without the fields `schema` does not declare; their paths go to `unknown`. */
function prune(value: unknown, schema: JSONSchema | undefined, path: string, unknown: string[]): unknown {
  if (schema?.['x-kubernetes-preserve-unknown-fields'] === true) return value;
  const props = isRecord(schema?.properties) ? (schema.properties as Record<string, JSONSchema>) : undefined;
  const additional = isRecord(schema?.additionalProperties)
    ? (schema.additionalProperties as JSONSchema)
    : undefined;
  if (Array.isArray(value)) {
    const items = isRecord(schema?.items) ? (schema.items as JSONSchema) : undefined;
    return value.map((v, i) => prune(v, items, `${path}[${i}]`, unknown));
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const at = path === '' ? k : `${path}.${k}`;
    if (path === '' && ROOT_META.has(k)) out[k] = v;
    else if (props && Object.hasOwn(props, k)) out[k] = prune(v, props[k], at, unknown);
    else if (additional) out[k] = prune(v, additional, at, unknown);
    else unknown.push(at);
  }
  return out;
}

/**
 * `obj` without the fields the schema does not declare, and their paths (sorted as
 * kube-apiserver sorts them, the root metadata's own first).
 */
export function pruneUnknownFields(
  schema: JSONSchema,
  obj: KubeObject,
): { object: KubeObject; unknown: string[] } {
  const unknown: string[] = [];
  const object = prune(obj, schema, '', unknown) as KubeObject;
  unknown.sort();
  const metaProps = (k8sDefinitions.ObjectMeta?.properties ?? {}) as Record<string, unknown>;
  const meta: string[] = [];
  if (isRecord(obj.metadata)) {
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj.metadata)) {
      if (Object.hasOwn(metaProps, k)) kept[k] = v;
      else meta.push(`metadata.${k}`);
    }
    if (meta.length > 0) (object as { metadata: unknown }).metadata = kept;
  }
  return { object, unknown: [...meta.sort(), ...unknown] };
}

/** What a write goes on with: the pruned object and the warnings to send, or the refusal. */
export type FieldCheck =
  | { ok: true; object: KubeObject; warnings: string[] }
  | { ok: false; status: StatusObject };

/**
 * Prunes a custom resource written by create or update and applies the request's
 * `fieldValidation` (see the header). Anything else passes unchanged. `patched`: the object is a
 * merge or JSON patch's result, which Strict refuses as kube-apiserver's patch handler does
 * (422, the field `patch` holding the patched object).
 */
export function checkUnknownFields(
  res: ResourceInfo,
  query: URLSearchParams,
  obj: KubeObject,
  patched = false,
): FieldCheck {
  const schema = res.custom && isRecord(res.schema) ? (res.schema as JSONSchema) : undefined;
  if (!schema) return { ok: true, object: obj, warnings: [] };
  const { object, unknown } = pruneUnknownFields(schema, obj);
  if (unknown.length === 0) return { ok: true, object: obj, warnings: [] };
  const errors = unknown.map((p) => `unknown field "${p}"`);
  const directive = fieldValidationOf(query);
  if (directive === 'Strict' && patched) {
    const value = JSON.stringify(JSON.stringify(obj));
    return {
      ok: false,
      status: status(
        422,
        'Invalid',
        ` "" is invalid: patch: Invalid value: ${value}: strict decoding error: ${errors.join(', ')}`,
      ),
    };
  }
  if (directive === 'Strict') {
    return {
      ok: false,
      status: badRequest(
        `${res.kind} in version "${res.version}" cannot be handled as a ${res.kind}: strict decoding error: ${errors.join(', ')}`,
      ),
    };
  }
  return { ok: true, object, warnings: directive === 'Warn' ? errors : [] };
}
