// What a well-formed answer of an entry point looks like (entries.ts names the shape): the checks
// the robustness properties and the long-run script apply to every call. Each returns the first
// problem found, or undefined.

import type { AnswerShape } from './entries';

const VERBS = new Set(['create', 'delete', 'patch', 'update', 'updateStatus', 'event']);
const FIELD_ERROR_TYPES = new Set([
  'FieldValueRequired',
  'FieldValueInvalid',
  'FieldValueNotSupported',
  'FieldValueForbidden',
  'FieldValueDuplicate',
  'FieldValueTooLong',
]);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Field errors: an array of `{type, field, detail}` with a known type and a string path. */
export function fieldErrorsProblem(v: unknown, at = 'errors'): string | undefined {
  if (!Array.isArray(v)) return `${at} is not an array`;
  for (const [i, e] of v.entries()) {
    if (!isRecord(e)) return `${at}[${i}] is not an object`;
    if (!FIELD_ERROR_TYPES.has(e.type as string))
      return `${at}[${i}].type ${String(e.type)} is not a field-error type`;
    if (typeof e.field !== 'string') return `${at}[${i}].field is not a path string`;
    if (typeof e.detail !== 'string') return `${at}[${i}].detail is not a string`;
  }
  return undefined;
}

/** A ReconcileResult: actions of known verbs, field errors, and no delete when there are errors. */
export function reconcileProblem(r: unknown): string | undefined {
  if (!isRecord(r)) return 'the result is not an object';
  if (!Array.isArray(r.actions)) return 'actions is not an array';
  for (const [i, a] of r.actions.entries()) {
    if (!isRecord(a) || !VERBS.has(a.verb as string)) return `actions[${i}] has no known verb`;
    if (typeof a.reason !== 'string') return `actions[${i}].reason is not a string`;
  }
  const errs = fieldErrorsProblem(r.errors);
  if (errs) return errs;
  if ((r.errors as unknown[]).length > 0 && r.actions.some((a) => (a as { verb: string }).verb === 'delete'))
    return 'a delete was proposed with errors';
  if (
    r.requeueAfterSeconds !== undefined &&
    !(typeof r.requeueAfterSeconds === 'number' && r.requeueAfterSeconds >= 0)
  )
    return 'requeueAfterSeconds is not a non-negative number';
  return undefined;
}

/** The first problem of `answer` for the shape `shape`, or undefined when it is well-formed. */
export function answerProblem(shape: AnswerShape, answer: unknown): string | undefined {
  switch (shape) {
    case 'reconcile':
      return reconcileProblem(answer);
    case 'fieldErrors':
      return fieldErrorsProblem(answer, 'the result');
    case 'object':
      return isRecord(answer) ? undefined : 'the result is not an object';
    case 'injection':
      if (!isRecord(answer)) return 'the result is not an object';
      if (!Array.isArray(answer.injected)) return 'injected is not an array';
      return fieldErrorsProblem(answer.errors);
    case 'allocation':
      if (!isRecord(answer)) return 'the result is not an object';
      if (typeof answer.error === 'string') return undefined;
      if (!isRecord(answer.replicas)) return 'neither replicas nor error';
      for (const [k, n] of Object.entries(answer.replicas))
        if (!Number.isSafeInteger(n) || (n as number) < 0) return `replicas.${k} is ${String(n)}`;
      return undefined;
    case 'diffs':
      if (!isRecord(answer)) return 'the result is not an object';
      for (const [k, n] of Object.entries(answer))
        if (typeof n === 'number' && Number.isNaN(n)) return `${k} is NaN`;
      return undefined;
    case 'any':
      return undefined;
  }
}
