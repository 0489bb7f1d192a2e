// Label selectors as Kubernetes evaluates them: metav1.LabelSelector conversion, validation
// (FieldErrors) and the `status.labelSelector` string form. Matching a selector against labels
// is ./selectorMatcher; the requirements they are made of live in ./labelRequirements, node
// affinity and taints in ./nodeAffinity, label-key/value syntax in ./nameValidation and the
// string parser (k8s.io/apimachinery labels.Parse) in ./selectorString.
import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1.js';
import { type FieldError, invalid, KruiseError, required } from '../contract/errors';
import {
  type LabelRequirement,
  newRequirement,
  type SelectorOperator,
  sortRequirementsByKey,
} from './labelRequirements';
import { isQualifiedName, isValidLabelValue } from './nameValidation';

const EXPRESSION_OPERATORS: Record<string, SelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * `metav1.LabelSelectorAsSelector` as a requirement list: `null` for a nil selector
 * (matches nothing), `[]` for an empty one (matches everything), otherwise the
 * requirements sorted by key.
 *
 * @throws KruiseError for an unknown operator (`"Foo" is not a valid label selector operator`)
 *   or an invalid key/value.
 */
export function labelSelectorAsRequirements(
  selector: LabelSelector | null | undefined,
): LabelRequirement[] | null {
  if (selector === null || selector === undefined) return null;
  const matchLabels = selector.matchLabels ?? {};
  const exprs = selector.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + exprs.length === 0) return [];
  const reqs: LabelRequirement[] = [];
  for (const key of Object.keys(matchLabels).sort()) reqs.push(newRequirement(key, '=', [matchLabels[key]]));
  for (const expr of exprs) reqs.push(expressionRequirement(expr, true));
  return sortRequirementsByKey(reqs);
}

function expressionRequirement(expr: LabelSelectorRequirement, validate: boolean): LabelRequirement {
  const op = Object.hasOwn(EXPRESSION_OPERATORS, expr.operator)
    ? EXPRESSION_OPERATORS[expr.operator]
    : undefined;
  if (op === undefined) {
    throw new KruiseError(
      `${JSON.stringify(expr.operator)} is not a valid label selector operator`,
      expr.operator,
    );
  }
  const values = expr.values ?? [];
  return validate
    ? newRequirement(expr.key, op, values)
    : { key: expr.key, operator: op, values: [...values] };
}

/**
 * A non-nil selector's requirements with keys and values left unchecked, as Kruise's priority
 * terms read them (docs/reference/core.md R4.2): `matchLabels` as equality requirements, then
 * `matchExpressions` in their written order. Only an unknown operator is an error. Internal to
 * core: ./selectorMatcher's `validate: false` reads selectors through it.
 *
 * @throws KruiseError for an unknown operator.
 */
export function labelSelectorAsUncheckedRequirements(selector: LabelSelector): LabelRequirement[] {
  const reqs: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({
    key,
    operator: '=',
    values: [v],
  }));
  for (const expr of selector.matchExpressions ?? []) reqs.push(expressionRequirement(expr, false));
  return reqs;
}

/** `Requirement.String()`: `key=value`, `key in (a,b)` (values sorted), `key notin (...)`, `key`, `!key`. */
export function requirementToString(r: LabelRequirement): string {
  let out = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return out;
    case '=':
    case '==':
    case '!=':
      out += r.operator;
      break;
    case 'in':
      out += ' in ';
      break;
    case 'notin':
      out += ' notin ';
      break;
    case 'gt':
      out += '>';
      break;
    case 'lt':
      out += '<';
      break;
  }
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${out}(${vals})` : out + vals;
}

/** The string form of parsed requirements, joined by `,`. */
export function requirementsToString(reqs: readonly LabelRequirement[]): string {
  return reqs.map(requirementToString).join(',');
}

/**
 * `metav1.LabelSelectorAsSelector(selector).String()`: the form written to
 * `status.labelSelector`. Requirements are sorted by key; a nil or empty selector gives `""`.
 *
 * Example: `{matchLabels:{b:'2',a:'1'}, matchExpressions:[{key:'c',operator:'In',values:['y','x']},
 * {key:'d',operator:'DoesNotExist'}]}` → `"a=1,b=2,c in (x,y),!d"`.
 *
 * @throws KruiseError for an invalid selector (see {@link labelSelectorAsRequirements}).
 */
export function labelSelectorAsString(selector: LabelSelector | null | undefined): string {
  return requirementsToString(labelSelectorAsRequirements(selector) ?? []);
}

/**
 * Validates a `metav1.LabelSelector` as the API server does (`ValidateLabelSelector`):
 * In/NotIn need values, Exists/DoesNotExist forbid them, other operators are invalid,
 * keys must be qualified names and values valid label values.
 *
 * Example: `{matchExpressions:[{key:'a',operator:'In'}]}` at `spec.selector` →
 * `spec.selector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`.
 */
export function validateLabelSelector(
  selector: LabelSelector | null | undefined,
  field: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (selector === null || selector === undefined) return errs;
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    const p = `${field}.matchExpressions[${i}]`;
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push({
            type: 'FieldValueForbidden',
            field: `${p}.values`,
            detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          });
        }
        break;
      default:
        errs.push(invalid(`${p}.operator`, expr.operator, 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(expr.key)) errs.push(invalid(`${p}.key`, expr.key, msg));
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalid(`${p}.values[${j}]`, v, msg));
    });
  });
  const ml = selector.matchLabels ?? {};
  for (const k of Object.keys(ml).sort()) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(`${field}.matchLabels`, k, msg));
    for (const msg of isValidLabelValue(ml[k])) errs.push(invalid(`${field}.matchLabels`, ml[k], msg));
  }
  return errs;
}
