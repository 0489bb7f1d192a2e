// The structural check as a plain, uncompiled walk over the schema: the oracle the compiled
// checker (src/structure/walk.ts) is compared with in structure.compiled.test.ts. It is the
// straightforward reading of the rules: a `$ref` resolved on every visit, paths built as strings
// at every node, no memory of earlier calls. Same answers, field for field and in the same order,
// is what the compiled checker and its caches must give.
import { annotationsSize } from '../src/annotationsSize';
import { kindSchema } from '../src/crdSchemas';
import { findKruiseKind, kruiseKinds } from '../src/kinds';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../src/nameValidation';
import { structureBuiltinKinds } from '../src/structure/checkStructure';
import {
  enumError,
  formatError,
  invalidError,
  patternError,
  requiredError,
  type StructureError,
  typeError,
  unknownFieldError,
} from '../src/structure/errors';
import type { JSONSchema } from '../src/structure/jsonSchema';
import { k8sDefinition, k8sRef } from '../src/structure/k8sRefs';

interface Ctx {
  errors: StructureError[];
  observed: boolean;
  admission: boolean;
  nameIsLabel: boolean;
}

const LIMIT = 256 * 1024;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
const expectedType = (s: JSONSchema) =>
  s['x-kubernetes-int-or-string'] === true
    ? 'integer,string'
    : typeof s.type === 'string'
      ? s.type
      : 'object';

function metadataSyntax(meta: Record<string, unknown>, field: string, root: boolean, nameIsLabel: boolean) {
  const errs: StructureError[] = [];
  if (root) {
    const nameCheck = nameIsLabel ? isDNS1123Label : isDNS1123Subdomain;
    if (typeof meta.name === 'string' && meta.name !== '')
      for (const m of nameCheck(meta.name)) errs.push(invalidError(`${field}.name`, meta.name, m));
    if (typeof meta.namespace === 'string' && meta.namespace !== '')
      for (const m of isDNS1123Label(meta.namespace))
        errs.push(invalidError(`${field}.namespace`, meta.namespace, m));
  }
  if (isRecord(meta.labels)) {
    for (const [k, v] of Object.entries(meta.labels)) {
      for (const m of isQualifiedName(k)) errs.push(invalidError(`${field}.labels`, k, m));
      if (typeof v === 'string')
        for (const m of isValidLabelValue(v)) errs.push(invalidError(`${field}.labels`, v, m));
    }
  }
  if (isRecord(meta.annotations)) {
    const at = `${field}.annotations`;
    for (const k of Object.keys(meta.annotations))
      for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalidError(at, k, m));
    if (annotationsSize(meta.annotations) > LIMIT)
      errs.push({ type: 'FieldValueTooLong', field: at, detail: `must have at most ${LIMIT} bytes` });
  }
  return errs;
}

function checkInteger(value: number, format: unknown, path: string, ctx: Ctx) {
  const fits = format === 'int32' ? value >= -2147483648 && value <= 2147483647 : Number.isSafeInteger(value);
  if (!fits) ctx.errors.push(formatError(path, format === 'int32' ? 'int32' : 'int64', value));
}

function walk(value: unknown, schema: JSONSchema, path: string, ctx: Ctx): void {
  let s = schema;
  const ref = s.$ref;
  if (ref !== undefined) {
    const def = k8sDefinition(ref);
    if (!def) {
      ctx.errors.push(invalidError(path, ref, 'the schema refers to an unknown Kubernetes type'));
      return;
    }
    s = Object.keys(s).length > 1 ? { ...def, ...s, $ref: undefined } : def;
  }
  if (value === null) {
    if (s.nullable !== true) ctx.errors.push(typeError(path, expectedType(s), value));
    return;
  }
  if (s['x-kubernetes-int-or-string'] === true) {
    if (typeof value === 'string') {
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value))
        ctx.errors.push(patternError(path, value, s.pattern));
    } else if (typeof value !== 'number' || !Number.isInteger(value)) {
      ctx.errors.push(typeError(path, 'integer,string', value));
    } else checkInteger(value, typeof s.pattern === 'string' ? 'int64' : 'int32', path, ctx);
    return;
  }
  switch (s.type) {
    case 'object': {
      if (!isRecord(value)) {
        ctx.errors.push(typeError(path, 'object', value));
        return;
      }
      const props = isRecord(s.properties) ? (s.properties as Record<string, JSONSchema>) : undefined;
      const additional = isRecord(s.additionalProperties)
        ? (s.additionalProperties as JSONSchema)
        : undefined;
      const open = s['x-kubernetes-preserve-unknown-fields'] === true;
      for (const key of Object.keys(value)) {
        const v = value[key];
        if (v === undefined) continue;
        const at = child(path, key);
        if (path === '' && key === 'status' && !ctx.observed && props && Object.hasOwn(props, key)) {
          walk(v, props[key], at, { ...ctx, observed: true });
        } else if (props && Object.hasOwn(props, key)) walk(v, props[key], at, ctx);
        else if (additional) walk(v, additional, at, ctx);
        else if (!open && !ctx.observed && !ctx.admission) ctx.errors.push(unknownFieldError(at));
      }
      if (Array.isArray(s.required)) {
        for (const r of s.required) {
          if (typeof r === 'string' && value[r] === undefined) ctx.errors.push(requiredError(child(path, r)));
        }
      }
      if (ref === 'ObjectMeta') {
        for (const e of metadataSyntax(value, path, path === 'metadata' && !ctx.admission, ctx.nameIsLabel))
          ctx.errors.push(e);
      }
      return;
    }
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
      if (typeof value !== 'string') {
        ctx.errors.push(typeError(path, 'string', value));
        return;
      }
      if (Array.isArray(s.enum) && !ctx.observed && value !== '' && !s.enum.includes(value))
        ctx.errors.push(enumError(path, value, s.enum));
      if (s.format === 'date-time' && !DATE_TIME.test(value))
        ctx.errors.push(formatError(path, 'date-time', value));
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value))
        ctx.errors.push(patternError(path, value, s.pattern));
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        ctx.errors.push(typeError(path, 'integer', value));
      else checkInteger(value, s.format, path, ctx);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        ctx.errors.push(typeError(path, 'number', value));
      return;
    case 'boolean':
      if (typeof value !== 'boolean') ctx.errors.push(typeError(path, 'boolean', value));
      return;
    default:
      return;
  }
}

function rootSchema(kind: string, apiVersion: unknown): { schema?: JSONSchema; errors: StructureError[] } {
  const builtin = Object.hasOwn(structureBuiltinKinds, kind) ? structureBuiltinKinds[kind] : undefined;
  if (builtin !== undefined) {
    const errors =
      apiVersion !== undefined && apiVersion !== builtin
        ? [enumError('apiVersion', apiVersion, [builtin])]
        : [];
    return { schema: k8sRef(kind), errors };
  }
  const info = findKruiseKind(kind);
  if (!info) {
    const known = [...Object.keys(structureBuiltinKinds), ...kruiseKinds.map((k) => k.kind)].sort();
    return { errors: [enumError('kind', kind, known)] };
  }
  const served = info.versions.filter((v) => v.served);
  const storage = served.find((v) => v.storage) ?? served[0];
  const wanted = served.find((v) => `${info.group}/${v.name}` === apiVersion);
  const errors: StructureError[] = [];
  if (apiVersion !== undefined && !wanted)
    errors.push(
      enumError(
        'apiVersion',
        apiVersion,
        served.map((v) => `${info.group}/${v.name}`),
      ),
    );
  return { schema: kindSchema(kind, (wanted ?? storage).name), errors };
}

/** checkStructure's answer, computed by the plain walk (no cache, no compilation). */
export function structureReference(
  kind: string,
  object: unknown,
  options: { observed?: boolean; admission?: boolean } = {},
): StructureError[] {
  try {
    if (!isRecord(object)) return [typeError('', 'object', object)];
    const { schema, errors } = rootSchema(kind, object.apiVersion);
    if (!schema) return errors;
    const root: JSONSchema =
      schema.$ref === undefined
        ? {
            ...schema,
            properties: {
              ...(schema.properties as Record<string, JSONSchema>),
              metadata: k8sRef('ObjectMeta'),
            },
          }
        : schema;
    const ctx: Ctx = {
      errors,
      observed: options.observed === true,
      admission: options.admission === true,
      nameIsLabel: kind === 'Namespace',
    };
    walk(object, root, '', ctx);
    return errors;
  } catch {
    return [invalidError('', '<unreadable>', 'the object could not be read as JSON')];
  }
}
