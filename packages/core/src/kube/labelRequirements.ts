// Label requirements as k8s.io/apimachinery's `labels.Requirement` has them: one key, an
// operator and values, built with Kubernetes' validation and matched against a label map.
// Label selectors (./selectors), the selector-string parser (./selectorString) and node
// affinity (./nodeAffinity) are all built from these, so this file imports none of them.
import { KruiseError } from '../contract/errors';
import { parseGoInt } from './intstr';
import { isQualifiedName, isValidLabelValue } from './nameValidation';

/** `selection.Operator` of k8s.io/apimachinery, with the same string values. */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement of a parsed selector (`labels.Requirement`). */
export interface LabelRequirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

/** A label map as found on objects (absent → empty). */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/**
 * `labels.NewRequirement`: validates a requirement the way Kubernetes does.
 * @throws KruiseError describing the problem.
 */
export function newRequirement(
  key: string,
  operator: SelectorOperator,
  values: readonly string[],
): LabelRequirement {
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0)
    throw new KruiseError(`key: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`, key);
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        throw new KruiseError(
          "values: Invalid value: for 'in', 'notin' operators, values set can't be empty",
          values,
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        throw new KruiseError(
          'values: Invalid value: exact-match compatibility requires one single value',
          values,
        );
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        throw new KruiseError(
          'values: Invalid value: values set must be empty for exists and does not exist',
          values,
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        throw new KruiseError(
          "values: Invalid value: for 'Gt', 'Lt' operators, exactly one value is required",
          values,
        );
      }
      if (parseGoInt(values[0]) === undefined) {
        throw new KruiseError(
          "values[0]: Invalid value: for 'Gt', 'Lt' operators, the value must be an integer",
          values[0],
        );
      }
      break;
    default:
      throw new KruiseError(`operator: Unsupported value: ${JSON.stringify(operator)}`, operator);
  }
  for (const v of values) {
    const errs = isValidLabelValue(v);
    if (errs.length > 0)
      throw new KruiseError(`values: Invalid value: ${JSON.stringify(v)}: ${errs.join('; ')}`, v);
  }
  return { key, operator, values: [...values] };
}

/** `Requirement.Matches`. */
export function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  const set = labels ?? {};
  const has = Object.hasOwn(set, r.key);
  const value = has ? set[r.key] : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value as string);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value as string);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const lv = parseGoInt(value as string);
      const rv = parseGoInt(r.values[0]);
      if (lv === undefined || rv === undefined) return false;
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
    default:
      return false;
  }
}

/** Sorts requirements by key (stable), as `Selector.Add` / `labels.Parse` do. */
export function sortRequirementsByKey(reqs: LabelRequirement[]): LabelRequirement[] {
  return [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
