// The errors checkStructure returns, in the shape of Kubernetes field errors. @kruise-ts/core's
// `FieldError` is the same shape (api sits below core, so it cannot import it), and a
// `StructureError` is assignable to it: a validate<Kind> function returns them as they are.
// The wording is the API server's for a custom resource, e.g.
// `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.

/** The field-error types checkStructure uses (a subset of core's `FieldErrorType`). */
export type StructureErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong';

/** A Kubernetes field error: `{ type, field: 'spec.replicas', badValue, detail }`. */
export interface StructureError {
  type: StructureErrorType;
  field: string;
  badValue?: unknown;
  detail: string;
}

/**
 * The JSON type of a value as Kubernetes names it in a type error: `integer` for a whole number,
 * `number` for any other (NaN and ±Infinity included: JSON has no such numbers), `null`, and for a
 * value JSON cannot hold (a function, undefined inside an array) its JavaScript type.
 */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `Invalid value: "string": <field> in body must be of type integer: "string"`. */
export function typeError(field: string, expected: string, value: unknown): StructureError {
  const actual = jsonTypeName(value);
  return {
    type: 'FieldValueInvalid',
    field,
    badValue: actual,
    detail: `${field === '' ? '' : `${field} in body `}must be of type ${expected}: "${actual}"`,
  };
}

/** A number outside its format: `<field> in body must be of type int32: "5000000000"`. */
export function formatError(field: string, format: string, value: unknown): StructureError {
  return {
    type: 'FieldValueInvalid',
    field,
    badValue: value,
    detail: `${field} in body must be of type ${format}: "${String(value)}"`,
  };
}

/** `Required value`. */
export function requiredError(field: string): StructureError {
  return { type: 'FieldValueRequired', field, detail: '' };
}

/** `Unsupported value: "x": supported values: "A", "B"`. */
export function enumError(field: string, value: unknown, values: readonly unknown[]): StructureError {
  const quoted = values.map((v) => JSON.stringify(v)).join(', ');
  return { type: 'FieldValueNotSupported', field, badValue: value, detail: `supported values: ${quoted}` };
}

/** A string that does not match its pattern: `<field> in body should match '<pattern>'`. */
export function patternError(field: string, value: string, pattern: string): StructureError {
  return {
    type: 'FieldValueInvalid',
    field,
    badValue: value,
    detail: `${field} in body should match '${pattern}'`,
  };
}

/**
 * A field the schema does not declare, as the API server's strict field validation words it:
 * `unknown field "spec.replcias"`.
 */
export function unknownFieldError(field: string): StructureError {
  return { type: 'FieldValueForbidden', field, detail: `unknown field "${field}"` };
}

/** `Invalid value: <value>: <detail>`. */
export function invalidError(field: string, value: unknown, detail: string): StructureError {
  return { type: 'FieldValueInvalid', field, badValue: value, detail };
}
