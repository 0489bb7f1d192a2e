// What the ImagePullJob and ImageListPullJob validating webhooks reject (docs/reference/daemon.md §3.4,
// §6.1), and the shared template checks AdvancedCronJob runs on its imageListPullJobTemplate
// (docs/reference/advancedcronjob.md AC2.3). Like upstream, each check list stops at the first failure.

import type { CompletionPolicy, ImageListPullJob, ImagePullJob, ImagePullJobTemplate } from '@kruise-ts/api';
import { checkStructure } from '@kruise-ts/api';
import {
  type FeatureGates,
  type FieldError,
  forbidden,
  formatFieldError,
  invalid,
  required,
  resolveFeatureGates,
  validateLabelSelector,
} from '@kruise-ts/core';
import { imageParseError } from '../imageRef';

/** `ctx` of the image-pull validators. */
export interface ImagePullValidationContext {
  /**
   * When given, the webhooks refuse every object while `KruiseDaemon` or `ImagePullJobGate` is
   * off (missing gates take v1.8.2's defaults, where `ImagePullJobGate` is off). When absent
   * the gates are not checked (the chart turns `ImagePullJobGate` on).
   */
  featureGates?: Partial<FeatureGates>;
}

/** Upstream's limit on `images` of an ImageListPullJob (§6.1). */
export const MAX_IMAGES_PER_LIST_JOB = 255;

const isSet = (v: unknown) => v !== undefined && v !== null;

/** §3.4 / §5.3 gate refusal: `feature-gate <gate> is not enabled`. */
export function imagePullGateError(featureGates: Partial<FeatureGates> | undefined): FieldError | undefined {
  if (featureGates === undefined) return undefined;
  const gates = resolveFeatureGates(featureGates);
  for (const g of ['KruiseDaemon', 'ImagePullJobGate'] as const) {
    if (!gates[g]) return forbidden('', `feature-gate ${g} is not enabled`);
  }
  return undefined;
}

/**
 * AC2.3 items 1–2 / §3.4 selector rules: `selector` with a label selector (even an empty
 * `matchLabels`) must not also have `names`, and must be valid; `names` must be unique;
 * `podSelector` excludes `selector` and must be valid.
 */
export function validateJobTemplateSelectors(
  spec: ImagePullJobTemplate | undefined,
  path: string,
): FieldError | undefined {
  const sel = spec?.selector;
  if (isSet(sel) && sel) {
    const hasLabelSelector = isSet(sel.matchLabels) || isSet(sel.matchExpressions);
    if (hasLabelSelector) {
      if (isSet(sel.names))
        return invalid(
          `${path}.selector`,
          sel,
          'can not set both names and labelSelector in this spec.selector',
        );
      const errs = validateLabelSelector(sel, `${path}.selector`);
      if (errs.length > 0)
        return invalid(`${path}.selector`, sel, `invalid selector: ${formatFieldError(errs[0])}`);
    }
    const names = sel.names ?? [];
    if (new Set(names).size !== names.length)
      return invalid(`${path}.selector.names`, names, 'duplicated name in selector names');
  }
  const podSel = spec?.podSelector;
  if (isSet(podSel) && podSel) {
    if (isSet(sel))
      return invalid(`${path}.podSelector`, podSel, 'can not set both selector and podSelector');
    const errs = validateLabelSelector(podSel, `${path}.podSelector`);
    if (errs.length > 0)
      return invalid(`${path}.podSelector`, podSel, `invalid selector: ${formatFieldError(errs[0])}`);
  }
  return undefined;
}

/** One image reference: non-empty and parsable (§2.1). */
export function validateImageRef(image: unknown, path: string): FieldError | undefined {
  if (typeof image !== 'string' || image === '') return required(path, 'image can not be empty');
  const err = imageParseError(image);
  return err === undefined ? undefined : invalid(path, image, `invalid image ${image}: ${err}`);
}

/**
 * AC2.3 item 3 / §6.1: `images` non-empty, at most 255, unique, each parsable.
 * Example: `['nginx', 'nginx']` → `images cannot have duplicate values`.
 */
export function validateImageList(images: unknown, path: string): FieldError | undefined {
  const list = Array.isArray(images) ? (images as unknown[]) : [];
  if (list.length === 0) return required(path, 'image can not be empty');
  if (list.length > MAX_IMAGES_PER_LIST_JOB)
    return invalid(path, list.length, `the maximum number of images cannot > ${MAX_IMAGES_PER_LIST_JOB}`);
  if (new Set(list).size !== list.length) return invalid(path, list, 'images cannot have duplicate values');
  for (let i = 0; i < list.length; i++) {
    const e = validateImageRef(list[i], `${path}[${i}]`);
    if (e) return e;
  }
  return undefined;
}

/**
 * §3.4 / §6.1 completion-policy rules. `Never` forbids `activeDeadlineSeconds` and
 * `ttlSecondsAfterFinished`; any type other than `Always` / `Never` is rejected. With
 * `checkDeadlineVsTimeout` (ImagePullJob only), an `Always` job's `activeDeadlineSeconds` must
 * not be below `pullPolicy.timeoutSeconds` (600 if unset).
 *
 * Example: `{type: 'Always', activeDeadlineSeconds: 300}` with no timeout → rejected (300 < 600).
 */
export function validateCompletionPolicy(
  spec: ImagePullJobTemplate | undefined,
  path: string,
  checkDeadlineVsTimeout: boolean,
): FieldError | undefined {
  const cp: CompletionPolicy = spec?.completionPolicy ?? {};
  const p = `${path}.completionPolicy`;
  switch (cp.type) {
    case 'Always': {
      if (checkDeadlineVsTimeout && isSet(cp.activeDeadlineSeconds)) {
        const timeout = spec?.pullPolicy?.timeoutSeconds ?? 600;
        if ((cp.activeDeadlineSeconds as number) < timeout)
          return invalid(
            `${p}.activeDeadlineSeconds`,
            cp.activeDeadlineSeconds,
            `activeDeadlineSeconds must be greater than or equal to pullPolicy.timeoutSeconds (${timeout})`,
          );
      }
      return undefined;
    }
    case 'Never':
      if (isSet(cp.activeDeadlineSeconds))
        return invalid(
          `${p}.activeDeadlineSeconds`,
          cp.activeDeadlineSeconds,
          'activeDeadlineSeconds is not allowed when completionPolicy.type is Never',
        );
      if (isSet(cp.ttlSecondsAfterFinished))
        return invalid(
          `${p}.ttlSecondsAfterFinished`,
          cp.ttlSecondsAfterFinished,
          'ttlSecondsAfterFinished is not allowed when completionPolicy.type is Never',
        );
      return undefined;
    default:
      return invalid(`${p}.type`, cp.type ?? '', `unknown completionPolicy type ${cp.type ?? ''}`);
  }
}

/**
 * The ImagePullJob validating webhook (docs/reference/daemon.md §3.4), on create and update alike, on
 * the defaulted object (run `setDefaultsImagePullJob` first, as the mutating webhook does).
 * Checks, in order, stopping at the first failure: the feature gates (when `ctx.featureGates`
 * is given), `selector`, `podSelector`, `image`, `completionPolicy`.
 *
 * Example: `{image: 'nginx', completionPolicy: {type: 'Never', ttlSecondsAfterFinished: 10}}` →
 * `spec.completionPolicy.ttlSecondsAfterFinished: Invalid value: 10: …`.
 */
export function validateImagePullJob(
  obj: ImagePullJob,
  _old?: ImagePullJob,
  ctx: ImagePullValidationContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('ImagePullJob', obj, { admission: true });
  if (shape.length > 0) return shape;
  const spec = obj?.spec;
  const err =
    imagePullGateError(ctx.featureGates) ??
    validateJobTemplateSelectors(spec, 'spec') ??
    validateImageRef(spec?.image, 'spec.image') ??
    validateCompletionPolicy(spec, 'spec', true);
  return err ? [err] : [];
}

/**
 * The ImageListPullJob validating webhook (docs/reference/daemon.md §6.1): the selector rules, then
 * `images` (non-empty, ≤ 255, unique, parsable), then the `Never` / unknown-type rules. The
 * `Always` "activeDeadlineSeconds ≥ timeoutSeconds" check is **not** applied (quirk: each
 * child ImagePullJob is then rejected instead). Stops at the first failure.
 */
export function validateImageListPullJob(
  obj: ImageListPullJob,
  _old?: ImageListPullJob,
  ctx: ImagePullValidationContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('ImageListPullJob', obj, { admission: true });
  if (shape.length > 0) return shape;
  const spec = obj?.spec;
  const err =
    imagePullGateError(ctx.featureGates) ??
    validateJobTemplateSelectors(spec, 'spec') ??
    validateImageList(spec?.images, 'spec.images') ??
    validateCompletionPolicy(spec, 'spec', false);
  return err ? [err] : [];
}
