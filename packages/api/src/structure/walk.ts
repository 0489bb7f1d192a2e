// The schema walk behind checkStructure: one pass over a JSON value against a compiled structural
// schema (compiledSchema.ts: the subset a CRD may use, `type`, `format`, `enum`, `pattern`,
// `properties`, `additionalProperties`, `items`, `required`, `nullable`,
// `x-kubernetes-int-or-string`, `x-kubernetes-preserve-unknown-fields`, and `$ref` to a generated
// Kubernetes definition). Each value is visited once and the recursion follows the schema, never
// the value, so the work is linear in the value's size and the depth bounded by the schema's
// (Kubernetes' types do not nest themselves): a value nested a million levels deep under a
// free-form field is not even entered.
//
// The clean path builds no text: the walk keeps the path as a stack of keys and
// indexes and writes it out as text (`spec.containers[0].image`) only when it reports an error.
//
// With a cache, an object is walked beside an earlier version of it that was found clean (the
// `prev` argument: the value at the same place in that version). A value that is the very same
// object or scalar as there (`===`) sat at the same place under the same schema node and walk
// mode, so it is clean and not entered: a pod whose status changed keeps its `spec`, its labels
// and most of its conditions by identity, and is walked only along what changed. The earlier
// version is found by the new one's `spec` (CompiledRoot in compiledSchema.ts).

import { type CompiledNode, NodeKind } from './compiledSchema';
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
  /** The path of the value being walked: keys and array indexes from the root. */
  path: (string | number)[];
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * RFC 3339 date-times as Kubernetes reads them: `2024-05-01T10:00:00Z`, with optional fractional
 * seconds and a numeric offset (`+02:00`).
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The path as Kubernetes writes a field (`spec.template.spec.containers[0].name`), with `key`
 * appended when given. Built only for an error.
 */
export function pathText(path: readonly (string | number)[], key?: string): string {
  let out = '';
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`;
    else out = out === '' ? step : `${out}.${step}`;
  }
  if (key === undefined) return out;
  return out === '' ? key : `${out}.${key}`;
}

/**
 * Whether an integer fits its format: int32 as Kubernetes says; int64 (and an integer with no
 * format) only within JavaScript's exact integers, ±(2^53 - 1). Past that a JSON number is
 * already rounded when it is read (2^53 + 1 reads as 2^53), so arithmetic on it would silently
 * be wrong; this is stricter than Kubernetes, whose int64 goes to 2^63 - 1.
 */
function checkInteger(value: number, int32: boolean, ctx: WalkContext): void {
  if (int32 ? value >= INT32_MIN && value <= INT32_MAX : Number.isSafeInteger(value)) return;
  ctx.errors.push(formatError(pathText(ctx.path), int32 ? 'int32' : 'int64', value));
}

/**
 * An int-or-string: an IntOrString (an int32 or any string, e.g. `3` or `"20%"`) or, with its
 * pattern, a Quantity (an integer or a string such as `500m` or `1Gi`).
 */
function checkIntOrString(value: unknown, node: CompiledNode, ctx: WalkContext): void {
  if (typeof value === 'string') {
    if (node.patternRe !== undefined && !node.patternRe.test(value)) {
      ctx.errors.push(patternError(pathText(ctx.path), value, node.pattern as string));
    }
    return;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    ctx.errors.push(typeError(pathText(ctx.path), 'integer,string', value));
    return;
  }
  checkInteger(value, node.int32, ctx);
}

function checkString(value: string, node: CompiledNode, ctx: WalkContext): void {
  // '' is Go's zero value: decoded into a Go struct it is the same as absent, and the kind's
  // rules report it as a missing value where one is needed (`imagePullPolicy: Required value`).
  if (node.enumValues !== undefined && !ctx.observed && value !== '' && !node.inEnum(value)) {
    ctx.errors.push(enumError(pathText(ctx.path), value, node.enumValues));
  }
  if (node.dateTime && !DATE_TIME.test(value)) {
    ctx.errors.push(formatError(pathText(ctx.path), 'date-time', value));
  }
  if (node.patternRe !== undefined && !node.patternRe.test(value)) {
    ctx.errors.push(patternError(pathText(ctx.path), value, node.pattern as string));
  }
}

function checkObject(
  value: Record<string, unknown>,
  prev: Record<string, unknown> | undefined,
  node: CompiledNode,
  ctx: WalkContext,
): void {
  const path = ctx.path;
  const atRoot = path.length === 0;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const v = value[key];
    if (v === undefined) continue; // absent, as JSON would have it
    const before = prev === undefined ? undefined : prev[key];
    // the same value as in the clean version (its own field there, not one it inherits)
    if (before === v && Object.hasOwn(prev as object, key)) continue;
    const declared = node.prop(key);
    const next = declared ?? node.additional();
    if (next === undefined) {
      if (!node.open && !ctx.observed && !ctx.admission)
        ctx.errors.push(unknownFieldError(pathText(path, key)));
      continue;
    }
    path.push(key);
    if (atRoot && key === 'status' && !ctx.observed && declared !== undefined) {
      // Status is written by controllers and the kubelet, not by the user: checked for types and
      // ranges, but fields and enum values of a newer writer are let through.
      ctx.observed = true;
      walk(v, before, next, ctx);
      ctx.observed = false;
    } else walk(v, before, next, ctx);
    path.pop();
  }
  const required = node.required;
  for (let i = 0; i < required.length; i++) {
    if (value[required[i]] === undefined) ctx.errors.push(requiredError(pathText(path, required[i])));
  }
}

/**
 * Checks `value` against compiled schema node `node` at `ctx.path`, pushing every error into
 * `ctx.errors`. `prev` is the value at the same place in a version of the object found clean in
 * the same walk mode (undefined when there is none): what it shares with `value` by identity is
 * not walked again. At an ObjectMeta it also checks the metadata syntax (metadataSyntax.ts); the
 * block at path `metadata` is the root object's own, whose name and namespace are checked too.
 */
export function walk(value: unknown, prev: unknown, node: CompiledNode, ctx: WalkContext): void {
  if (node.kind === NodeKind.unknownRef) {
    ctx.errors.push(
      invalidError(pathText(ctx.path), node.ref, 'the schema refers to an unknown Kubernetes type'),
    );
    return;
  }
  if (value === null) {
    if (!node.nullable) ctx.errors.push(typeError(pathText(ctx.path), node.expected, value));
    return;
  }
  switch (node.kind) {
    case NodeKind.intOrString:
      checkIntOrString(value, node, ctx);
      return;
    case NodeKind.object: {
      if (!isRecord(value)) {
        ctx.errors.push(typeError(pathText(ctx.path), 'object', value));
        return;
      }
      const before = isRecord(prev) ? prev : undefined;
      checkObject(value, before, node, ctx);
      if (node.isObjectMeta) {
        const path = ctx.path;
        checkMetadataSyntax(
          value,
          pathText(path),
          {
            root: path.length === 1 && path[0] === 'metadata' && !ctx.admission,
            nameIsLabel: ctx.nameIsLabel,
          },
          ctx.errors,
          before,
        );
      }
      return;
    }
    case NodeKind.array: {
      if (!Array.isArray(value)) {
        ctx.errors.push(typeError(pathText(ctx.path), 'array', value));
        return;
      }
      const items = node.items();
      if (items !== undefined) {
        const path = ctx.path;
        const before = Array.isArray(prev) ? prev : undefined;
        const shared = before === undefined ? 0 : Math.min(before.length, value.length);
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          const b = i < shared ? (before as unknown[])[i] : undefined;
          if (b !== undefined && b === v) continue; // as in the clean version
          path.push(i);
          walk(v, b, items, ctx);
          path.pop();
        }
      }
      return;
    }
    case NodeKind.string:
      if (typeof value !== 'string') ctx.errors.push(typeError(pathText(ctx.path), 'string', value));
      else checkString(value, node, ctx);
      return;
    case NodeKind.integer:
      if (typeof value !== 'number' || !Number.isInteger(value))
        ctx.errors.push(typeError(pathText(ctx.path), 'integer', value));
      else checkInteger(value, node.int32, ctx);
      return;
    case NodeKind.number:
      if (typeof value !== 'number' || !Number.isFinite(value))
        ctx.errors.push(typeError(pathText(ctx.path), 'number', value));
      return;
    case NodeKind.boolean:
      if (typeof value !== 'boolean') ctx.errors.push(typeError(pathText(ctx.path), 'boolean', value));
      return;
    default:
      return; // no type: anything goes (only reached by an open node without `type`)
  }
}
