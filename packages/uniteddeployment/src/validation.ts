// Admission validation of a UnitedDeployment (docs/reference/uniteddeployment.md §1.4, rules 1–7): what
// OpenKruise's validating webhook rejects, as Kubernetes field errors.
import { ADVANCED_STATEFULSET_MUTABLE_SPEC_FIELDS, checkStructure } from '@kruise-ts/api';
import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  jsonEqual,
  matchesLabelSelector,
  notSupported,
  required,
} from '@kruise-ts/core';
import { parseSubsetReplicas } from './parse';
import type { UDSubset, UnitedDeploymentObject } from './types';
import { SUBSET_KINDS, type SubsetKind, TEMPLATE_FIELD, templateKindOf } from './workloads';

/** Extra context (unused today; kept for the common `validate<Kind>(obj, old?, ctx?)` shape). */
export interface ValidateUnitedDeploymentContext {
  featureGates?: Record<string, boolean>;
}

/** §1.4 rule 4: a nil maxReplicas counts as this much in Σmax. */
export const UNBOUNDED_MAX_FOR_VALIDATION = 1_000_000;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Spec fields that may change on update, per template kind (§1.4 rule 7; undefined = no rule). */
const MUTABLE_TEMPLATE_SPEC_FIELDS: Partial<Record<SubsetKind, readonly string[]>> = {
  StatefulSet: [
    'replicas',
    'ordinals',
    'template',
    'updateStrategy',
    'persistentVolumeClaimRetentionPolicy',
    'minReadySeconds',
  ],
  AdvancedStatefulSet: ADVANCED_STATEFULSET_MUTABLE_SPEC_FIELDS,
};

/**
 * Validates a UnitedDeployment (§1.4); with `old`, also the update rules. Returns [] when valid.
 *
 * Example: `replicas: 10` with subsets `a: 6` and `b: 6` → one error on `spec.topology.subsets`
 * (Σ 12 > 10); subsets `a[min 2, max 4]` and `b[min 1, max 3]` → "at least one subset must have
 * nil maxReplicas".
 */
export function validateUnitedDeployment(
  obj: UnitedDeploymentObject,
  old?: UnitedDeploymentObject,
  _ctx?: ValidateUnitedDeploymentContext,
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('UnitedDeployment', obj, { admission: true });
  if (shape.length > 0) return shape;
  const errs: FieldError[] = [];
  const spec = obj.spec ?? {};
  const total = spec.replicas;
  if (total != null && (!Number.isInteger(total) || total < 0)) {
    errs.push(invalid('spec.replicas', total, 'must be greater than or equal to 0'));
  }
  if (spec.revisionHistoryLimit != null && spec.revisionHistoryLimit < 0) {
    errs.push(
      invalid('spec.revisionHistoryLimit', spec.revisionHistoryLimit, 'must be greater than or equal to 0'),
    );
  }
  // Rule 1: one template kind; selector non-empty and matching the template labels.
  const kinds = SUBSET_KINDS.filter((k) => spec.template?.[TEMPLATE_FIELD[k]] != null);
  if (kinds.length === 0) {
    errs.push(
      required(
        'spec.template',
        'must provide one of statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate or deploymentTemplate',
      ),
    );
  } else if (kinds.length > 1) {
    errs.push(
      invalid(
        'spec.template',
        kinds.map((k) => TEMPLATE_FIELD[k]).join(', '),
        'must provide only one template',
      ),
    );
  }
  const selector = spec.selector;
  if (!selector) {
    errs.push(required('spec.selector'));
  } else if (!Object.keys(selector.matchLabels ?? {}).length && !(selector.matchExpressions ?? []).length) {
    errs.push(invalid('spec.selector', selector, 'empty selector is invalid for UnitedDeployment'));
  } else {
    for (const [i, e] of (selector.matchExpressions ?? []).entries()) {
      const f = `spec.selector.matchExpressions[${i}]`;
      if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(e.operator)) {
        errs.push(notSupported(`${f}.operator`, e.operator, ['In', 'NotIn', 'Exists', 'DoesNotExist']));
      } else if ((e.operator === 'In' || e.operator === 'NotIn') !== (e.values ?? []).length > 0) {
        errs.push(
          invalid(
            `${f}.values`,
            e.values ?? [],
            'values set must be non-empty for In/NotIn and empty otherwise',
          ),
        );
      }
    }
    for (const k of kinds) {
      const labels = spec.template?.[TEMPLATE_FIELD[k]]?.metadata?.labels;
      if (!matchesLabelSelector(selector, labels ?? {})) {
        errs.push(
          invalid(
            `spec.template.${TEMPLATE_FIELD[k]}.metadata.labels`,
            labels ?? {},
            '`selector` does not match template `labels`',
          ),
        );
      }
    }
  }
  const strategyType = spec.topology?.scheduleStrategy?.type ?? '';
  if (!['', 'Fixed', 'Adaptive'].includes(strategyType)) {
    errs.push(notSupported('spec.topology.scheduleStrategy.type', strategyType, ['Fixed', 'Adaptive']));
  }
  const adaptive = spec.topology?.scheduleStrategy?.adaptive;
  for (const f of ['rescheduleCriticalSeconds', 'unschedulableLastSeconds'] as const) {
    const v = adaptive?.[f];
    if (v != null && v < 0)
      errs.push(
        invalid(`spec.topology.scheduleStrategy.adaptive.${f}`, v, 'must be greater than or equal to 0'),
      );
  }
  const updateType = spec.updateStrategy?.type ?? '';
  if (!['', 'Manual'].includes(updateType))
    errs.push(notSupported('spec.updateStrategy.type', updateType, ['Manual']));

  // Rule 2: subset names; partition keys.
  const subsets: UDSubset[] = spec.topology?.subsets ?? [];
  const names = new Set<string>();
  for (const [i, s] of subsets.entries()) {
    const f = `spec.topology.subsets[${i}].name`;
    if (!s.name) errs.push(required(f));
    else if (s.name.length > 63 || !DNS1123_LABEL.test(s.name)) {
      errs.push(
        invalid(
          f,
          s.name,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        ),
      );
    } else if (names.has(s.name)) errs.push(duplicate(f, s.name));
    names.add(s.name);
  }
  for (const key of Object.keys(spec.updateStrategy?.manualUpdate?.partitions ?? {})) {
    if (!names.has(key)) {
      errs.push(invalid('spec.updateStrategy.manualUpdate.partitions', key, `subset ${key} does not exist`));
    }
  }
  errs.push(...validateSubsetReplicas(total, subsets));
  // Rule 7: immutable subset placement and template-kind rules.
  if (old) errs.push(...validateUpdate(obj, old));
  return errs;
}

function validateSubsetReplicas(total: number | null | undefined, subsets: UDSubset[]): FieldError[] {
  const errs: FieldError[] = [];
  const elastic = subsets.some((s) => s.minReplicas != null || s.maxReplicas != null);
  const fixed = subsets.some((s) => s.replicas != null);
  // Rule 3: mutually exclusive.
  if (elastic && fixed) {
    return [
      invalid(
        'spec.topology.subsets',
        'replicas',
        'subset replicas and minReplicas/maxReplicas can not be used together',
      ),
    ];
  }
  const t = total ?? -1;
  if (elastic) {
    // Rule 4.
    if (total == null)
      errs.push(required('spec.replicas', 'spec.replicas must be set when minReplicas/maxReplicas are used'));
    if (!subsets.some((s) => s.maxReplicas == null)) {
      errs.push(
        invalid('spec.topology.subsets', 'maxReplicas', 'at least one subset must have nil maxReplicas'),
      );
    }
    let sumMin = 0;
    let sumMax = 0;
    for (const [i, s] of subsets.entries()) {
      const f = `spec.topology.subsets[${i}]`;
      const min = s.minReplicas != null ? parseSubsetReplicas(t, s.minReplicas) : { value: 0 };
      const max =
        s.maxReplicas != null
          ? parseSubsetReplicas(t, s.maxReplicas)
          : { value: UNBOUNDED_MAX_FOR_VALIDATION };
      if ('error' in min) errs.push(invalid(`${f}.minReplicas`, s.minReplicas, min.error));
      if ('error' in max) errs.push(invalid(`${f}.maxReplicas`, s.maxReplicas, max.error));
      if ('value' in min && 'value' in max) {
        if (min.value > max.value) {
          errs.push(
            invalid(
              `${f}.minReplicas`,
              s.minReplicas,
              'minReplicas must be less than or equal to maxReplicas',
            ),
          );
        }
        sumMin += min.value;
        sumMax += max.value;
      }
    }
    if (sumMin > sumMax) {
      errs.push(
        invalid(
          'spec.topology.subsets',
          sumMin,
          `sum of minReplicas (${sumMin}) must not exceed sum of maxReplicas (${sumMax})`,
        ),
      );
    }
    return errs;
  }
  let sum = 0;
  let specified = 0;
  for (const [i, s] of subsets.entries()) {
    const f = `spec.topology.subsets[${i}].replicas`;
    if (s.replicas == null) {
      // Rule 6: without a total every subset must set its replicas.
      if (total == null) errs.push(required(f, 'subset replicas must be set when spec.replicas is unset'));
      continue;
    }
    const parsed = parseSubsetReplicas(t, s.replicas);
    if ('error' in parsed) {
      errs.push(invalid(f, s.replicas, parsed.error));
      continue;
    }
    sum += parsed.value;
    specified++;
  }
  // Rule 5.
  if (total != null && sum > total) {
    errs.push(
      invalid(
        'spec.topology.subsets',
        sum,
        `sum of indicated subset replicas ${sum} should not be greater than UnitedDeployment replicas ${total}`,
      ),
    );
  } else if (total != null && subsets.length > 0 && specified === subsets.length && sum !== total) {
    errs.push(
      invalid(
        'spec.topology.subsets',
        sum,
        `if replicas of all subsets are provided, the sum of indicated subset replicas ${sum} should equal UnitedDeployment replicas ${total}`,
      ),
    );
  }
  return errs;
}

function validateUpdate(obj: UnitedDeploymentObject, old: UnitedDeploymentObject): FieldError[] {
  const errs: FieldError[] = [];
  const oldSubsets = new Map((old.spec?.topology?.subsets ?? []).map((s) => [s.name, s]));
  for (const [i, s] of (obj.spec?.topology?.subsets ?? []).entries()) {
    const prev = oldSubsets.get(s.name);
    if (!prev) continue;
    if (!jsonEqual(s.nodeSelectorTerm ?? null, prev.nodeSelectorTerm ?? null)) {
      errs.push(forbidden(`spec.topology.subsets[${i}].nodeSelectorTerm`, 'may not be changed in an update'));
    }
    if (!jsonEqual(s.tolerations ?? null, prev.tolerations ?? null)) {
      errs.push(forbidden(`spec.topology.subsets[${i}].tolerations`, 'may not be changed in an update'));
    }
  }
  const kind = templateKindOf(obj.spec?.template);
  if (kind && kind === templateKindOf(old.spec?.template)) {
    const field = TEMPLATE_FIELD[kind];
    const next = (obj.spec.template?.[field]?.spec ?? {}) as Record<string, unknown>;
    const prev = (old.spec.template?.[field]?.spec ?? {}) as Record<string, unknown>;
    const mutable = MUTABLE_TEMPLATE_SPEC_FIELDS[kind];
    const immutable = mutable
      ? [...new Set([...Object.keys(next), ...Object.keys(prev)])].filter((k) => !mutable.includes(k))
      : ['selector'];
    for (const k of immutable) {
      if (!jsonEqual(next[k] ?? null, prev[k] ?? null)) {
        errs.push(
          forbidden(
            `spec.template.${field}.spec`,
            mutable
              ? `updates to ${kind} spec for fields other than ${mutable.map((m) => `'${m}'`).join(', ')} are forbidden`
              : 'field selector is immutable',
          ),
        );
        break;
      }
    }
  }
  return errs;
}
