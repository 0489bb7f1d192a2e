// Admission validation of Advanced DaemonSets (docs/reference/daemonset.md §1.1, §1.3): what the
// validating webhook rejects, as Kubernetes-style field errors with the same field paths.

import type { IntOrString } from '@kruise-ts/api';
import { checkStructure } from '@kruise-ts/api';
import {
  type FeatureGates,
  type FieldError,
  forbidden,
  invalid,
  notSupported,
  required,
  validateLabelSelector,
  validateLabels,
  validateObjectMeta,
  validatePodTemplateBasics,
  validateSelectorMatchesTemplate,
  validateWorkloadSelector,
} from '@kruise-ts/core';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { DaemonSet, RollingUpdateDaemonSet } from './types';

/** What a check needs beyond the object. */
export interface ValidateDaemonSetContext {
  featureGates?: Partial<FeatureGates>;
}

const PERCENT_RE = /^[0-9]+%$/;

/**
 * A selector with neither `matchLabels` nor `matchExpressions`: it selects every pod, which
 * §1.1 forbids (the reconcile only warns `SelectingAll`, §2 step 1). `undefined` (no selector)
 * is not empty.
 */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return (
    !!selector &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0
  );
}

/** Kubernetes' `ValidatePositiveIntOrPercent` + `IsNotMoreThan100Percent` for one field. */
function validateIntOrPercent(value: IntOrString | undefined | null, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      return [invalid(field, value, "must be an integer or percentage (e.g '5%')")];
    return value < 0 ? [invalid(field, value, 'must be greater than or equal to 0')] : [];
  }
  if (typeof value !== 'string' || !PERCENT_RE.test(value)) {
    return [invalid(field, value, "must be an integer or percentage (e.g '5%')")];
  }
  return Number(value.slice(0, -1)) > 100 ? [invalid(field, value, 'must not be greater than 100%')] : [];
}

/** "Non-zero" of §1.3: a non-zero integer or a percent string with a non-zero number. */
function isNonZero(value: IntOrString | undefined | null): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'number') return value !== 0;
  const n = Number.parseInt(String(value).replace(/%$/, ''), 10);
  return Number.isFinite(n) && n !== 0;
}

function validateNonNegative(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'number' || !Number.isInteger(value))
    return [invalid(field, value, 'must be an integer')];
  return value < 0 ? [invalid(field, value, 'must be greater than or equal to 0')] : [];
}

/**
 * §1.3 `rollingUpdate`: both budgets positive ints or percents ≤ 100 %; not both non-zero
 * and not both zero; `InPlaceIfPossible` needs `maxSurge` zero; `Surging` needs
 * `maxUnavailable` zero; `partition ≥ 0`; a valid node selector.
 */
export function validateRollingUpdate(ru: RollingUpdateDaemonSet, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`));
  errs.push(...validateIntOrPercent(ru.maxSurge, `${path}.maxSurge`));
  const hasUnavailable = isNonZero(ru.maxUnavailable);
  const hasSurge = isNonZero(ru.maxSurge);
  if (hasUnavailable && hasSurge) {
    errs.push(invalid(`${path}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  }
  const type = ru.rollingUpdateType;
  if (type !== undefined && (type as string) !== '') {
    if (!['Standard', 'Surging', 'InPlaceIfPossible'].includes(type)) {
      errs.push(
        notSupported(`${path}.rollingUpdateType`, type, ['Standard', 'Surging', 'InPlaceIfPossible']),
      );
    } else if (type === 'InPlaceIfPossible' && hasSurge) {
      errs.push(
        invalid(`${path}.maxSurge`, ru.maxSurge, 'must be 0 when rollingUpdateType is InPlaceIfPossible'),
      );
    } else if (type === 'Surging' && hasUnavailable) {
      errs.push(
        invalid(`${path}.maxUnavailable`, ru.maxUnavailable, 'must be 0 when rollingUpdateType is Surging'),
      );
    }
  }
  errs.push(...validateNonNegative(ru.partition, `${path}.partition`));
  if (ru.selector) errs.push(...validateLabelSelector(ru.selector, `${path}.selector`));
  return errs;
}

/**
 * Validates an Advanced DaemonSet as OpenKruise's webhook does (docs/reference/daemonset.md §1.1, §1.3):
 * object metadata (DNS-1123 name, labels, annotations); a non-empty, valid selector matching
 * the template labels; the shared pod-template checks of core (containers, names, images,
 * ports, volumes), `restartPolicy` Always (or unset) and no `activeDeadlineSeconds`; the
 * update strategy (`RollingUpdate` needs a `rollingUpdate` block, see
 * {@link validateRollingUpdate}); `minReadySeconds`, `revisionHistoryLimit ≥ 0`; and no
 * `lifecycle.inPlaceUpdate` hook. `old` (an update) is validated the same way.
 *
 * Example: `rollingUpdate: {maxUnavailable: 1, maxSurge: 1}` →
 * `spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`.
 */
export function validateDaemonSet(
  obj: DaemonSet,
  _old?: DaemonSet,
  _ctx?: ValidateDaemonSetContext,
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('DaemonSet', obj, { admission: true });
  if (shape.length > 0) return shape;
  // The API server fills a missing namespace from the request before validating.
  const errs: FieldError[] = validateObjectMeta(obj?.metadata, 'metadata').filter(
    (e) => !(e.field === 'metadata.namespace' && e.type === 'FieldValueRequired'),
  );
  const spec = obj?.spec;
  if (!spec || typeof spec !== 'object') {
    errs.push(required('spec', ''));
    return errs;
  }
  errs.push(...validateWorkloadSelector(spec.selector, 'spec.selector', 'DaemonSet'));
  if (!spec.template) {
    errs.push(required('spec.template', ''));
  } else {
    if (spec.selector && !isEmptySelector(spec.selector)) {
      errs.push(
        ...validateSelectorMatchesTemplate(
          spec.selector,
          spec.template.metadata?.labels,
          'spec.template.metadata.labels',
        ),
      );
    }
    errs.push(...validateLabels(spec.template.metadata?.labels, 'spec.template.metadata.labels'));
    errs.push(
      ...validatePodTemplateBasics(spec.template, 'spec.template', {
        forbidActiveDeadlineSecondsFor: 'DaemonSet',
      }),
    );
  }
  const strategy = spec.updateStrategy;
  if (strategy) {
    const type = strategy.type;
    if (type !== undefined && (type as string) !== '' && type !== 'RollingUpdate' && type !== 'OnDelete') {
      errs.push(notSupported('spec.updateStrategy.type', type, ['RollingUpdate', 'OnDelete']));
    }
    if (type === 'RollingUpdate') {
      if (!strategy.rollingUpdate) errs.push(required('spec.updateStrategy.rollingUpdate', ''));
      else errs.push(...validateRollingUpdate(strategy.rollingUpdate, 'spec.updateStrategy.rollingUpdate'));
    }
  }
  errs.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (spec.lifecycle?.inPlaceUpdate) {
    errs.push(forbidden('spec.lifecycle.inPlaceUpdate', 'inPlaceUpdate hook is not supported for DaemonSet'));
  }
  return errs;
}
