// validateStatefulSet: what OpenKruise's StatefulSet validating webhook rejects
// (docs/reference/statefulset.md §2.2), with Kubernetes-style field paths. Works on the defaulted object
// (the webhook validates after the mutating webhook ran).
import {
  ADVANCED_STATEFULSET_MUTABLE_SPEC_FIELDS,
  CONDITION_INPLACE_UPDATE_READY,
  checkStructure,
  type IntOrString,
  type StatefulSet,
} from '@kruise-ts/api';
import {
  canonicalJSON,
  type FieldError,
  forbidden,
  invalid,
  notSupported,
  required,
  scaledValueFromIntOrPercent,
  validateIntOrPercent,
  validateNonNegative,
  validateObjectMeta,
  validatePodTemplateBasics,
  validateSelectorMatchesTemplate,
  validateUpdatePriorityStrategy,
  validateWorkloadSelector,
} from '@kruise-ts/core';
import { MAX_MIN_READY_SECONDS } from './predicates';
import type { ValidateStatefulSetContext } from './types';

/** R2.2 item 9: the spec fields an update may change (api's list, shared with UnitedDeployment). */
export const MUTABLE_SPEC_FIELDS = ADVANCED_STATEFULSET_MUTABLE_SPEC_FIELDS;

const POLICIES: readonly string[] = ['OrderedReady', 'Parallel'];
const UPDATE_TYPES: readonly string[] = ['RollingUpdate', 'OnDelete'];
const POD_UPDATE_POLICIES: readonly string[] = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'];
const RANGE_RE = /^\d+-\d+$/;

/**
 * R2.2 item 2: an int element must be ≥ 0; a string must match `^\d+-\d+$` with start ≤ end.
 * Example: `[1, "3-5"]` is valid; `[-1]`, `["5-3"]`, `["a-b"]` are not.
 */
export function validateReserveOrdinals(
  list: readonly IntOrString[] | undefined,
  field: string,
): FieldError[] {
  const errs: FieldError[] = [];
  (list ?? []).forEach((elem, i) => {
    const p = `${field}[${i}]`;
    if (typeof elem === 'number') {
      if (!Number.isInteger(elem) || elem < 0)
        errs.push(invalid(p, elem, 'reserveOrdinals must be a non-negative integer'));
      return;
    }
    if (typeof elem !== 'string' || !RANGE_RE.test(elem)) {
      errs.push(invalid(p, elem, 'reserveOrdinals string must be a range like "1-3"'));
      return;
    }
    const [a, b] = elem.split('-').map(Number);
    if (a > b) errs.push(invalid(p, elem, 'reserveOrdinals range start must not be greater than its end'));
  });
  return errs;
}

/**
 * R2.2 item 3 for `updateStrategy.rollingUpdate.maxUnavailable` and `scaleStrategy.maxUnavailable`:
 * a non-negative int or an `"N%"` string that, scaled against 1 and rounded up, is ≥ 1 (so `0`
 * and `"0%"` are rejected, `"1%"` accepted); and unless the policy is `Parallel` the value must
 * be exactly the int 1.
 */
export function validateMaxUnavailable(
  value: IntOrString | undefined,
  field: string,
  policy: string | undefined,
): FieldError[] {
  if (value === undefined || value === null) return [];
  const errs = validateIntOrPercent(value, field);
  if (errs.length > 0) return errs;
  let scaled = 0;
  try {
    scaled = scaledValueFromIntOrPercent(value, 1, true);
  } catch (e) {
    return [invalid(field, value, (e as Error).message)];
  }
  if (scaled < 1) errs.push(invalid(field, value, 'should not be less than 1'));
  if (policy !== 'Parallel' && value !== 1) {
    errs.push(invalid(field, value, 'maxUnavailable can just work with Parallel PodManagementPolicyType'));
  }
  return errs;
}

function validateUpdateStrategy(set: StatefulSet, errs: FieldError[]): void {
  const spec = set.spec;
  const us = spec.updateStrategy;
  const f = 'spec.updateStrategy';
  const type = us?.type ?? '';
  if (!UPDATE_TYPES.includes(type)) {
    errs.push(type === '' ? required(`${f}.type`, '') : notSupported(`${f}.type`, type, UPDATE_TYPES));
    return;
  }
  const ru = us?.rollingUpdate;
  if (type === 'OnDelete') {
    if (ru) errs.push(invalid(`${f}.rollingUpdate`, ru, 'only allowed for updateStrategy "RollingUpdate"'));
    return;
  }
  if (!ru) return;
  const rf = `${f}.rollingUpdate`;
  errs.push(...validateNonNegative(ru.partition, `${rf}.partition`));
  if (ru.maxUnavailable === undefined || ru.maxUnavailable === null)
    errs.push(required(`${rf}.maxUnavailable`, ''));
  else
    errs.push(...validateMaxUnavailable(ru.maxUnavailable, `${rf}.maxUnavailable`, spec.podManagementPolicy));
  const mrs = ru.minReadySeconds ?? 0;
  if (mrs < 0 || mrs > MAX_MIN_READY_SECONDS) {
    errs.push(invalid(`${rf}.minReadySeconds`, mrs, `should be in [0, ${MAX_MIN_READY_SECONDS}]`));
  }
  const pup = ru.podUpdatePolicy ?? 'ReCreate';
  if (!POD_UPDATE_POLICIES.includes(pup))
    errs.push(notSupported(`${rf}.podUpdatePolicy`, pup, POD_UPDATE_POLICIES));
  if (pup === 'InPlaceIfPossible' || pup === 'InPlaceOnly') {
    const gates = spec.template?.spec?.readinessGates ?? [];
    if (!gates.some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY)) {
      errs.push(
        invalid(
          'spec.template.spec.readinessGates',
          gates,
          `must contain ${CONDITION_INPLACE_UPDATE_READY} when podUpdatePolicy is ${pup}`,
        ),
      );
    }
  }
  errs.push(
    ...validateNonNegative(
      ru.inPlaceUpdateStrategy?.gracePeriodSeconds,
      `${rf}.inPlaceUpdateStrategy.gracePeriodSeconds`,
    ),
  );
  if (ru.unorderedUpdate) {
    if (spec.podManagementPolicy !== 'Parallel') {
      errs.push(
        invalid(
          `${rf}.unorderedUpdate`,
          ru.unorderedUpdate,
          'unorderedUpdate can only work with Parallel PodManagementPolicyType',
        ),
      );
    }
    errs.push(
      ...validateUpdatePriorityStrategy(
        ru.unorderedUpdate.priorityStrategy,
        `${rf}.unorderedUpdate.priorityStrategy`,
      ),
    );
  }
}

function validateSpec(set: StatefulSet): FieldError[] {
  const errs: FieldError[] = [];
  const spec = set.spec;
  if (!spec) return [required('spec', '')];
  const policy = spec.podManagementPolicy ?? '';
  if (!POLICIES.includes(policy)) {
    errs.push(
      policy === ''
        ? required('spec.podManagementPolicy', '')
        : notSupported('spec.podManagementPolicy', policy, POLICIES),
    );
  }
  errs.push(...validateNonNegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateNonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  errs.push(...validateNonNegative(spec.ordinals?.start, 'spec.ordinals.start'));
  for (const e of validateReserveOrdinals(spec.reserveOrdinals, 'spec.reserveOrdinals')) errs.push(e);
  errs.push(...validateWorkloadSelector(spec.selector, 'spec.selector', 'StatefulSet'));
  errs.push(
    ...validateSelectorMatchesTemplate(
      spec.selector,
      spec.template?.metadata?.labels,
      'spec.template.metadata.labels',
    ),
  );
  errs.push(
    ...validatePodTemplateBasics(spec.template, 'spec.template', {
      forbidActiveDeadlineSecondsFor: 'StatefulSet',
      volumeClaimTemplates: spec.volumeClaimTemplates,
    }),
  );
  validateUpdateStrategy(set, errs);
  errs.push(
    ...validateMaxUnavailable(
      spec.scaleStrategy?.maxUnavailable,
      'spec.scaleStrategy.maxUnavailable',
      spec.podManagementPolicy,
    ),
  );
  (spec.volumeClaimTemplates ?? []).forEach((t, i) => {
    if (!t.metadata?.name) errs.push(required(`spec.volumeClaimTemplates[${i}].metadata.name`, ''));
  });
  return errs;
}

/**
 * What OpenKruise's webhook rejects for an Advanced StatefulSet (§2.2), on the defaulted object:
 * metadata; `podManagementPolicy` OrderedReady|Parallel (1); `reserveOrdinals` (2); both
 * `maxUnavailable`s (3); `unorderedUpdate` only with Parallel (4); `partition` ≥ 0,
 * `minReadySeconds` ∈ [0, 300], `maxUnavailable` required (5); in-place policies need the
 * `InPlaceUpdateReady` readiness gate (6); OnDelete without `rollingUpdate` (7); template
 * `restartPolicy` Always and no `activeDeadlineSeconds` (8); selector required, non-empty and
 * matching the template labels; on update (`old` given) only the fields of item 9 may change.
 *
 * Example: `podManagementPolicy: OrderedReady` with `maxUnavailable: 2` →
 * `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 2: maxUnavailable can just
 * work with Parallel PodManagementPolicyType`.
 */
export function validateStatefulSet(
  obj: StatefulSet,
  old?: StatefulSet,
  _ctx: ValidateStatefulSetContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('StatefulSet', obj, { admission: true });
  if (shape.length > 0) return shape;
  const errs: FieldError[] = [...validateObjectMeta(obj.metadata, 'metadata'), ...validateSpec(obj)];
  if (old) {
    const strip = (s: StatefulSet) => {
      const copy: Record<string, unknown> = { ...(s.spec ?? {}) };
      for (const k of MUTABLE_SPEC_FIELDS) delete copy[k];
      return copy;
    };
    if (canonicalJSON(strip(obj)) !== canonicalJSON(strip(old))) {
      errs.push(
        forbidden(
          'spec',
          `updates to statefulset spec for fields other than ${MUTABLE_SPEC_FIELDS.map((f) => `'${f}'`).join(', ')} are forbidden`,
        ),
      );
    }
  }
  return errs;
}
