// The schema walk behind checkStructure: one pass over a JSON value against a structural schema
// (the subset a CRD may use: type, format, enum, pattern, properties, additionalProperties,
// items, required, nullable, x-kubernetes-int-or-string, x-kubernetes-preserve-unknown-fields,
// and `$ref` to a generated Kubernetes definition). Each value is visited once and the recursion
// follows the schema, never the value, so the work is linear in the value's size and the depth
// bounded by the schema's (Kubernetes' types do not nest themselves): a value nested a million
// levels deep under a free-form field is not even entered.

import {
  enumError,
  formatError,
  invalidError,
  patternError,
  requiredError,
  type StructureError,
  typeError,
  unknownFieldError,
} from './errors';
import type { JSONSchema } from './jsonSchema';
import { k8sDefinition } from './k8sRefs';
import { checkMetadataSyntax } from './metadataSyntax';

/** What a walk collects and how strict it is. */
export interface WalkContext {
  errors: StructureError[];
  /**
   * An object read from a cluster rather than written by a user: fields and enum values a newer
   * Kubernetes added are let through (the API server stores what its version knows).
   */
  observed: boolean;
  /**
   * As a validating webhook sees the object (see CheckStructureOptions.admission): unknown fields
   * and the root's name and namespace are the API server's to check, not checked here.
   */
  admission: boolean;
  /** The root is a Namespace, whose name is a DNS-1123 label. */
  nameIsLabel: boolean;
  /**
   * Subtrees already found clean (StructureCache.cleanSubtrees), for this walk's mode and for
   * the observed mode the root's `status` is walked in; absent without a cache.
   */
  clean?: {
    mode: WeakMap<object, WeakSet<object>>;
    observedMode: WeakMap<object, WeakSet<object>>;
  };
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * RFC 3339 date-times as Kubernetes reads them: `2024-05-01T10:00:00Z`, with optional fractional
 * seconds and a numeric offset (`+02:00`).
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** Schema patterns compiled once: the quantity syntax is the only one the schemas use. */
const QUANTITY_PATTERN = String(k8sDefinition('Quantity')?.pattern ?? '');
const QUANTITY_RE = new RegExp(QUANTITY_PATTERN);
const matches = (pattern: string, value: string): boolean =>
  pattern === QUANTITY_PATTERN ? QUANTITY_RE.test(value) : new RegExp(pattern).test(value);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The type word Kubernetes uses for a schema node in a type error. */
function expectedType(s: JSONSchema): string {
  if (s['x-kubernetes-int-or-string'] === true) return 'integer,string';
  return typeof s.type === 'string' ? s.type : 'object';
}

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * Whether an integer fits its format: int32 as Kubernetes says; int64 (and an integer with no
 * format) only within JavaScript's exact integers, ±(2^53 - 1). Past that a JSON number is
 * already rounded when it is read (2^53 + 1 reads as 2^53), so arithmetic on it would silently
 * be wrong; this is stricter than Kubernetes, whose int64 goes to 2^63 - 1.
 */
function integerFits(value: number, format: unknown): boolean {
  if (format === 'int32') return value >= INT32_MIN && value <= INT32_MAX;
  return Number.isSafeInteger(value);
}

function checkInteger(value: number, s: JSONSchema, path: string, ctx: WalkContext): void {
  if (integerFits(value, s.format)) return;
  ctx.errors.push(formatError(path, s.format === 'int32' ? 'int32' : 'int64', value));
}

/**
 * An int-or-string: an IntOrString (an int32 or any string, e.g. `3` or `"20%"`) or, with its
 * pattern, a Quantity (an integer or a string such as `500m` or `1Gi`).
 */
function checkIntOrString(value: unknown, s: JSONSchema, path: string, ctx: WalkContext): void {
  if (typeof value === 'string') {
    if (typeof s.pattern === 'string' && !matches(s.pattern, value)) {
      ctx.errors.push(patternError(path, value, s.pattern));
    }
    return;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    ctx.errors.push(typeError(path, 'integer,string', value));
    return;
  }
  checkInteger(value, { format: typeof s.pattern === 'string' ? 'int64' : 'int32' }, path, ctx);
}

function checkString(value: string, s: JSONSchema, path: string, ctx: WalkContext): void {
  // '' is Go's zero value: decoded into a Go struct it is the same as absent, and the kind's
  // rules report it as a missing value where one is needed (`imagePullPolicy: Required value`).
  if (Array.isArray(s.enum) && !ctx.observed && value !== '' && !s.enum.includes(value)) {
    ctx.errors.push(enumError(path, value, s.enum));
  }
  if (s.format === 'date-time' && !DATE_TIME.test(value)) {
    ctx.errors.push(formatError(path, 'date-time', value));
  }
  if (typeof s.pattern === 'string' && !matches(s.pattern, value)) {
    ctx.errors.push(patternError(path, value, s.pattern));
  }
}

function checkObject(value: Record<string, unknown>, s: JSONSchema, path: string, ctx: WalkContext): void {
  const props = isRecord(s.properties) ? (s.properties as Record<string, JSONSchema>) : undefined;
  const additional = isRecord(s.additionalProperties) ? (s.additionalProperties as JSONSchema) : undefined;
  const open = s['x-kubernetes-preserve-unknown-fields'] === true;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue; // absent, as JSON would have it
    const at = child(path, key);
    if (path === '' && key === 'status' && !ctx.observed && props && Object.hasOwn(props, key)) {
      // Status is written by controllers and the kubelet, not by the user: checked for types and
      // ranges, but fields and enum values of a newer writer are let through.
      walk(v, props[key], at, {
        ...ctx,
        observed: true,
        clean: ctx.clean && { mode: ctx.clean.observedMode, observedMode: ctx.clean.observedMode },
      });
    } else if (props && Object.hasOwn(props, key)) walk(v, props[key], at, ctx);
    else if (additional) walk(v, additional, at, ctx);
    else if (!open && !ctx.observed && !ctx.admission) ctx.errors.push(unknownFieldError(at));
  }
  if (Array.isArray(s.required)) {
    for (const r of s.required) {
      if (typeof r === 'string' && value[r] === undefined) ctx.errors.push(requiredError(child(path, r)));
    }
  }
}

/**
 * Checks `value` at `path` against schema node `schema`, pushing every error into `ctx.errors`.
 * At an ObjectMeta it also checks the metadata syntax (metadataSyntax.ts); the block at path
 * `metadata` is the root object's own, whose name and namespace are checked too.
 */
export function walk(value: unknown, schema: JSONSchema, path: string, ctx: WalkContext): void {
  // A subtree below the root's own level (whose checks depend on the path: the root's status and
  // metadata) is judged by its content alone, so a clean one met again by identity is skipped.
  const memo =
    ctx.clean !== undefined &&
    value !== null &&
    typeof value === 'object' &&
    path !== '' &&
    path !== 'metadata'
      ? ctx.clean.mode
      : undefined;
  if (memo?.get(schema)?.has(value as object)) return;
  const before = ctx.errors.length;
  walkNode(value, schema, path, ctx);
  if (memo && ctx.errors.length === before) {
    let seen = memo.get(schema);
    if (!seen) {
      seen = new WeakSet();
      memo.set(schema, seen);
    }
    seen.add(value as object);
  }
}

function walkNode(value: unknown, schema: JSONSchema, path: string, ctx: WalkContext): void {
  let s = schema;
  const ref = s.$ref;
  if (ref !== undefined) {
    const def = k8sDefinition(ref);
    if (!def) {
      ctx.errors.push(invalidError(path, ref, 'the schema refers to an unknown Kubernetes type'));
      return;
    }
    // Keys beside the `$ref` refine the definition, e.g. `required: []` where a UnitedDeployment
    // subset's workload spec takes its selector from the UnitedDeployment.
    s = Object.keys(s).length > 1 ? { ...def, ...s, $ref: undefined } : def;
  }
  if (value === null) {
    if (s.nullable !== true) ctx.errors.push(typeError(path, expectedType(s), value));
    return;
  }
  if (s['x-kubernetes-int-or-string'] === true) {
    checkIntOrString(value, s, path, ctx);
    return;
  }
  switch (s.type) {
    case 'object':
      if (!isRecord(value)) {
        ctx.errors.push(typeError(path, 'object', value));
        return;
      }
      checkObject(value, s, path, ctx);
      if (ref === 'ObjectMeta') {
        const meta = checkMetadataSyntax(value, path, {
          root: path === 'metadata' && !ctx.admission,
          nameIsLabel: ctx.nameIsLabel,
        });
        for (const e of meta) ctx.errors.push(e); // not push(...meta): 10^5 bad labels overflow a call
      }
      return;
    case 'array':
      if (!Array.isArray(value)) {
        ctx.errors.push(typeError(path, 'array', value));
        return;
      }
      if (isRecord(s.items)) {
        for (let i = 0; i < value.length; i++) walk(value[i], s.items as JSONSchema, `${path}[${i}]`, ctx);
      }
      return;
    case 'string':
      if (typeof value !== 'string') ctx.errors.push(typeError(path, 'string', value));
      else checkString(value, s, path, ctx);
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        ctx.errors.push(typeError(path, 'integer', value));
      else checkInteger(value, s, path, ctx);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        ctx.errors.push(typeError(path, 'number', value));
      return;
    case 'boolean':
      if (typeof value !== 'boolean') ctx.errors.push(typeError(path, 'boolean', value));
      return;
    default:
      return; // no type: anything goes (only reached by an open node without `type`)
  }
}
