// validateCloneSet: what OpenKruise v1.8.2's CloneSet validating webhook rejects
// (docs/reference/cloneset.md §2.2), field by field, as Kubernetes-style FieldErrors.

import type { CloneSet, CloneSetSpec, CloneSetUpdateStrategyType, IntOrString } from '@kruise-ts/api';
import { checkStructure } from '@kruise-ts/api';
import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  jsonDiff,
  jsonEqual,
  kruiseScaledValueFromIntOrPercent,
  legacyValueFromIntOrPercent,
  notSupported,
  required,
  validatePodTemplateBasics,
  validateScatterStrategy,
  validateSelectorMatchesTemplate,
  validateUpdatePriorityStrategy,
  validateWorkloadSelector,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { DEFAULT_MAX_UNAVAILABLE } from './params';
import type { ValidateCloneSetContext } from './types';

/** The update strategy types the webhook accepts. */
export const UPDATE_STRATEGY_TYPES = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'] as const;

/** Whether `value` is one of {@link UPDATE_STRATEGY_TYPES}. */
function isUpdateStrategyType(value: string): value is CloneSetUpdateStrategyType {
  return UPDATE_STRATEGY_TYPES.some((t) => t === value);
}

/** The spec fields that may change on update (§2.2). */
export const MUTABLE_SPEC_FIELDS = [
  'replicas',
  'template',
  'scaleStrategy',
  'updateStrategy',
  'minReadySeconds',
  'lifecycle',
  'revisionHistoryLimit',
  'volumeClaimTemplates',
] as const;

const IMMUTABLE_DETAIL =
  "updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', " +
  "'updateStrategy', 'minReadySeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden";

/**
 * Validates a CloneSet as the webhook does on create (`old` absent) or update (§2.2):
 *
 * - `spec.replicas >= 0`; the selector is present, valid, non-empty and matches
 *   `template.metadata.labels`; `restartPolicy` is empty or `Always`; no `activeDeadlineSeconds`;
 * - `scaleStrategy.podsToDelete` has no duplicates, and (when `ctx.pods` is given) every newly
 *   added name is an existing, non-terminating pod controlled by this CloneSet;
 * - `updateStrategy.type` is one of the three; `partition` parses (§5.2) and is >= 0;
 *   `maxSurge` resolves to 0 for InPlaceOnly; with `replicas > 0`, maxUnavailable and maxSurge
 *   (round-up) are not both < 1; priority and scatter strategies are well formed;
 * - on update only the fields of {@link MUTABLE_SPEC_FIELDS} change, and with InPlaceOnly the
 *   template spec changes only by replacing container images.
 *
 * Example: `updateStrategy: {maxUnavailable: 0, maxSurge: 0}` with 3 replicas gives
 * `spec.updateStrategy.maxUnavailable: Invalid value: 0: maxUnavailable and maxSurge should not both be less than 1`.
 */
export function validateCloneSet(
  obj: CloneSet,
  old?: CloneSet,
  ctx: ValidateCloneSetContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('CloneSet', obj, { admission: true });
  if (shape.length > 0) return shape;
  // The type says every CloneSet has a spec; JSON from a user may not.
  const spec: CloneSetSpec | undefined = obj.spec;
  if (!spec || typeof spec !== 'object') return [required('spec', 'spec is required')];
  const errs: FieldError[] = [];
  const replicas = spec.replicas;
  if (replicas !== undefined && replicas !== null && (!Number.isInteger(replicas) || replicas < 0)) {
    errs.push(invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
  }
  errs.push(...validateSelectorAndTemplate(spec));
  errs.push(...validateScaleStrategy(obj, old, ctx.pods));
  errs.push(...validateUpdateStrategy(spec));
  if (old?.spec) errs.push(...validateUpdate(spec, old.spec));
  return errs;
}

function validateSelectorAndTemplate(spec: CloneSetSpec): FieldError[] {
  const errs: FieldError[] = [...validateWorkloadSelector(spec.selector, 'spec.selector', 'CloneSet')];
  if (!spec.template) return [...errs, required('spec.template')];
  if (errs.length === 0) {
    errs.push(
      ...validateSelectorMatchesTemplate(
        spec.selector,
        spec.template.metadata?.labels,
        'spec.template.metadata.labels',
      ),
    );
  }
  errs.push(
    ...validatePodTemplateBasics(spec.template, 'spec.template', {
      forbidActiveDeadlineSecondsFor: 'cloneset',
      volumeClaimTemplates: spec.volumeClaimTemplates,
    }),
  );
  return errs;
}

function isControlledBy(pod: Pod, uid: string | undefined): boolean {
  return (pod.metadata?.ownerReferences ?? []).some(
    (r) => r.controller === true && uid !== undefined && r.uid === uid,
  );
}

function validateScaleStrategy(
  obj: CloneSet,
  old: CloneSet | undefined,
  pods: readonly Pod[] | undefined,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = obj.spec.scaleStrategy?.podsToDelete ?? [];
  const field = 'spec.scaleStrategy.podsToDelete';
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (seen.has(name)) errs.push(duplicate(`${field}[${i}]`, name));
    seen.add(name);
  });
  if (!pods) return errs;
  const before = new Set(old?.spec?.scaleStrategy?.podsToDelete ?? []);
  const ns = obj.metadata?.namespace ?? '';
  const byName = new Map<string, Pod>();
  for (const p of pods) if ((p.metadata?.namespace ?? '') === ns) byName.set(p.metadata?.name ?? '', p);
  for (const name of new Set(names)) {
    if (before.has(name)) continue;
    const pod = byName.get(name);
    if (!pod) errs.push(invalid(field, name, `pod ${name} does not exist`));
    else if (pod.metadata?.deletionTimestamp) errs.push(invalid(field, name, `pod ${name} is terminating`));
    else if (!isControlledBy(pod, obj.metadata?.uid))
      errs.push(invalid(field, name, `pod ${name} is not controlled by this cloneset`));
  }
  return errs;
}

/** Resolves with the legacy helper (round-up), or reports the parse error at `field`. */
function resolveOrError(
  value: IntOrString,
  total: number,
  field: string,
  errs: FieldError[],
): number | undefined {
  try {
    return legacyValueFromIntOrPercent(value, total, true);
  } catch (e) {
    errs.push(invalid(field, value, e instanceof Error ? e.message : String(e)));
    return undefined;
  }
}

function validateUpdateStrategy(spec: CloneSetSpec): FieldError[] {
  const errs: FieldError[] = [];
  const us = spec.updateStrategy ?? {};
  const base = 'spec.updateStrategy';
  // Read as a plain string: the field comes from user JSON and may hold any text.
  const type: string = us.type ?? 'ReCreate';
  if (!isUpdateStrategyType(type)) {
    errs.push(notSupported(`${base}.type`, type, UPDATE_STRATEGY_TYPES));
  }
  const replicas = spec.replicas ?? 1;
  if (us.partition !== undefined && us.partition !== null) {
    try {
      const p =
        typeof us.partition === 'number'
          ? us.partition
          : kruiseScaledValueFromIntOrPercent(us.partition, replicas, true);
      if (p < 0)
        errs.push(invalid(`${base}.partition`, us.partition, 'partition must be greater than or equal to 0'));
    } catch (e) {
      errs.push(invalid(`${base}.partition`, us.partition, e instanceof Error ? e.message : String(e)));
    }
  }
  const maxSurge = us.maxSurge ?? 0;
  const surge = resolveOrError(maxSurge, replicas, `${base}.maxSurge`, errs);
  const maxUnavailable = us.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE;
  const unavailable = resolveOrError(maxUnavailable, replicas, `${base}.maxUnavailable`, errs);
  if (type === 'InPlaceOnly' && surge !== undefined && surge !== 0) {
    errs.push(invalid(`${base}.maxSurge`, maxSurge, 'can not use maxSurge with strategy type InPlaceOnly'));
  }
  if (replicas > 0 && surge !== undefined && unavailable !== undefined && surge < 1 && unavailable < 1) {
    errs.push(
      invalid(
        `${base}.maxUnavailable`,
        maxUnavailable,
        'maxUnavailable and maxSurge should not both be less than 1',
      ),
    );
  }
  errs.push(...validateUpdatePriorityStrategy(us.priorityStrategy, `${base}.priorityStrategy`));
  errs.push(...validateScatterStrategy(us.scatterStrategy, `${base}.scatterStrategy`));
  return errs;
}

const IMAGE_PATH = /^\/containers\/\d+\/image$/;

function validateUpdate(spec: CloneSetSpec, oldSpec: CloneSetSpec): FieldError[] {
  const errs: FieldError[] = [];
  const strip = (s: CloneSetSpec) => {
    const copy: Record<string, unknown> = { ...s };
    for (const k of MUTABLE_SPEC_FIELDS) delete copy[k];
    return copy;
  };
  if (!jsonEqual(strip(spec), strip(oldSpec))) errs.push(forbidden('spec', IMMUTABLE_DETAIL));
  if ((spec.updateStrategy?.type ?? 'ReCreate') === 'InPlaceOnly') {
    const ops = jsonDiff(oldSpec.template?.spec ?? {}, spec.template?.spec ?? {});
    if (ops.some((op) => op.op !== 'replace' || !IMAGE_PATH.test(op.path))) {
      errs.push(
        forbidden(
          'spec.template.spec',
          'only container images can be updated in place with strategy type InPlaceOnly',
        ),
      );
    }
  }
  return errs;
}
