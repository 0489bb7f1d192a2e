// A small schema language for the scenario document, so an unknown field or a
// wrong type is reported with its exact path (`spec.steps[2].setImage.imag`),
// before anything runs.

/** A schema node. */
export type Schema =
  | {
      type: 'string' | 'number' | 'integer' | 'boolean' | 'any' | 'duration';
      enum?: readonly string[];
      doc?: string;
    }
  | { type: 'object'; fields: Record<string, Schema>; required?: readonly string[]; doc?: string }
  | { type: 'map'; values: Schema; doc?: string }
  | { type: 'array'; items: Schema; doc?: string }
  | { type: 'oneOf'; options: readonly Schema[]; doc?: string }
  | { type: 'step'; actions: Record<string, Schema>; common: Record<string, Schema>; doc?: string };

/** A problem at a path. */
export interface SchemaError {
  path: (string | number)[];
  message: string;
}

/** `spec.steps[2].setImage` from a path. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks `value` against `schema`; returns every problem found. */
export function validateSchema(
  value: unknown,
  schema: Schema,
  path: (string | number)[] = [],
): SchemaError[] {
  const errs: SchemaError[] = [];
  const err = (message: string, p = path) => errs.push({ path: p, message });
  switch (schema.type) {
    case 'any':
      return errs;
    case 'string':
      if (typeof value !== 'string') err(`must be a string, not ${describe(value)}`);
      else if (schema.enum && !schema.enum.includes(value))
        err(
          `unsupported value ${JSON.stringify(value)}: supported values: ${schema.enum.map((e) => `"${e}"`).join(', ')}`,
        );
      return errs;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        err(`must be a number, not ${describe(value)}`);
      return errs;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        err(`must be an integer, not ${describe(value)}`);
      return errs;
    case 'boolean':
      if (typeof value !== 'boolean') err(`must be true or false, not ${describe(value)}`);
      return errs;
    case 'duration':
      if (
        !(typeof value === 'number' && value >= 0) &&
        !(typeof value === 'string' && /^(\d+(\.\d+)?(ms|s|m|h|d)?)+$/.test(value.trim()))
      )
        err(`must be a duration such as 30s, 1m30s, 500ms or a number of seconds, not ${describe(value)}`);
      return errs;
    case 'object': {
      if (!isObj(value)) {
        err(`must be a mapping, not ${describe(value)}`);
        return errs;
      }
      for (const [k, v] of Object.entries(value)) {
        const f = schema.fields[k];
        if (!f)
          err(`unknown field ${JSON.stringify(k)} (known fields: ${Object.keys(schema.fields).join(', ')})`, [
            ...path,
            k,
          ]);
        else append(errs, validateSchema(v, f, [...path, k]));
      }
      for (const r of schema.required ?? [])
        if (!(r in value)) err(`required field ${JSON.stringify(r)} is missing`, [...path, r]);
      return errs;
    }
    case 'map':
      if (!isObj(value)) err(`must be a mapping, not ${describe(value)}`);
      else
        for (const [k, v] of Object.entries(value))
          append(errs, validateSchema(v, schema.values, [...path, k]));
      return errs;
    case 'array':
      if (!Array.isArray(value)) err(`must be a list, not ${describe(value)}`);
      else
        value.forEach((v, i) => {
          append(errs, validateSchema(v, schema.items, [...path, i]));
        });
      return errs;
    case 'oneOf': {
      let best: SchemaError[] | undefined;
      for (const o of schema.options) {
        const e = validateSchema(value, o, path);
        if (e.length === 0) return errs;
        if (!best || e.length < best.length) best = e;
      }
      return best ?? errs;
    }
    case 'step': {
      if (!isObj(value)) {
        err(
          `must be a mapping with one action (${Object.keys(schema.actions).join(', ')}), not ${describe(value)}`,
        );
        return errs;
      }
      const actions = Object.keys(value).filter((k) => k in schema.actions);
      for (const k of Object.keys(value))
        if (!(k in schema.actions) && !(k in schema.common))
          err(
            `unknown step field ${JSON.stringify(k)} (actions: ${Object.keys(schema.actions).join(', ')}; common: ${Object.keys(schema.common).join(', ')})`,
            [...path, k],
          );
      if (actions.length !== 1) {
        if (
          actions.length === 0 &&
          Object.keys(value).every((k) => k in schema.common || k in schema.actions)
        )
          err(`a step needs exactly one action: ${Object.keys(schema.actions).join(', ')}`);
        else if (actions.length > 1) err(`a step has exactly one action, found ${actions.join(' and ')}`);
      }
      for (const k of actions) append(errs, validateSchema(value[k], schema.actions[k], [...path, k]));
      for (const [k, s] of Object.entries(schema.common))
        if (k in value) append(errs, validateSchema(value[k], s, [...path, k]));
      return errs;
    }
  }
}

/** Appends one by one: a list of 100,000 bad items as push(...) arguments would overflow the stack. */
function append(to: SchemaError[], more: readonly SchemaError[]): void {
  for (const e of more) to.push(e);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}
