// Errors: the typed KruiseError thrown by low-level helpers on malformed values,
// and Kubernetes-style FieldErrors returned by every validate* function.

/** The error low-level helpers throw for a malformed value; its message names the value. */
export class KruiseError extends Error {
  /** The offending value, as given. */
  readonly value: unknown;
  constructor(message: string, value?: unknown) {
    super(message);
    this.name = 'KruiseError';
    this.value = value;
  }
}

/** The field-error types of k8s.io/apimachinery/pkg/util/validation/field. */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong';

/** A Kubernetes-style field error: `{ type, field: 'spec.updateStrategy.partition', badValue, detail }`. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue?: unknown;
  detail: string;
}

/** `field.Required(path, detail)`. */
export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, detail };
}

/** `field.Invalid(path, value, detail)`. */
export function invalid(field: string, badValue: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, badValue, detail };
}

/** `field.NotSupported(path, value, validValues)`; detail lists the supported values as Kubernetes does. */
export function notSupported(field: string, badValue: unknown, validValues: readonly string[]): FieldError {
  const quoted = validValues.map((v) => `"${v}"`).join(', ');
  return { type: 'FieldValueNotSupported', field, badValue, detail: `supported values: ${quoted}` };
}

/** `field.Forbidden(path, detail)`. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

/** `field.Duplicate(path, value)`. */
export function duplicate(field: string, badValue: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, badValue, detail: '' };
}

/** `field.TooLong(path, value, maxLength)`. */
export function tooLong(field: string, badValue: unknown, maxLength: number): FieldError {
  return { type: 'FieldValueTooLong', field, badValue, detail: `must have at most ${maxLength} bytes` };
}

const typeWords: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
};

/**
 * Renders a field error the way the API server does in a 422 message, e.g.
 * `spec.replicas: Invalid value: -1: replicas must be >= 0`.
 */
export function formatFieldError(e: FieldError): string {
  const parts = [`${e.field}: ${typeWords[e.type]}`];
  if (e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden' && e.badValue !== undefined) {
    parts.push(typeof e.badValue === 'string' ? JSON.stringify(e.badValue) : JSON.stringify(e.badValue));
  }
  if (e.detail) parts.push(e.detail);
  return parts.join(': ');
}
