// What the AdvancedCronJob validating webhook rejects (docs/reference/advancedcronjob.md AC2.2–AC2.4):
// metadata and name, the cron schedule, the templates (with the imageListPullJobTemplate checks
// of AC2.3), the non-negative counters, the time zone, and on update the immutable fields.

import type { AdvancedCronJob, AdvancedCronJobSpec, ImageListPullJobSpec } from '@kruise-ts/api';
import { checkStructure } from '@kruise-ts/api';
import {
  type FieldError,
  forbidden,
  IS_NEGATIVE_ERROR_MSG,
  invalid,
  validateImmutableField,
  validateObjectMeta,
  validatePodTemplateBasics,
} from '@kruise-ts/core';
import { parseCronSchedule } from '../cron/parse';
import { loadLocation, resolveDefaultZone } from '../cron/zone';
import { validateImageList, validateJobTemplateSelectors } from '../imagepulljob/validation';
import { sameJSON } from '../util';

/** `ctx` of {@link validateAdvancedCronJob}. */
export interface AdvancedCronJobValidationContext {
  /** Zone D (the manager's local zone) the schedule is parsed in; default UTC. */
  defaultTimeZone?: string;
}

const NAME_RE = /^[a-zA-Z0-9-]+$/;
const NAME_MSG =
  "AdvancedCronJob name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')";
const TEMPLATE_NAMES =
  'either JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided';
/** AC2.3 item 4: the largest accepted `activeDeadlineSeconds` of an imageListPullJobTemplate. */
export const MAX_ILPJ_ACTIVE_DEADLINE_SECONDS = 86400;

const isSet = (v: unknown) => v !== undefined && v !== null;

/** AC2.2 item 1: the name rule (`^[a-zA-Z0-9\-]+$`, at most 63 characters). */
export function validateAdvancedCronJobName(name: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!NAME_RE.test(name)) errs.push(invalid('metadata.name', name, NAME_MSG));
  if (name.length > 63) errs.push(invalid('metadata.name', name, 'must be no more than 63 characters'));
  return errs;
}

/**
 * AC2.3: the imageListPullJobTemplate checks, stopping at the first failure: selectors, images,
 * then `completionPolicy.type` must be `Always`, `activeDeadlineSeconds ≤ 86400`, `timeoutSeconds ≤
 * activeDeadlineSeconds` when both are set, and no `ttlSecondsAfterFinished`.
 */
export function validateImageListPullJobTemplate(
  spec: ImageListPullJobSpec | undefined,
  path: string,
): FieldError | undefined {
  const sp = `${path}.spec`;
  const first = validateJobTemplateSelectors(spec, sp) ?? validateImageList(spec?.images, `${sp}.images`);
  if (first) return first;
  const cp = spec?.completionPolicy ?? {};
  const cpp = `${sp}.completionPolicy`;
  if (cp.type !== 'Always')
    return invalid(
      `${cpp}.type`,
      cp.type ?? '',
      `completionPolicy should be Always, but current value is: ${cp.type ?? ''}`,
    );
  const ads = cp.activeDeadlineSeconds;
  if (isSet(ads) && (ads as number) > MAX_ILPJ_ACTIVE_DEADLINE_SECONDS)
    return invalid(
      `${cpp}.activeDeadlineSeconds`,
      ads,
      `must be less than ${MAX_ILPJ_ACTIVE_DEADLINE_SECONDS}`,
    );
  const timeout = spec?.pullPolicy?.timeoutSeconds;
  if (isSet(ads) && isSet(timeout) && (timeout as number) > (ads as number))
    return invalid(
      `${sp}.pullPolicy.timeoutSeconds`,
      timeout,
      'must be less than or equal to completionPolicy.activeDeadlineSeconds',
    );
  if (isSet(cp.ttlSecondsAfterFinished))
    return invalid(
      `${cpp}.ttlSecondsAfterFinished`,
      cp.ttlSecondsAfterFinished,
      'ttlSecondsAfterFinished is not supported in advancedCronJob',
    );
  return undefined;
}

/** AC2.2 items 2–5 on one spec. */
function validateSpec(spec: AdvancedCronJobSpec, defaultZone: string): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = spec.schedule ?? '';
  if (schedule === '')
    errs.push(
      invalid('spec.schedule', schedule, 'schedule cannot be empty, please provide valid cron schedule.'),
    );
  const parsed = parseCronSchedule(schedule, defaultZone);
  if ('error' in parsed)
    errs.push(
      invalid(
        'spec.schedule',
        schedule,
        parsed.crash ? `invalid cron schedule: ${parsed.error}` : parsed.error,
      ),
    );
  if (schedule.includes('TZ') && isSet(spec.timeZone))
    errs.push(
      invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'),
    );

  const t = spec.template ?? {};
  if (t.jobTemplate)
    errs.push(
      ...validatePodTemplateBasics(t.jobTemplate.spec?.template, 'spec.template', {
        allowAnyRestartPolicy: true,
      }),
    );
  if (t.broadcastJobTemplate)
    errs.push(
      ...validatePodTemplateBasics(t.broadcastJobTemplate.spec?.template, 'spec.template', {
        allowAnyRestartPolicy: true,
      }),
    );
  if (t.imageListPullJobTemplate) {
    const cp = spec.concurrencyPolicy ?? '';
    if (cp !== 'Replace' && cp !== 'Forbid')
      errs.push(
        invalid(
          'spec.spec.concurrencyPolicy',
          cp,
          `concurrencyPolicy should be Replace or Forbid, but current value is: ${cp}`,
        ),
      );
    const e = validateImageListPullJobTemplate(
      t.imageListPullJobTemplate.spec,
      'spec.template.imageListPullJobTemplate',
    );
    if (e) errs.push(e);
  }
  const count = [t.jobTemplate, t.broadcastJobTemplate, t.imageListPullJobTemplate].filter(isSet).length;
  if (count === 0) errs.push(forbidden('spec.template', `spec must have one template, ${TEMPLATE_NAMES}`));
  if (count > 1) errs.push(forbidden('spec.template', `spec can have only one template, ${TEMPLATE_NAMES}`));

  for (const f of [
    'startingDeadlineSeconds',
    'successfulJobsHistoryLimit',
    'failedJobsHistoryLimit',
  ] as const) {
    const v = spec[f];
    if (isSet(v) && (v as number) < 0) errs.push(invalid(`spec.${f}`, v, IS_NEGATIVE_ERROR_MSG));
  }

  if (isSet(spec.timeZone)) {
    const tz = spec.timeZone as string;
    if (tz === '') errs.push(invalid('spec.timeZone', tz, 'timeZone must be nil or non-empty string'));
    else {
      if (tz.toLowerCase() === 'local')
        errs.push(
          invalid(
            'spec.timeZone',
            tz,
            'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
          ),
        );
      const loc = loadLocation(tz, defaultZone);
      if ('error' in loc) errs.push(invalid('spec.timeZone', tz, loc.error));
    }
  }
  return errs;
}

const MUTABLE: readonly (keyof AdvancedCronJobSpec)[] = [
  'schedule',
  'concurrencyPolicy',
  'successfulJobsHistoryLimit',
  'failedJobsHistoryLimit',
  'startingDeadlineSeconds',
  'paused',
  'timeZone',
];

/**
 * AC2.4 item 3: the new spec with the mutable fields (and an existing imageListPullJobTemplate)
 * copied from the old spec must equal the old spec.
 */
function validateImmutableSpec(spec: AdvancedCronJobSpec, old: AdvancedCronJobSpec): FieldError[] {
  const merged: Record<string, unknown> = { ...spec };
  for (const k of MUTABLE) {
    if (isSet(old[k])) merged[k] = old[k];
    else delete merged[k];
  }
  if (old.template?.imageListPullJobTemplate)
    merged.template = {
      ...(spec.template ?? {}),
      imageListPullJobTemplate: old.template.imageListPullJobTemplate,
    };
  if (sameJSON(merged, old)) return [];
  return [
    forbidden(
      'spec',
      "updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden",
    ),
  ];
}

/**
 * The AdvancedCronJob validating webhook on the defaulted object (docs/reference/advancedcronjob.md AC2).
 * CREATE (no `old`): metadata (namespace, labels, annotations, and the name rule), schedule,
 * templates, non-negative counters, time zone; every failure is reported, in that order.
 * UPDATE: name and namespace immutable, the same spec checks, then the immutability rule.
 *
 * Example: schedule `0 0 * * 7` → `spec.schedule: Invalid value: "0 0 * * 7": end of range (7)
 * above maximum (6): 7`.
 */
export function validateAdvancedCronJob(
  obj: AdvancedCronJob,
  old?: AdvancedCronJob,
  ctx: AdvancedCronJobValidationContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('AdvancedCronJob', obj, { admission: true });
  if (shape.length > 0) return shape;
  const zone = resolveDefaultZone(ctx.defaultTimeZone);
  const errs: FieldError[] = [];
  const meta = obj?.metadata ?? {};
  if (old) {
    errs.push(...validateImmutableField(meta.name, old.metadata?.name, 'metadata.name'));
    errs.push(...validateImmutableField(meta.namespace, old.metadata?.namespace, 'metadata.namespace'));
  } else {
    errs.push(
      ...validateObjectMeta(meta, 'metadata').filter(
        (e) => !(e.field === 'metadata.name' && e.type === 'FieldValueInvalid'),
      ),
    );
    if (meta.name) errs.push(...validateAdvancedCronJobName(meta.name));
  }
  const spec = obj?.spec ?? ({} as AdvancedCronJobSpec);
  errs.push(...validateSpec(spec, zone));
  if (old?.spec) errs.push(...validateImmutableSpec(spec, old.spec));
  return errs;
}
